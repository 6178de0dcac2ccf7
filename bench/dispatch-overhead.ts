// Benchmark: per-node control-plane overhead of a chain of test.noop nodes on one worker, measured from the
// scheduler's own timestamps in tasks.timings. Run with `pnpm bench` (see bench/README.md); no assertions.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DroverClient } from '@drover/api';
import type { PackageManifest } from '@drover/cwx';
import { createTestStore, installBuiltPackages, linearWorkflow, repoRoot, startWorkerProcess, type WorkerProcess } from '@drover/testing';
import { buildApp } from '../apps/scheduler/src/app.ts';
import { schedulerConfig, type SchedulerConfig } from '../apps/scheduler/src/config.ts';
import { parseBenchArgs, USAGE, type BenchArgs, type BenchDialect } from './lib/bench-args.ts';
import { CleanupStack } from './lib/cleanup-stack.ts';
import { formatTable } from './lib/format-table.ts';
import { machineInfo, machineLine, pglitePackageVersion, type MachineInfo } from './lib/machine-info.ts';
import { handoffs, nodeStamps, type Handoff, type NodeStamps } from './lib/node-handoffs.ts';
import { summarize, type Summary } from './lib/summarize.ts';

type SchedulerApp = Awaited<ReturnType<typeof buildApp>>;
type Db = SchedulerApp['drover']['store']['db'];

const WORKER_TOKEN = 'bench-worker-token';
const WORKER_MAX_PARALLEL = 2; // the worker's default
const NODE_TYPE = 'test.noop';
/** A run that has not finished by then is a failure, not a slow result. */
const RUN_TIMEOUT_MS = 120_000;
/** Completion is detected by polling `runs.status`; the timings come from the task rows, not from this loop. */
const POLL_MS = 50;

/** Rows of the report: a Handoff field (ms) and how it is computed. */
const SEGMENTS: ReadonlyArray<{ key: keyof Omit<Handoff, 'index'>; label: string }> = [
  { key: 'handoff', label: 'handoff: completed(i-1) -> completed(i)' },
  { key: 'overhead', label: 'overhead: handoff - workerMs' },
  { key: 'tail', label: '  completed(i-1) -> ready(i)' },
  { key: 'readyToDispatched', label: '  ready -> dispatched' },
  { key: 'dispatchedToResult', label: '  dispatched -> resultAt' },
  { key: 'dispatchedToAcked', label: '    of which dispatched -> acked' },
  { key: 'roundTripMinusWorker', label: '    of which not in the handler' },
  { key: 'resultToCompleted', label: '  resultAt -> completed' },
  { key: 'workerMs', label: 'workerMs (handler, worker-reported)' },
];

interface MeasuredRun {
  runId: string;
  /** POST to observed success, from this process: informational only (includes polling granularity). */
  clientWallMs: number;
  stamps: NodeStamps[];
  handoffs: Handoff[];
}

interface DialectResult {
  dialect: BenchDialect;
  /** `select version()` of the database the scheduler used. */
  server: string;
  runs: MeasuredRun[];
  summary: Partial<Record<(typeof SEGMENTS)[number]['key'], Summary>>;
  ackedAtMissing: number;
  /** 1-minute load average before the warm-up and after the last run: other work on the machine skews figures. */
  loadAverage: { before: number; after: number };
}

const cleanup = new CleanupStack();
/** Killed synchronously on exit, whatever path the process takes out. */
const liveWorkers = new Set<WorkerProcess>();
process.on('exit', () => {
  for (const w of liveWorkers) w.child.kill('SIGKILL');
});
/** Leave on a signal or a crash outside main()'s try: undo what exists, then exit with `code`. */
function abort(reason: string, code: number): void {
  process.stderr.write(`\n${reason}: cleaning up\n`);
  void cleanup.run().finally(() => process.exit(code));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => abort(signal, signal === 'SIGINT' ? 130 : 143));
process.once('uncaughtException', (err) => abort(`uncaught exception: ${err.stack ?? err.message}`, 1));
process.once('unhandledRejection', (err) => abort(`unhandled rejection: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, 1));

async function waitForRun(db: Db, runId: string): Promise<string> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const row = await db.selectFrom('runs').select('status').where('id', '=', runId).executeTakeFirstOrThrow();
    if (row.status === 'succeeded' || row.status === 'failed' || row.status === 'cancelled') return row.status;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${row.status} after ${RUN_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function measureRun(db: Db, client: DroverClient, manifest: PackageManifest, nodes: number, name: string): Promise<MeasuredRun> {
  const workflow = linearWorkflow(manifest, Array.from({ length: nodes }, () => ({ type: NODE_TYPE })), name);
  const t0 = performance.now();
  const run = await client.createRun({ workflow });
  const status = await waitForRun(db, run.id);
  const clientWallMs = performance.now() - t0;
  if (status !== 'succeeded') {
    const failed = await db.selectFrom('runs').select('error').where('id', '=', run.id).executeTakeFirst();
    throw new Error(`run ${run.id} (${name}) ended ${status}: ${JSON.stringify(failed?.error)}`);
  }
  const rows = await db.selectFrom('tasks').select(['node_id', 'attempt', 'status', 'timings']).where('run_id', '=', run.id).execute();
  const stamps = nodeStamps(workflow.nodes.map((n) => n.id), rows);
  return { runId: run.id, clientWallMs, stamps, handoffs: handoffs(stamps) };
}

async function serverVersion(db: Db): Promise<string> {
  const row = await db.selectNoFrom((eb) => eb.fn<string>('version', []).as('version')).executeTakeFirstOrThrow();
  return row.version;
}

/** Start a scheduler on `dialect` and one worker process, run the warm-up and the measured runs, tear down. */
async function benchDialect(dialect: BenchDialect, args: BenchArgs, manifest: PackageManifest, packagesDir: string): Promise<DialectResult> {
  const local = new CleanupStack();
  cleanup.push(`tear down ${dialect}`, () => local.run());
  let failed = false;
  try {
    const tmp = await mkdtemp(join(tmpdir(), `drover-bench-${dialect}-`));
    local.push(`remove ${tmp}`, () => rm(tmp, { recursive: true, force: true }));
    let database: Partial<SchedulerConfig>;
    if (dialect === 'postgres') {
      const store = await createTestStore('postgres'); // a fresh migrated schema t_<random>
      local.push(`drop schema ${store.schema}`, () => store.dispose());
      database = { databaseUrl: process.env.DATABASE_URL, databaseSchema: store.schema };
    } else {
      database = { dataDir: args.pgliteData === 'memory' ? 'memory://' : join(tmp, 'pglite') };
    }
    // The scheduler opens its own database, as the real process does; production defaults otherwise.
    const app = await buildApp(schedulerConfig({ ...database, port: 0, workerTokens: [WORKER_TOKEN], logLevel: 'silent' }), { logger: false });
    local.push('close the scheduler', () => app.close());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const db = app.drover.store.db;

    const worker = await startWorkerProcess({
      schedulerUrl: `ws://127.0.0.1:${port}/ws/worker`,
      token: WORKER_TOKEN,
      workerId: `bench-${dialect}`,
      packagesDir,
      dataDir: join(tmp, 'worker'),
      maxParallel: WORKER_MAX_PARALLEL,
      env: { DROVER_LOG_LEVEL: 'warn' },
    });
    liveWorkers.add(worker);
    local.push('stop the worker', async () => {
      await worker.stop();
      liveWorkers.delete(worker);
    });

    const client = new DroverClient({ baseUrl: `http://127.0.0.1:${port}` });
    const loadBefore = loadavg()[0]!;
    process.stderr.write(`${dialect}: warm-up run, then ${args.runs} measured run(s) of ${args.nodes} nodes\n`);
    await measureRun(db, client, manifest, args.nodes, `bench warm-up (${dialect})`);
    const runs: MeasuredRun[] = [];
    for (let i = 1; i <= args.runs; i++) runs.push(await measureRun(db, client, manifest, args.nodes, `bench run ${i} (${dialect})`));

    const all = runs.flatMap((r) => r.handoffs);
    const summary: DialectResult['summary'] = {};
    for (const { key } of SEGMENTS) {
      const values = all.map((h) => h[key]).filter((v): v is number => v !== undefined);
      if (values.length > 0) summary[key] = summarize(values);
    }
    return {
      dialect,
      server: await serverVersion(db),
      runs,
      summary,
      ackedAtMissing: all.filter((h) => h.dispatchedToAcked === undefined).length,
      loadAverage: { before: loadBefore, after: loadavg()[0]! },
    };
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    const failures = await local.run();
    const message = `${dialect}: cleanup failed: ${failures.map((f) => f.message).join('; ')}`;
    // Never let a cleanup failure hide the error that got us here.
    if (failures.length > 0 && failed) process.stderr.write(`${message}\n`);
    else if (failures.length > 0) throw new AggregateError(failures, message);
  }
}

function report(r: DialectResult, args: BenchArgs): string {
  const where = r.dialect === 'pglite' ? ` (${args.pgliteData === 'memory' ? 'memory://' : 'data dir in a temp directory'})` : ' (fresh schema)';
  const n = r.summary.handoff?.n ?? 0;
  return [
    `${r.dialect}${where}: ${r.server.split(' on ')[0]}`,
    `${args.runs} measured run(s) after 1 warm-up; ${n} handoffs (nodes 2..${args.nodes} of each run); nearest-rank percentiles`,
    `1-min load average ${r.loadAverage.before.toFixed(2)} before, ${r.loadAverage.after.toFixed(2)} after`,
    formatTable(SEGMENTS.map((s) => ({ label: s.label, summary: r.summary[s.key] }))),
    r.ackedAtMissing > 0 ? `(ackedAt missing on ${r.ackedAtMissing} node(s): the result was recorded before the ACK update)` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

async function writeJson(r: DialectResult, args: BenchArgs, machine: MachineInfo, date: Date, manifest: PackageManifest): Promise<string> {
  const dir = join(repoRoot, 'bench/results');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `dispatch-overhead-${r.dialect}-${date.toISOString().slice(0, 19).replace(/:/g, '-')}Z.json`);
  const body = {
    benchmark: 'dispatch-overhead',
    date: date.toISOString(),
    dialect: r.dialect,
    database: r.server,
    ...(r.dialect === 'pglite' ? { pgliteData: args.pgliteData } : {}),
    machine,
    config: {
      runs: args.runs,
      warmupRuns: 1,
      nodes: args.nodes,
      node: { package: `${manifest.name}@${manifest.version}`, type: NODE_TYPE },
      wiring: 'done -> trigger',
      worker: { processes: 1, maxParallel: WORKER_MAX_PARALLEL, logLevel: 'warn' },
    },
    units: 'ms',
    percentiles: 'nearest-rank over every handoff (node 2..N) of every measured run',
    segments: Object.fromEntries(SEGMENTS.map((s) => [s.key, s.label.trim()])),
    summary: r.summary,
    ackedAtMissing: r.ackedAtMissing,
    loadAverage1m: r.loadAverage,
    runs: r.runs,
  };
  await writeFile(file, JSON.stringify(body, null, 2) + '\n');
  return file;
}

async function main(): Promise<void> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(process.argv.slice(2), process.env.DATABASE_URL);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const date = new Date();
  const machine = machineInfo();

  const { packagesDir, installed } = await installBuiltPackages();
  cleanup.push(`remove ${packagesDir}`, () => rm(packagesDir, { recursive: true, force: true }));
  const test = installed.find((p) => p.name === 'drover.test');
  if (!test) throw new Error('the drover.test package was not built');
  // Only drover.test stays installed, so the worker does not start Chromium for the Playwright package.
  for (const p of installed) if (p.name !== test.name) await rm(join(packagesDir, p.name), { recursive: true, force: true });

  const results: DialectResult[] = [];
  for (const dialect of args.dialects) {
    const r = await benchDialect(dialect, args, test.manifest, packagesDir);
    if (dialect === 'postgres') machine.postgres = r.server;
    else machine.pglite = { package: pglitePackageVersion(), server: r.server };
    results.push(r);
  }

  const out = [
    `Drover dispatch-overhead benchmark, ${date.toISOString()}`,
    `machine: ${machineLine(machine)}`,
    `chain: ${args.nodes} x ${test.name}@${test.version} ${NODE_TYPE} (done -> trigger), one worker child process (max_parallel ${WORKER_MAX_PARALLEL}, log level warn)`,
  ];
  for (const r of results) {
    const file = await writeJson(r, args, machine, date, test.manifest);
    out.push('', report(r, args), `json: ${relative(process.cwd(), file)}`);
  }
  process.stdout.write(out.join('\n') + '\n');
}

let failed = false;
try {
  await main();
} catch (err) {
  failed = true;
  process.stderr.write(`dispatch-overhead benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
}
const failures = await cleanup.run();
for (const f of failures) process.stderr.write(`${f.message}\n`);
// Exit explicitly: a pool or timer someone forgot must not keep a finished benchmark alive.
process.exit(failed || failures.length > 0 ? 1 : (process.exitCode ?? 0));
