import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DroverClient } from '@drover/api';
import { installBuiltPackages, linearWorkflow, repoRoot, startSchedulerProcess, startWorkerProcess, type SchedulerProcess, type WorkerProcess } from '@drover/testing';
import type { PackageManifest } from '@drover/cwx';

const drover = join(repoRoot, 'apps/cli/bin/drover.mjs');

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [drover, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, cwd: repoRoot });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('drover CLI', () => {
  let tmp: string;
  let scheduler: SchedulerProcess;
  let worker: WorkerProcess;
  let manifest: PackageManifest;
  const token = 'cli-test-token';

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'drover-cli-'));
    const built = await installBuiltPackages();
    manifest = built.installed.find((p) => p.name === 'drover.test')!.manifest;
    scheduler = await startSchedulerProcess({ DROVER_DATA_DIR: join(tmp, 'db'), DROVER_WORKER_TOKENS: token, DROVER_LOG_LEVEL: 'warn' });
    worker = await startWorkerProcess({ schedulerUrl: scheduler.wsUrl, token, workerId: 'cli-worker', packagesDir: built.packagesDir, dataDir: join(tmp, 'worker') });
  });
  afterAll(async () => {
    await worker?.stop();
    await scheduler?.stop();
    await rm(tmp, { recursive: true, force: true });
  });

  it('installs and lists packages, and refuses a corrupt file with its code', async () => {
    const dir = join(tmp, 'pkgs');
    const ok = await cli(['pkg', 'install', 'dist/cwx/drover.test-0.1.0.cwx', '--packages-dir', dir, '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject([{ name: 'drover.test', version: '0.1.0' }]);
    const list = await cli(['pkg', 'list', '--packages-dir', dir]);
    expect(list.stdout).toContain('drover.test@0.1.0  test.noop');
    const junk = join(tmp, 'junk.cwx');
    await writeFile(junk, 'not a zip at all');
    const bad = await cli(['pkg', 'install', junk, '--packages-dir', dir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/E\.CWX\.[A-Z_]+/);
  });

  it('submits a run and waits for it; lists runs and workers', async () => {
    const file = join(tmp, 'wf.json');
    await writeFile(file, JSON.stringify(linearWorkflow(manifest, [{ type: 'test.echo', parameters: { value: 'via cli' } }, { type: 'test.noop' }])));
    const res = await cli(['runs', 'submit', file, '--wait', '--json', '--url', scheduler.baseUrl]);
    expect(res.code, res.stderr).toBe(0);
    const run = JSON.parse(res.stdout);
    expect(run).toMatchObject({ status: 'succeeded' });
    expect(run.nodes[0].results).toMatchObject({ value: 'via cli' });
    const got = await cli(['runs', 'get', run.id], { DROVER_URL: scheduler.baseUrl });
    expect(got.stdout).toContain(`run ${run.id}  succeeded`);
    const runs = await cli(['runs', 'list', '--url', scheduler.baseUrl]);
    expect(runs.stdout).toContain(run.id);
    const workers = await cli(['workers', '--url', scheduler.baseUrl]);
    expect(workers.stdout).toMatch(/cli-worker\s+online/);
  });

  it('prints every problem of an invalid workflow and exits 1; usage errors exit 2', async () => {
    const file = join(tmp, 'bad.json');
    await writeFile(file, JSON.stringify({ id: 'nope', nodes: [], edges: [] }));
    const res = await cli(['runs', 'submit', file, '--url', scheduler.baseUrl]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('E.WORKFLOW.INVALID');
    expect(res.stderr).toContain('/workflow/id');
    expect((await cli(['frobnicate'])).code).toBe(2);
    expect((await cli(['runs', 'get'])).code).toBe(2);
  });

  it('drover dev brings up a scheduler and a worker that run a workflow, and stops on SIGINT', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const cwd = join(tmp, 'dev');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(cwd, { recursive: true });
    const child = spawn(process.execPath, [drover, 'dev'], { cwd, env: { PATH: process.env.PATH ?? '', DROVER_PORT: String(port), DROVER_LOG_LEVEL: 'warn' } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await expect.poll(() => out, { timeout: 60_000, interval: 100 }).toContain('DROVER_WORKER_REGISTERED');
      expect(out).toContain('installed drover.playwright@0.1.0');
      const client = new DroverClient({ baseUrl: `http://127.0.0.1:${port}` });
      const created = await client.createRun({ workflow: linearWorkflow(manifest, [{ type: 'test.echo', parameters: { value: 'dev' } }]) });
      expect(await client.waitForRun(created.id, { timeoutMs: 30_000 })).toMatchObject({ status: 'succeeded' });
    } finally {
      child.kill('SIGINT');
    }
    expect([0, 130]).toContain(await exited); // 130: the conventional exit status after Ctrl-C
    // Scheduler and worker went down with it: nothing listens on the port any more.
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });
});
