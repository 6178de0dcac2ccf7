import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from '@drover/protocol';
import { RawWorkerSocket, createTestStore, testDialects } from '@drover/testing';
import { startScheduler, WORKER_TOKEN, type TestScheduler } from './scheduler-harness.ts';

const pkg = { name: 'drover.test', version: '0.4.0' };
const echo = (id: string) => ({
  id,
  type: 'test.echo',
  package: pkg,
  parameters: {},
  ui: { inputPorts: [{ key: 'value', binding: { path: 'parameters.value' } }], outputPorts: [{ key: 'value', binding: { path: 'results.value' } }] },
});
const chain = () => {
  const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
  return { id: crypto.randomUUID(), nodes: [echo(a), echo(b)], edges: [{ id: crypto.randomUUID(), source: { node: a, port: 'value' }, target: { node: b, port: 'value' } }] };
};

/** Answer a dispatch: ACK it and succeed with `value`. */
function succeed(w: RawWorkerSocket, d: Frame<'cmd.dispatch'>, value: unknown): Frame<'result'> {
  w.send(w.frame('ack', { status: 'ok' }, { ackFor: d.id }));
  const p = d.payload;
  const r = w.frame(
    'result',
    { run_id: p.run_id, task_id: p.task_id, node_id: p.node_id, attempt: p.attempt, dispatch_id: p.dispatch_id, status: 'succeeded', results: { value }, timings: { started_at: new Date().toISOString(), finished_at: new Date().toISOString(), duration_ms: 1 } },
    { requestAck: true },
  );
  w.send(r);
  return r;
}

describe.each(testDialects())('resource affinity on %s', (dialect) => {
  let store: Awaited<ReturnType<typeof createTestStore>>;
  let s: TestScheduler;
  beforeAll(async () => {
    store = await createTestStore(dialect);
    s = await startScheduler(store, { workerGraceMs: 300 });
  });
  afterAll(async () => {
    await s?.close();
    await store?.dispose();
  });

  const open: RawWorkerSocket[] = [];
  afterEach(() => {
    for (const w of open.splice(0)) w.close(); // a failed test must not leave workers that take the next test's work
  });
  const register = async (id: string) => {
    const w = await RawWorkerSocket.open(s.wsUrl, WORKER_TOKEN, `${id}-${dialect}`);
    open.push(w);
    await w.register([{ name: pkg.name, version: pkg.version, nodes: ['test.echo'] }], 1);
    return w;
  };
  const ref = (w: RawWorkerSocket) => ({ $resource: { workerId: w.workerId, id: 'page-1', type: 'playwright.page' } });

  it('sends a node that receives a live resource to the worker holding it, even when another reported last', async () => {
    const x = await register('left');
    const y = await register('right');
    const [a, b, c] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    const join = {
      ...echo(c),
      ui: {
        inputPorts: [
          { key: 'left', binding: { path: 'parameters.left' } },
          { key: 'right', binding: { path: 'parameters.right' } },
        ],
        outputPorts: [{ key: 'value', binding: { path: 'results.value' } }],
      },
    };
    const edge = (from: string, port: string) => ({ id: crypto.randomUUID(), source: { node: from, port: 'value' }, target: { node: c, port } });
    const created = await s.client.createRun({ workflow: { id: crypto.randomUUID(), nodes: [echo(a), echo(b), join], edges: [edge(a, 'left'), edge(b, 'right')] } });
    // Entry nodes a and b go one to each worker (capacity 1 each); the worker offered work first gets a.
    const [dx, dy] = (await Promise.all([x.next((f) => f.type === 'cmd.dispatch'), y.next((f) => f.type === 'cmd.dispatch')])) as [Frame<'cmd.dispatch'>, Frame<'cmd.dispatch'>];
    // The holder is the worker that ran b: the one a dispatch pass offers work to second.
    // ACK both at once, so a slow machine does not see dispatch resends (same frame id) later in the test.
    for (const [w, d] of [[x, dx], [y, dy]] as const) w.send(w.frame('ack', { status: 'ok' }, { ackFor: d.id }));
    const [holder, holderDispatch, other, otherDispatch] = dx.payload.node_id === b ? [x, dx, y, dy] : [y, dy, x, dx];
    const r1 = succeed(holder, holderDispatch, ref(holder)); // b hands out a live page held by `holder`
    await holder.next((f) => f.type === 'ack' && f.ack?.for === r1.id);
    succeed(other, otherDispatch, 'plain'); // a reports last, from the worker first in line, which is now free
    const dc = (await holder.next((f) => f.type === 'cmd.dispatch')) as Frame<'cmd.dispatch'>;
    expect(dc.payload).toMatchObject({ node_id: c, parameters: { left: 'plain', right: ref(holder) } });
    succeed(holder, dc, 'done');
    expect((await s.client.waitForRun(created.id, { timeoutMs: 15_000 })).status).toBe('succeeded');
    expect(other.frames.filter((f) => f.type === 'cmd.dispatch' && f.id !== otherDispatch.id)).toEqual([]); // a resend of its own dispatch is not new work
    x.close();
    y.close();
  });

  it('fails the node with E.RESOURCE.LOST when the holder goes away, instead of waiting forever', async () => {
    const x = await register('doomed-holder');
    const created = await s.client.createRun({ workflow: chain() });
    const d1 = (await x.next((f) => f.type === 'cmd.dispatch')) as Frame<'cmd.dispatch'>;
    const y = await register('willing-bystander');
    const r = succeed(x, d1, ref(x));
    await x.next((f) => f.type === 'ack' && f.ack?.for === r.id);
    x.close(); // the holder (and with it the page) is gone
    const run = await s.client.waitForRun(created.id, { timeoutMs: 15_000 });
    expect(run).toMatchObject({ status: 'failed', error: { code: 'E.RESOURCE.LOST', nodeId: run.nodes[1]!.nodeId } });
    expect(run.nodes[1]).toMatchObject({ status: 'failed', error: { code: 'E.RESOURCE.LOST' } });
    expect(y.frames.filter((f) => f.type === 'cmd.dispatch')).toEqual([]);
    y.close();
  });
});
