import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/** Validated, frozen worker configuration. The only place the worker reads `process.env`. */
export interface WorkerConfig {
  /** Scheduler WebSocket URL. Env `DROVER_SCHEDULER_URL`. @default 'ws://127.0.0.1:7700/ws/worker' */
  schedulerUrl: string;
  /** Worker token (Bearer). Env `DROVER_WORKER_TOKEN`. Required. */
  token: string;
  /** Tenant of the token. Env `DROVER_TENANT`. @default 'default' */
  tenant: string;
  /** Stable worker id; kept in `<dataDir>/worker-id` when not given. Env `DROVER_WORKER_ID`. */
  workerId: string;
  /** Display name. Env `DROVER_WORKER_NAME`. @default the host name */
  name: string;
  /** Where the worker keeps its state. Env `DROVER_WORKER_DATA_DIR`. @default '.drover/worker' */
  dataDir: string;
  /** Installed packages: `<packagesDir>/<name>/<version>/`. Env `DROVER_PACKAGES_DIR`. @default '<dataDir>/packages' */
  packagesDir: string;
  /** Attempts run at once. Env `DROVER_MAX_PARALLEL`. @default 2 */
  maxParallel: number;
  /** Labels for placement, `k=v,k2=v2`. Env `DROVER_LABELS`. @default {} */
  labels: Readonly<Record<string, string>>;
  /** Chromium binary; never downloaded. Env `DROVER_CHROMIUM_PATH`. @default '/usr/bin/chromium' */
  chromiumPath: string;
  /** A run's browser context and resources are released after it has had no attempt here for this long. Env `DROVER_RUN_IDLE_MS`. @default 60000 */
  runIdleMs: number;
  /** On SIGTERM, how long to let running attempts finish and their results be acknowledged. Env `DROVER_SHUTDOWN_GRACE_MS`. @default 10000 */
  shutdownGraceMs: number;
  /** Reconnect backoff bounds (full jitter). @default 200 and 5000 */
  reconnectMinMs: number;
  reconnectMaxMs: number;
  /** pino level. Env `DROVER_LOG_LEVEL`. @default 'info' */
  logLevel: string;
}

class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'E.CONFIG.INVALID';
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer in [${min}, ${max}], got ${JSON.stringify(raw)}`);
  return n;
}

function labels(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new ConfigError(`DROVER_LABELS entries must be key=value, got ${JSON.stringify(part)}`);
    out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

/** A worker id stored in the data directory, so restarts of the same worker keep their identity. */
function stableWorkerId(dataDir: string): string {
  const file = join(dataDir, 'worker-id');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const id = `${hostname().replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 60) || 'worker'}-${crypto.randomUUID().slice(0, 8)}`;
  writeFileSync(file, id + '\n');
  return id;
}

/** Read the worker configuration from the environment; throws `E.CONFIG.INVALID` naming the bad variable. */
export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const token = env.DROVER_WORKER_TOKEN ?? '';
  if (!token) throw new ConfigError('DROVER_WORKER_TOKEN is required (the token the scheduler was given in DROVER_WORKER_TOKENS)');
  const schedulerUrl = env.DROVER_SCHEDULER_URL || 'ws://127.0.0.1:7700/ws/worker';
  if (!/^wss?:\/\//.test(schedulerUrl)) throw new ConfigError('DROVER_SCHEDULER_URL must start with ws:// or wss://');
  const dataDir = resolve(env.DROVER_WORKER_DATA_DIR || '.drover/worker');
  const workerId = env.DROVER_WORKER_ID || stableWorkerId(dataDir);
  if (!/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/.test(workerId)) throw new ConfigError(`DROVER_WORKER_ID ${JSON.stringify(workerId)} is not a valid id`);
  return Object.freeze({
    schedulerUrl,
    token,
    tenant: env.DROVER_TENANT || 'default',
    workerId,
    name: env.DROVER_WORKER_NAME || hostname(),
    dataDir,
    packagesDir: resolve(env.DROVER_PACKAGES_DIR || join(dataDir, 'packages')),
    maxParallel: int(env, 'DROVER_MAX_PARALLEL', 2, 1, 1024),
    labels: Object.freeze(labels(env.DROVER_LABELS)),
    chromiumPath: env.DROVER_CHROMIUM_PATH || '/usr/bin/chromium',
    runIdleMs: int(env, 'DROVER_RUN_IDLE_MS', 60_000, 100, 86_400_000),
    shutdownGraceMs: int(env, 'DROVER_SHUTDOWN_GRACE_MS', 10_000, 0, 3_600_000),
    reconnectMinMs: int(env, 'DROVER_RECONNECT_MIN_MS', 200, 10, 60_000),
    reconnectMaxMs: int(env, 'DROVER_RECONNECT_MAX_MS', 5000, 10, 600_000),
    logLevel: env.DROVER_LOG_LEVEL || 'info',
  });
}
