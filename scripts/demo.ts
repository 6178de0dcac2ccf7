// The demo: scheduler (PGlite) and worker as separate processes, the Playwright package installed on the worker,
// an example site on 127.0.0.1, and a five-step workflow submitted over the REST API; prints each node's progress
// and the extracted text, exits 0 on success. Run it through scripts/demo.sh, which bootstraps first.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DroverClient, type ApiSchemas } from '@drover/api';
import { installCwx } from '@drover/cwx';
import { linearWorkflow, repoRoot, startExampleSite, startSchedulerProcess, startWorkerProcess } from '@drover/testing';

const out = (line: string) => process.stdout.write(`${line}\n`);
const work = await mkdtemp(join(tmpdir(), 'drover-demo-'));
const token = randomBytes(24).toString('base64url');
const cleanups: Array<() => Promise<unknown>> = [() => rm(work, { recursive: true, force: true })];
let exitCode = 1;

try {
  out('▶ starting the scheduler (embedded PGlite)');
  const scheduler = await startSchedulerProcess({ DROVER_DATA_DIR: join(work, 'scheduler'), DROVER_WORKER_TOKENS: token, DROVER_LOG_LEVEL: 'warn' });
  cleanups.unshift(() => scheduler.stop());
  out(`  listening on ${scheduler.baseUrl}`);

  out('▶ installing the Playwright package on the worker');
  const packagesDir = join(work, 'worker', 'packages');
  const cwxDir = join(repoRoot, 'dist/cwx');
  let manifest;
  for (const file of (await readdir(cwxDir)).filter((f) => f.endsWith('.cwx')).sort()) {
    const pkg = await installCwx(await readFile(join(cwxDir, file)), packagesDir);
    out(`  ${pkg.name}@${pkg.version}  sha256 ${pkg.sha256.slice(0, 16)}…  ${pkg.manifest.nodes.length} node types`);
    if (pkg.name === 'drover.playwright') manifest = pkg.manifest;
  }
  if (!manifest) throw new Error('dist/cwx has no drover.playwright package; run node --import tsx scripts/build-packages.ts');

  out('▶ starting a worker process (warm Chromium)');
  const worker = await startWorkerProcess({
    schedulerUrl: scheduler.wsUrl,
    token,
    workerId: 'demo-worker',
    packagesDir,
    dataDir: join(work, 'worker'),
    env: { DROVER_LOG_LEVEL: 'warn', ...(process.env.DROVER_CHROMIUM_PATH ? { DROVER_CHROMIUM_PATH: process.env.DROVER_CHROMIUM_PATH } : {}) },
  });
  cleanups.unshift(() => worker.stop());
  out('  worker demo-worker registered');

  const site = await startExampleSite();
  cleanups.unshift(() => site.close());
  out(`▶ example site on ${site.url}`);

  const workflow = linearWorkflow(
    manifest,
    [
      { type: 'playwright.open_page', label: 'Open the guest book', parameters: { url: site.url } },
      { type: 'playwright.fill', label: 'Type a name', parameters: { selector: '#name', value: 'Ada Lovelace' } },
      { type: 'playwright.click', label: 'Sign', parameters: { selector: '#submit' } },
      { type: 'playwright.assert_text', label: 'Check the greeting', parameters: { selector: '#greeting', expected: 'Hello, Ada Lovelace!' } },
      { type: 'playwright.extract_text', label: 'Read the greeting', parameters: { selector: '#greeting' } },
    ],
    'Drover demo: sign the guest book',
  );
  const client = new DroverClient({ baseUrl: scheduler.baseUrl });
  const created = await client.createRun({ workflow });
  out(`▶ run ${created.id} submitted (${workflow.nodes.length} nodes)`);

  const seen = new Map<string, string>();
  const started = Date.now();
  const run = await client.waitForRun(created.id, {
    timeoutMs: 60_000,
    intervalMs: 50,
    onChange: (r: ApiSchemas['Run']) => {
      r.nodes.forEach((n, i) => {
        if (seen.get(n.nodeId) === n.status) return;
        seen.set(n.nodeId, n.status);
        const where = n.workerId ? ` on ${n.workerId}` : '';
        const extra = n.status === 'failed' ? `  ${n.error?.code}: ${n.error?.message}` : '';
        out(`  [${i + 1}/${r.nodes.length}] ${(n.label ?? n.type).padEnd(22)} ${n.status}${where}${extra}`);
      });
    },
  });
  const text = (run.nodes.at(-1)?.results as { text?: string } | null)?.text;
  out(`▶ run ${run.status} in ${Date.now() - started} ms`);
  if (run.status === 'succeeded') {
    out(`  extracted text: ${JSON.stringify(text)}`);
    exitCode = text?.includes('Ada Lovelace') ? 0 : 1;
  } else {
    out(`  error: ${run.error?.code} at node ${run.error?.nodeId}: ${run.error?.message}`);
  }
} catch (err) {
  process.stderr.write(`demo failed: ${(err as Error).stack ?? err}\n`);
} finally {
  for (const c of cleanups) await c().catch(() => undefined);
}
process.exit(exitCode);
