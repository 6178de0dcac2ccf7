import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './repo-root.ts';
import { stopChild } from './stop-child.ts';

/** A worker running as a real child process. */
export interface WorkerProcess {
  child: ChildProcess;
  workerId: string;
  /** Everything it printed so far (pino JSON lines and markers). */
  output(): string;
  /** Resolves at the next `DROVER_WORKER_REGISTERED` line after the call. */
  nextRegistration(timeoutMs?: number): Promise<void>;
  /** SIGTERM and wait for exit (SIGKILL after 5 s). */
  stop(): Promise<number | null>;
  /** SIGKILL at once (a crash). */
  kill(): Promise<void>;
}

/** Options for `startWorkerProcess`. */
export interface WorkerProcessOptions {
  schedulerUrl: string;
  token: string;
  workerId: string;
  packagesDir: string;
  dataDir: string;
  maxParallel?: number;
  env?: Record<string, string>;
}

/**
 * Spawn `apps/worker/src/main.ts` under tsx as a separate process and wait until it has registered with the
 * scheduler.
 */
export async function startWorkerProcess(o: WorkerProcessOptions, timeoutMs = 30_000): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'apps/worker/src/main.ts')], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DROVER_SCHEDULER_URL: o.schedulerUrl,
      DROVER_WORKER_TOKEN: o.token,
      DROVER_WORKER_ID: o.workerId,
      DROVER_PACKAGES_DIR: o.packagesDir,
      DROVER_WORKER_DATA_DIR: o.dataDir,
      DROVER_MAX_PARALLEL: String(o.maxParallel ?? 2),
      DROVER_RECONNECT_MIN_MS: '50',
      DROVER_RECONNECT_MAX_MS: '500',
      DROVER_LOG_LEVEL: process.env.DROVER_TEST_LOG_LEVEL ?? 'info',
      ...o.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: Array<() => void> = [];
  const onData = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    out += text;
    if (text.includes('DROVER_WORKER_REGISTERED')) waiters.splice(0).forEach((w) => w());
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const nextRegistration = (ms = timeoutMs) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker ${o.workerId} did not register within ${ms} ms; output:\n${out.slice(-4000)}`)), ms);
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
      void exited.then((code) => reject(new Error(`worker ${o.workerId} exited (${code}) before registering; output:\n${out.slice(-4000)}`)));
    });

  const proc: WorkerProcess = {
    child,
    workerId: o.workerId,
    output: () => out,
    nextRegistration,
    stop: () => stopChild(child, exited),
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  try {
    await nextRegistration();
  } catch (err) {
    await proc.kill(); // never leave a worker reconnecting forever behind a failed start
    throw err;
  }
  return proc;
}
