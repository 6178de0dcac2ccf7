import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DroverClient } from '@drover/api';
import type { PackageManifest } from '@drover/cwx';
import { createTestStore, installBuiltPackages, linearWorkflow, repoRoot, startWorkerProcess, testDialects, type WorkerProcess } from '@drover/testing';
import { buildApp } from '../src/app.ts';
import { schedulerConfig, type SchedulerConfig } from '../src/config.ts';
import { WORKER_TOKEN } from './scheduler-harness.ts';

/** A scheduler that owns its database connection, as the real process does, so closing it is a real stop. */
async function startOwning(config: Partial<SchedulerConfig>, port: number): Promise<FastifyInstance> {
  const app = await buildApp(schedulerConfig({ ...config, port, workerTokens: [WORKER_TOKEN], heartbeatIntervalMs: 1000, ackTimeoutMs: 200 }), {
    logger: process.env.DROVER_TEST_LOG_LEVEL ? { level: process.env.DROVER_TEST_LOG_LEVEL } : false,
  });
  await app.listen({ host: '127.0.0.1', port });
  return app;
}

describe.each(testDialects())('scheduler restart on %s', (dialect) => {
  let tmp: string;
  let dbConfig: Partial<SchedulerConfig>;
  let disposeDb: () => Promise<void> = async () => undefined;
  let manifest: PackageManifest;
  let packagesDir: string;
  let worker: WorkerProcess | undefined;
  let app: FastifyInstance | undefined;

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'drover-restart-'));
    if (dialect === 'postgres') {
      const store = await createTestStore('postgres');
      dbConfig = { databaseUrl: process.env.DATABASE_URL!, databaseSchema: store.schema! };
      disposeDb = () => store.dispose();
    } else {
      dbConfig = { dataDir: join(tmp, 'pglite') };
    }
    const built = await installBuiltPackages();
    packagesDir = built.packagesDir;
    manifest = built.installed.find((p) => p.name === 'drover.test')!.manifest;
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await disposeDb();
    await rm(tmp, { recursive: true, force: true });
  });

  it('finishes a run after a restart between two nodes, without running the first node again', async () => {
    app = await startOwning(dbConfig, 0);
    const port = (app.server.address() as AddressInfo).port;
    const client = new DroverClient({ baseUrl: `http://127.0.0.1:${port}` });
    worker = await startWorkerProcess({ schedulerUrl: `ws://127.0.0.1:${port}/ws/worker`, token: WORKER_TOKEN, workerId: `restart-${dialect}`, packagesDir, dataDir: join(tmp, 'worker') });

    const wf = linearWorkflow(manifest, [
      { type: 'test.sleep', parameters: { ms: 3000 } },
      { type: 'test.echo', parameters: { value: 'after restart' } },
    ]);
    const created = await client.createRun({ workflow: wf });
    await expect.poll(async () => (await client.getRun(created.id)).nodes[0]!.status, { timeout: 10_000 }).toBe('running');
    expect((await client.getRun(created.id)).nodes[1]!.status).toBe('pending');

    // Stop the scheduler while node 1 runs; its result arrives while no scheduler listens.
    await app.close();
    app = undefined;
    await new Promise((r) => setTimeout(r, 2000));

    const reconnected = worker.nextRegistration(30_000);
    app = await startOwning(dbConfig, port);
    await reconnected;
    const run = await client.waitForRun(created.id, { timeoutMs: 30_000 });
    expect(run.status).toBe('succeeded');
    expect(run.nodes.map((n) => [n.status, n.attempt])).toEqual([
      ['succeeded', 1],
      ['succeeded', 1],
    ]);
    expect(run.nodes[1]!.results).toMatchObject({ value: 'after restart' });
  });
});

describe('PGlite data directory lock', () => {
  it('refuses a second scheduler process on the same PGlite directory', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'drover-lock-'));
    const dbConfig = { dataDir: join(tmp, 'pglite') };
    const app = await startOwning(dbConfig, 0);
    try {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'apps/scheduler/src/main.ts')], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', DROVER_DATA_DIR: dbConfig.dataDir!, DROVER_PORT: '0', DROVER_LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(out).toContain('E.STORE.DATA_DIR_LOCKED');
    expect(out).toContain(dbConfig.dataDir!);
    // The first scheduler is unharmed.
    expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await rm(tmp, { recursive: true, force: true });
    }
  });
});

