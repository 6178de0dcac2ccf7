import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { installCwx } from '@drover/cwx';
import type { CliConfig } from '../config.ts';
import { paths } from '../repo-paths.ts';

/** tsx's loader, resolved from the CLI's own dependencies so programs start from any working directory. */
const tsx = import.meta.resolve('tsx');

function run(entry: string, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', tsx, entry], { stdio: 'inherit', env, cwd: process.cwd() });
}

function exitCode(child: ChildProcess): Promise<number> {
  return new Promise((r) => child.once('exit', (code, signal) => r(code ?? (signal ? 128 : 1))));
}

/** `drover scheduler` / `drover worker`: run the program in the foreground, forwarding signals. */
export async function foreground(which: 'scheduler' | 'worker', config: CliConfig): Promise<number> {
  const child = run(which === 'scheduler' ? paths.scheduler : paths.worker, config.env);
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => child.kill(s));
  return exitCode(child);
}

/**
 * `drover dev`: build and install the packages, then a scheduler on PGlite (.drover/dev) and one worker sharing a
 * fresh token, until Ctrl-C.
 */
export async function dev(config: CliConfig): Promise<number> {
  const build = await exitCode(run(paths.buildPackages, config.env));
  if (build !== 0) return build;
  const packagesDir = resolve('.drover/dev/worker/packages');
  for (const f of (await readdir(paths.cwxDir)).filter((x) => x.endsWith('.cwx'))) {
    const p = await installCwx(await readFile(join(paths.cwxDir, f)), packagesDir);
    process.stdout.write(`installed ${p.name}@${p.version}\n`);
  }
  const token = config.env.DROVER_WORKER_TOKEN || randomBytes(24).toString('base64url');
  const port = config.env.DROVER_PORT || '7700';
  const scheduler = run(paths.scheduler, { ...config.env, DROVER_DATA_DIR: resolve('.drover/dev/scheduler'), DROVER_WORKER_TOKENS: token, DROVER_PORT: port });
  const worker = run(paths.worker, {
    ...config.env,
    DROVER_WORKER_TOKEN: token,
    DROVER_SCHEDULER_URL: `ws://127.0.0.1:${port}/ws/worker`,
    DROVER_WORKER_DATA_DIR: resolve('.drover/dev/worker'),
    DROVER_PACKAGES_DIR: packagesDir,
  });
  for (const s of ['SIGINT', 'SIGTERM'] as const) {
    process.on(s, () => {
      worker.kill(s);
      scheduler.kill(s);
    });
  }
  const [a, b] = await Promise.all([exitCode(scheduler), exitCode(worker)]);
  return a || b;
}

/** `drover pkg build`. */
export function buildPackages(config: CliConfig): Promise<number> {
  return exitCode(run(paths.buildPackages, config.env));
}
