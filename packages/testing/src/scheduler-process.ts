import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './repo-root.ts';
import { stopChild } from './stop-child.ts';

/** A scheduler running as a real child process. */
export interface SchedulerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** `ws://127.0.0.1:<port>/ws/worker` */
  wsUrl: string;
  output(): string;
  /** SIGTERM and wait (SIGKILL after 5 s). */
  stop(): Promise<number | null>;
}

/**
 * Spawn `apps/scheduler/src/main.ts` under tsx with `env` (DROVER_* variables) and wait for it to listen.
 * DROVER_PORT defaults to 0 (a free port, read back from the process).
 */
export async function startSchedulerProcess(env: Record<string, string>, timeoutMs = 30_000): Promise<SchedulerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'apps/scheduler/src/main.ts')], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DROVER_HOST: '127.0.0.1', DROVER_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`scheduler did not listen within ${timeoutMs} ms; output:\n${out.slice(-4000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /DROVER_SCHEDULER_LISTENING (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`scheduler exited (${code}) before listening; output:\n${out.slice(-4000)}`));
    });
  });
  const port = new URL(address).port;
  return {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/ws/worker`,
    output: () => out,
    stop: () => stopChild(child, exited),
  };
}
