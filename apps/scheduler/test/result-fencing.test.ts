import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatchPayload, Frame } from '@drover/protocol';
import { RawWorkerSocket, createTestStore, testDialects } from '@drover/testing';
import { startScheduler, WORKER_TOKEN, type TestScheduler } from './scheduler-harness.ts';

const echoNode = (id: string, value: unknown) => ({
  id,
  type: 'test.echo',
  package: { name: 'drover.test', version: '0.1.0' },
  parameters: { value },
  ui: { inputPorts: [{ key: 'value', binding: { path: 'parameters.value' } }], outputPorts: [{ key: 'value', binding: { path: 'results.value' } }] },
});

describe.each(testDialects())('dispatch and result fencing on %s (raw worker socket)', (dialect) => {
  let store: Awaited<ReturnType<typeof createTestStore>>;
  let s: TestScheduler;
  let w: RawWorkerSocket;
  beforeAll(async () => {
    store = await createTestStore(dialect);
    s = await startScheduler(store, { ackTimeoutMs: 5000 });
    w = await RawWorkerSocket.open(s.wsUrl, WORKER_TOKEN, `fence-${dialect}`);
    await w.register([{ name: 'drover.test', version: '0.1.0', nodes: ['test.echo'] }], 1);
  });
  afterAll(async () => {
    w?.close();
    await s?.close();
    await store?.dispose();
  });

  const resultFor = (d: DispatchPayload, value: unknown, over: Partial<DispatchPayload> = {}, from: RawWorkerSocket = w) =>
    from.frame(
      'result',
      {
        run_id: d.run_id,
        task_id: d.task_id,
        node_id: d.node_id,
        attempt: over.attempt ?? d.attempt,
        dispatch_id: over.dispatch_id ?? d.dispatch_id,
        status: 'succeeded',
        results: { value },
        timings: { started_at: new Date().toISOString(), finished_at: new Date().toISOString(), duration_ms: 1 },
      },
      { requestAck: true },
    );
  const ackOf = async (f: Frame) => (await w.next((x) => x.type === 'ack' && x.ack?.for === f.id)).payload as { status: string };

  it('dispatches after commit, binds ports, records a result once and fences stale ones', async () => {
    const a = crypto.randomUUID();
    const b = crypto.randomUUID();
    const created = await s.client.createRun({
      workflow: {
        id: crypto.randomUUID(),
        nodes: [echoNode(a, 'from-a'), echoNode(b, 'unbound')],
        edges: [{ id: crypto.randomUUID(), source: { node: a, port: 'value' }, target: { node: b, port: 'value' } }],
      },
    });

    const d1 = (await w.next((f) => f.type === 'cmd.dispatch')) as Frame<'cmd.dispatch'>;
    expect(d1.payload).toMatchObject({ run_id: created.id, node_id: a, attempt: 1, parameters: { value: 'from-a' }, node: { type: 'test.echo' } });
    // Before the ACK the API shows the dispatch as pending, with its id and deadline.
    const pending = (await s.client.getRun(created.id)).nodes[0]!;
    expect(pending).toMatchObject({ status: 'dispatched', pendingAck: true, dispatchId: d1.payload.dispatch_id, workerId: w.workerId });
    expect(pending.ackDeadline).not.toBeNull();

    w.send(w.frame('ack', { status: 'ok' }, { ackFor: d1.id }));
    await expect.poll(async () => (await s.client.getRun(created.id)).nodes[0]!.status, { timeout: 15_000 }).toBe('running');

    // Wrong dispatch id and wrong attempt: fenced off, nothing recorded.
    const wrongDispatch = resultFor(d1.payload, 'x', { dispatch_id: crypto.randomUUID() });
    w.send(wrongDispatch);
    expect(await ackOf(wrongDispatch)).toEqual({ status: 'stale' });
    const wrongAttempt = resultFor(d1.payload, 'x', { attempt: 2 });
    w.send(wrongAttempt);
    expect(await ackOf(wrongAttempt)).toEqual({ status: 'stale' });
    expect((await s.client.getRun(created.id)).nodes[0]!.status).toBe('running');

    const good = resultFor(d1.payload, 'from-a');
    w.send(good);
    expect(await ackOf(good)).toEqual({ status: 'ok' });
    // The same frame again (a resend) and the same result in a new frame (a duplicate delivery).
    w.send(good);
    expect(await ackOf(good)).toEqual({ status: 'duplicate' });
    const again = resultFor(d1.payload, 'something else');
    w.send(again);
    expect(await ackOf(again)).toEqual({ status: 'duplicate' });

    // The successor got the value through the port binding, and was dispatched exactly once.
    const d2 = (await w.next((f) => f.type === 'cmd.dispatch')) as Frame<'cmd.dispatch'>;
    expect(d2.payload).toMatchObject({ node_id: b, parameters: { value: 'from-a' } });
    w.send(w.frame('ack', { status: 'ok' }, { ackFor: d2.id }));
    const last = resultFor(d2.payload, 'from-b');
    w.send(last);
    expect(await ackOf(last)).toEqual({ status: 'ok' });

    const run = await s.client.getRun(created.id);
    expect(run.status).toBe('succeeded');
    expect(run.nodes.map((n) => n.results)).toEqual([{ value: 'from-a' }, { value: 'from-b' }]);
    expect(w.frames.filter((f) => f.type === 'cmd.dispatch')).toEqual([]);
    // The successor was handed to the reporting worker inside the result's transaction (eager dispatch).
    const second = await store.db.selectFrom('tasks').select('timings').where('id', '=', d2.payload.task_id).executeTakeFirstOrThrow();
    expect(second.timings).toMatchObject({ eager: true });
    const events = await store.db.selectFrom('run_events').select(['type', 'node_id']).where('run_id', '=', created.id).execute();
    expect(events.filter((e) => e.type === 'node.succeeded')).toHaveLength(2);
  });

  it('makes a join ready exactly once when its inputs finish at the same time on two workers', async () => {
    const pkg = { name: 'drover.test', version: '0.3.0' };
    const sockets = await Promise.all(
      ['left', 'right'].map(async (side) => {
        const r = await RawWorkerSocket.open(s.wsUrl, WORKER_TOKEN, `join-${side}-${dialect}`);
        await r.register([{ name: pkg.name, version: pkg.version, nodes: ['test.echo'] }], 1);
        return r;
      }),
    );
    /** The next dispatch on any of the sockets, with the socket that got it. */
    const nextDispatch = async (timeoutMs = 15_000): Promise<[RawWorkerSocket, Frame<'cmd.dispatch'>]> => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        for (const r of sockets) {
          const i = r.frames.findIndex((f) => f.type === 'cmd.dispatch');
          if (i >= 0) return [r, r.frames.splice(i, 1)[0] as Frame<'cmd.dispatch'>];
        }
        if (Date.now() > until) throw new Error('no dispatch');
        await new Promise((res) => setTimeout(res, 10));
      }
    };
    const [a, b, c, d] = [0, 1, 2, 3].map(() => crypto.randomUUID()) as [string, string, string, string];
    const join = {
      ...echoNode(d, null),
      package: pkg,
      parameters: {},
      ui: {
        inputPorts: [
          { key: 'left', binding: { path: 'parameters.left' } },
          { key: 'right', binding: { path: 'parameters.right' } },
        ],
        outputPorts: [{ key: 'value', binding: { path: 'results.value' } }],
      },
    };
    const e = (from: string, to: string, port: string) => ({ id: crypto.randomUUID(), source: { node: from, port: 'value' }, target: { node: to, port } });
    const created = await s.client.createRun({
      workflow: {
        id: crypto.randomUUID(),
        nodes: [{ ...echoNode(a, 'A'), package: pkg }, { ...echoNode(b, 'B'), package: pkg }, { ...echoNode(c, 'C'), package: pkg }, join],
        edges: [e(a, b, 'value'), e(a, c, 'value'), e(b, d, 'left'), e(c, d, 'right')],
      },
    });
    const finish = (r: RawWorkerSocket, f: Frame<'cmd.dispatch'>, value: unknown) => {
      r.send(r.frame('ack', { status: 'ok' }, { ackFor: f.id }));
      const d0 = f.payload;
      r.send(
        r.frame(
          'result',
          { run_id: d0.run_id, task_id: d0.task_id, node_id: d0.node_id, attempt: d0.attempt, dispatch_id: d0.dispatch_id, status: 'succeeded', results: { value }, timings: { started_at: new Date().toISOString(), finished_at: new Date().toISOString(), duration_ms: 1 } },
          { requestAck: true },
        ),
      );
    };
    const [ra, da] = await nextDispatch();
    finish(ra, da, 'A');
    const [r1, first] = await nextDispatch();
    const [r2, second] = await nextDispatch();
    expect(r1).not.toBe(r2); // one branch on each worker
    expect([first.payload.node_id, second.payload.node_id].sort()).toEqual([b, c].sort());
    const valueOf = (f: Frame<'cmd.dispatch'>) => (f.payload.node_id === b ? 'from-b' : 'from-c');
    // Both branches report at the same moment, on two sockets: two concurrent result transactions.
    finish(r1, first, valueOf(first));
    finish(r2, second, valueOf(second));
    const [rd, dd] = await nextDispatch();
    expect(dd.payload).toMatchObject({ node_id: d, parameters: { left: 'from-b', right: 'from-c' } });
    finish(rd, dd, 'D');
    const run = await s.client.waitForRun(created.id, { timeoutMs: 15_000 });
    expect(run.status).toBe('succeeded');
    await new Promise((res) => setTimeout(res, 200));
    expect(sockets.flatMap((r) => r.frames.filter((f) => f.type === 'cmd.dispatch'))).toEqual([]);
    for (const r of sockets) r.close();
  });

  it('fails the node with the worker code when the worker refuses a dispatch it has no handler for', async () => {
    const a = crypto.randomUUID();
    const created = await s.client.createRun({ workflow: { id: crypto.randomUUID(), nodes: [echoNode(a, 1)], edges: [] } });
    const d = (await w.next((f) => f.type === 'cmd.dispatch')) as Frame<'cmd.dispatch'>;
    w.send(w.frame('ack', { status: 'ok' }, { ackFor: d.id }));
    const refusal = w.frame(
      'command.error',
      { command_id: d.id, command_type: 'cmd.dispatch', run_id: d.payload.run_id, task_id: d.payload.task_id, attempt: 1, dispatch_id: d.payload.dispatch_id, code: 'E.RUNNER.NO_HANDLER', message: 'no handler' },
      { requestAck: true },
    );
    w.send(refusal);
    expect(await ackOf(refusal)).toEqual({ status: 'ok' });
    const run = await s.client.waitForRun(created.id, { timeoutMs: 15_000 });
    expect(run).toMatchObject({ status: 'failed', error: { code: 'E.RUNNER.NO_HANDLER', nodeId: a } });
  });

  it('resends an unacknowledged dispatch with the same id, then drops a worker that never ACKs and requeues its work', async () => {
    const slow = await startScheduler(store, { ackTimeoutMs: 100, maxSends: 3, workerGraceMs: 200 });
    try {
      const silent = await RawWorkerSocket.open(slow.wsUrl, WORKER_TOKEN, `silent-${dialect}`);
      await silent.register([{ name: 'drover.test', version: '0.2.0', nodes: ['test.echo'] }], 1);
      const created = await slow.client.createRun({ workflow: { id: crypto.randomUUID(), nodes: [{ ...echoNode(crypto.randomUUID(), 1), package: { name: 'drover.test', version: '0.2.0' } }], edges: [] } });
      const first = await silent.next((f) => f.type === 'cmd.dispatch');
      const second = await silent.next((f) => f.type === 'cmd.dispatch');
      expect(second.id).toBe(first.id);
      // It keeps its socket alive (pongs) but never ACKs: after maxSends the scheduler gives up on it.
      await silent.whenClosed();
      expect(silent.closed?.code).toBe(1008);
      expect(silent.frames.some((f) => f.type === 'error' && (f.payload as { code: string }).code === 'E.WS.ACK_TIMEOUT')).toBe(true);
      // Its attempt goes to a healthy worker as attempt 2.
      const healthy = await RawWorkerSocket.open(slow.wsUrl, WORKER_TOKEN, `healthy-${dialect}`);
      await healthy.register([{ name: 'drover.test', version: '0.2.0', nodes: ['test.echo'] }], 1);
      const d = (await healthy.next((f) => f.type === 'cmd.dispatch')) as Frame<'cmd.dispatch'>;
      expect(d.payload).toMatchObject({ run_id: created.id, attempt: 2 });
      healthy.send(healthy.frame('ack', { status: 'ok' }, { ackFor: d.id }));
      healthy.send(resultFor(d.payload, 'rescued', {}, healthy));
      expect(await slow.client.waitForRun(created.id, { timeoutMs: 15_000 })).toMatchObject({ status: 'succeeded' });
      healthy.close();
    } finally {
      await slow.close();
    }
  });
});
