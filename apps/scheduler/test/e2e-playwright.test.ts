import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageManifest } from '@drover/cwx';
import {
  createTestStore,
  installBuiltPackages,
  linearWorkflow,
  startExampleSite,
  startWorkerProcess,
  testDialects,
  type ExampleSite,
  type WorkerProcess,
} from '@drover/testing';
import { startScheduler, WORKER_TOKEN, type TestScheduler } from './scheduler-harness.ts';

// Scheduler in this process, worker in a child process, real Chromium, a page served from 127.0.0.1.
describe.each(testDialects())('end to end on %s: scheduler + worker process + Chromium', (dialect) => {
  let store: Awaited<ReturnType<typeof createTestStore>>;
  let s: TestScheduler;
  let site: ExampleSite;
  let worker: WorkerProcess;
  let playwright: PackageManifest;
  let dataDir: string;

  beforeAll(async () => {
    store = await createTestStore(dialect);
    s = await startScheduler(store);
    site = await startExampleSite();
    const { packagesDir, installed } = await installBuiltPackages();
    playwright = installed.find((p) => p.name === 'drover.playwright')!.manifest;
    dataDir = await mkdtemp(join(tmpdir(), 'drover-worker-'));
    worker = await startWorkerProcess({ schedulerUrl: s.wsUrl, token: WORKER_TOKEN, workerId: `e2e-${dialect}`, packagesDir, dataDir });
  });
  afterAll(async () => {
    await worker?.stop();
    await s?.close();
    await site?.close();
    await store?.dispose();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('runs open page → fill → click → assert → extract and returns the extracted text', async () => {
    const wf = linearWorkflow(playwright, [
      { type: 'playwright.open_page', parameters: { url: site.url } },
      { type: 'playwright.fill', parameters: { selector: '#name', value: 'Ada' } },
      { type: 'playwright.click', parameters: { selector: '#submit' } },
      { type: 'playwright.assert_text', parameters: { selector: '#greeting', expected: 'Hello, Ada!' } },
      { type: 'playwright.extract_text', parameters: { selector: '#greeting' } },
    ]);
    const created = await s.client.createRun({ workflow: wf });
    const run = await s.client.waitForRun(created.id, { timeoutMs: 45_000 });
    expect(run.status, JSON.stringify(run.nodes.map((n) => [n.type, n.status, n.error]))).toBe('succeeded');
    expect(run.nodes.every((n) => n.status === 'succeeded' && n.workerId === worker.workerId && n.attempt === 1)).toBe(true);
    const extract = run.nodes.find((n) => n.type === 'playwright.extract_text')!;
    expect(extract.results).toMatchObject({ text: 'Hello, Ada! You are guest #42.' });
    // The page travelled along the chain: every node after open_page got the same page reference.
    const page = run.nodes[0]!.results!.page as { $resource: { workerId: string; id: string } };
    expect(page.$resource.workerId).toBe(worker.workerId);
    expect(run.nodes.slice(1).every((n) => JSON.stringify((n.results as { page?: unknown }).page) === JSON.stringify(page))).toBe(true);
    expect(run.finishedAt).not.toBeNull();
  });

  it('fails the run at a missing selector, naming the node, its error code and message', async () => {
    const wf = linearWorkflow(playwright, [
      { type: 'playwright.open_page', parameters: { url: site.url } },
      { type: 'playwright.click', label: 'Click the missing button', parameters: { selector: '#does-not-exist', timeoutMs: 1000 } },
      { type: 'playwright.extract_text', parameters: { selector: '#greeting' } },
    ]);
    const created = await s.client.createRun({ workflow: wf });
    const run = await s.client.waitForRun(created.id, { timeoutMs: 45_000 });
    expect(run.status).toBe('failed');
    const click = run.nodes[1]!;
    expect(click).toMatchObject({ status: 'failed', label: 'Click the missing button', error: { code: 'E.PW.SELECTOR_NOT_FOUND' } });
    expect(click.error!.message).toContain('#does-not-exist');
    expect(click.error!.step).toContain('#does-not-exist');
    expect(run.error).toMatchObject({ code: 'E.PW.SELECTOR_NOT_FOUND', nodeId: click.nodeId });
    expect(run.nodes[2]!.status).toBe('cancelled');
  });
});
