import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageManifest } from '@drover/cwx';
import { createTestStore, installBuiltPackages, linearWorkflow, startWorkerProcess, testDialects, type WorkerProcess } from '@drover/testing';
import { startScheduler, WORKER_TOKEN, type TestScheduler } from './scheduler-harness.ts';

describe.each(testDialects())('worker processes going away mid-attempt, on %s', (dialect) => {
  let store: Awaited<ReturnType<typeof createTestStore>>;
  let s: TestScheduler;
  let tmp: string;
  let packagesDir: string;
  let manifest: PackageManifest;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    store = await createTestStore(dialect);
    s = await startScheduler(store, { workerGraceMs: 500 });
    tmp = await mkdtemp(join(tmpdir(), 'drover-crash-'));
    const built = await installBuiltPackages();
    packagesDir = built.packagesDir;
    manifest = built.installed.find((p) => p.name === 'drover.test')!.manifest;
  });
  afterAll(async () => {
    for (const w of workers) await w.stop();
    await s?.close();
    await store?.dispose();
    await rm(tmp, { recursive: true, force: true });
  });

  it('requeues the lost attempt to another worker and the run still succeeds', async () => {
    const first = await startWorkerProcess({ schedulerUrl: s.wsUrl, token: WORKER_TOKEN, workerId: `doomed-${dialect}`, packagesDir, dataDir: join(tmp, 'a') });
    workers.push(first);
    const wf = linearWorkflow(manifest, [
      { type: 'test.sleep', parameters: { ms: 2000 } },
      { type: 'test.echo', parameters: { value: 'survived' } },
    ]);
    const created = await s.client.createRun({ workflow: wf });
    await expect.poll(async () => (await s.client.getRun(created.id)).nodes[0]!.status, { timeout: 10_000 }).toBe('running');
    expect((await s.client.getRun(created.id)).nodes[0]!.workerId).toBe(first.workerId);

    await first.kill(); // SIGKILL: no goodbye, no result
    const second = await startWorkerProcess({ schedulerUrl: s.wsUrl, token: WORKER_TOKEN, workerId: `rescuer-${dialect}`, packagesDir, dataDir: join(tmp, 'b') });
    workers.push(second);

    const run = await s.client.waitForRun(created.id, { timeoutMs: 30_000 });
    expect(run.status).toBe('succeeded');
    expect(run.nodes[0]).toMatchObject({ status: 'succeeded', attempt: 2, workerId: second.workerId });
    expect(run.nodes[1]).toMatchObject({ status: 'succeeded', results: { value: 'survived' } });
    const lost = await store.db.selectFrom('tasks').select(['attempt', 'status', 'error', 'worker_id']).where('run_id', '=', created.id).where('attempt', '=', 1).where('node_id', '=', run.nodes[0]!.nodeId).executeTakeFirstOrThrow();
    expect(lost).toMatchObject({ status: 'cancelled', worker_id: first.workerId, error: { code: 'E.DISPATCH.WORKER_LOST' } });
    const workersNow = await s.client.listWorkers();
    expect(workersNow.workers.find((w) => w.id === first.workerId)).toMatchObject({ status: 'offline', connected: false });
    for (const w of workers.splice(0)) await w.stop();
  });

  it('lets a worker stopped with SIGTERM finish its attempt and deliver the result before it exits', async () => {
    const w = await startWorkerProcess({ schedulerUrl: s.wsUrl, token: WORKER_TOKEN, workerId: `graceful-${dialect}`, packagesDir, dataDir: join(tmp, 'c') });
    const created = await s.client.createRun({ workflow: linearWorkflow(manifest, [{ type: 'test.sleep', parameters: { ms: 1000 } }]) });
    await expect.poll(async () => (await s.client.getRun(created.id)).nodes[0]!.workerId, { timeout: 10_000 }).toBe(w.workerId);
    expect(await w.stop()).toBe(0);
    const run = await s.client.getRun(created.id);
    expect(run.status).toBe('succeeded');
    expect(run.nodes[0]).toMatchObject({ status: 'succeeded', attempt: 1, workerId: w.workerId });
  });
});