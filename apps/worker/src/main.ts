// Worker process entry point: load installed packages, warm the browser, connect to the scheduler, and stop
// cleanly on SIGINT/SIGTERM.
import { arch, hostname, platform, release } from 'node:os';
import { createRequire } from 'node:module';
import { pino } from 'pino';
import { listInstalled } from '@drover/cwx';
import type { RuntimeContext } from '@drover/protocol';
import { AdapterRegistry } from './adapter-registry.ts';
import { BrowserPool } from './browser-pool.ts';
import { loadWorkerConfig } from './config.ts';
import { Runner } from './runner.ts';
import { RunResourceTable } from './run-resources.ts';
import { createRunScope } from './run-scope.ts';
import { WorkerSession } from './worker-session.ts';

let config;
try {
  config = loadWorkerConfig();
} catch (err) {
  process.stderr.write(`drover worker: ${(err as Error).message}\n`);
  process.exit(1);
}
const log = pino({ level: config.logLevel, redact: ['token', '*.token', 'headers.authorization'] }).child({ workerId: config.workerId });

const registry = new AdapterRegistry(log);
for (const pkg of await listInstalled(config.packagesDir)) {
  try {
    await registry.load(pkg);
  } catch (err) {
    log.error({ err, package: `${pkg.name}@${pkg.version}` }, 'package not loaded');
  }
}

const runtime: RuntimeContext = { os: `${platform()} ${release()}`.slice(0, 64), arch: arch(), node: process.version, hostname: hostname().slice(0, 255) };
let browsers: BrowserPool | undefined;
if (registry.needsBrowser()) {
  browsers = new BrowserPool({ executablePath: config.chromiumPath, logger: log });
  try {
    await browsers.start();
    runtime.chromium = (await browsers.version()).slice(0, 128);
    runtime.playwright = (createRequire(import.meta.url)('playwright-core/package.json') as { version: string }).version;
  } catch (err) {
    log.error({ err, chromiumPath: config.chromiumPath }, 'cannot start Chromium; install it (apt-get install chromium) or set DROVER_CHROMIUM_PATH');
    process.exit(1);
  }
}

const resources = new RunResourceTable(config.workerId);
let session: WorkerSession | undefined;
const runner = new Runner({
  workerId: config.workerId,
  tenant: config.tenant,
  scope: createRunScope(resources, browsers, log),
  log,
  runIdleMs: config.runIdleMs,
  feedback: (p) => session?.feedback(p),
});
session = new WorkerSession({
  config,
  registry,
  runner,
  runtime,
  log,
  // Supervisors, the demo and tests wait for this line.
  onRegistered: () => process.stdout.write(`DROVER_WORKER_REGISTERED ${config.workerId}\n`),
});
session.start();

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, running: runner.size() }, 'worker stopping: draining');
    void (async () => {
      // Take no new work, let running attempts finish and their results be acknowledged, then leave.
      session!.drain();
      const deadline = Date.now() + config.shutdownGraceMs;
      while ((runner.size() > 0 || session!.pendingFrames() > 0) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      if (runner.size() > 0) log.warn({ running: runner.size() }, 'shutdown grace period over; aborting running attempts');
      await session!.stop();
      await runner.close();
      await browsers?.close();
      process.exit(0);
    })();
  });
}
