import { resolve } from 'node:path';

/** Validated, frozen scheduler configuration. The only place the scheduler reads `process.env`. */
export interface SchedulerConfig {
  /** Interface to listen on. Env `DROVER_HOST`. @default '127.0.0.1' */
  host: string;
  /** Port to listen on; 0 picks a free one. Env `DROVER_PORT`. @default 7700 */
  port: number;
  /** PostgreSQL URL; when unset the scheduler uses embedded PGlite in `dataDir`. Env `DATABASE_URL`. */
  databaseUrl: string | undefined;
  /** PostgreSQL schema (search_path) to use. Env `DROVER_DB_SCHEMA`. @default undefined (the server's default) */
  databaseSchema: string | undefined;
  /** PGlite data directory (`memory://` for in-memory). Env `DROVER_DATA_DIR`. @default '.drover/data' */
  dataDir: string;
  /** Tenant for workers and runs when a token names none. Env `DROVER_TENANT`. @default 'default' */
  tenant: string;
  /** Worker tokens accepted (stored hashed at start-up). Env `DROVER_WORKER_TOKENS`, comma-separated. @default [] */
  workerTokens: readonly string[];
  /** Operator tokens for `/api/v1`; when empty the API is open. Env `DROVER_API_TOKENS`, comma-separated. @default [] */
  apiTokens: readonly string[];
  /** Interval workers heartbeat at. Env `DROVER_HEARTBEAT_INTERVAL_MS`. @default 5000 */
  heartbeatIntervalMs: number;
  /** First resend of an unacknowledged frame after this long. Env `DROVER_ACK_TIMEOUT_MS`. @default 1000 */
  ackTimeoutMs: number;
  /** Largest frame accepted and answered with an error frame. Env `DROVER_MAX_PAYLOAD_BYTES`. @default 1048576 */
  maxPayloadBytes: number;
  /** A frame unacknowledged after this many sends (first included) marks the worker unhealthy: its socket is closed. Env `DROVER_MAX_SENDS`. @default 8 */
  maxSends: number;
  /** Invalid frames tolerated per socket before it is closed. @default 20 */
  maxInvalidFrames: number;
  /** A worker gone this long has its dispatched tasks requeued. Env `DROVER_WORKER_GRACE_MS`. @default 15000 */
  workerGraceMs: number;
  /** Default per-attempt timeout when a node sets none. Env `DROVER_NODE_TIMEOUT_MS`. @default 300000 */
  defaultNodeTimeoutMs: number;
  /** Largest request body. @default 2097152 */
  bodyLimitBytes: number;
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

function list(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/** Defaults for every option, overridable field by field (tests use this instead of env). */
export function schedulerConfig(overrides: Partial<SchedulerConfig> = {}): SchedulerConfig {
  const config: SchedulerConfig = {
    host: '127.0.0.1',
    port: 7700,
    databaseUrl: undefined,
    databaseSchema: undefined,
    dataDir: resolve('.drover/data'),
    tenant: 'default',
    workerTokens: [],
    apiTokens: [],
    heartbeatIntervalMs: 5000,
    ackTimeoutMs: 1000,
    maxPayloadBytes: 1_048_576,
    maxSends: 8,
    maxInvalidFrames: 20,
    workerGraceMs: 15_000,
    defaultNodeTimeoutMs: 300_000,
    bodyLimitBytes: 2_097_152,
    logLevel: 'info',
    ...overrides,
  };
  if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(config.tenant)) throw new ConfigError(`tenant ${JSON.stringify(config.tenant)} is not a valid tenant name`);
  if (config.databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  return Object.freeze({ ...config, workerTokens: Object.freeze([...config.workerTokens]), apiTokens: Object.freeze([...config.apiTokens]) });
}

/** Read the configuration from the environment. Throws `E.CONFIG.INVALID` naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): SchedulerConfig {
  return schedulerConfig({
    host: env.DROVER_HOST || '127.0.0.1',
    port: int(env, 'DROVER_PORT', 7700, 0, 65535),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DROVER_DB_SCHEMA || undefined,
    dataDir: env.DROVER_DATA_DIR === 'memory://' ? 'memory://' : resolve(env.DROVER_DATA_DIR || '.drover/data'),
    tenant: env.DROVER_TENANT || 'default',
    workerTokens: list(env, 'DROVER_WORKER_TOKENS'),
    apiTokens: list(env, 'DROVER_API_TOKENS'),
    heartbeatIntervalMs: int(env, 'DROVER_HEARTBEAT_INTERVAL_MS', 5000, 100, 600_000),
    ackTimeoutMs: int(env, 'DROVER_ACK_TIMEOUT_MS', 1000, 10, 600_000),
    maxPayloadBytes: int(env, 'DROVER_MAX_PAYLOAD_BYTES', 1_048_576, 1024, 64 * 1_048_576),
    maxSends: int(env, 'DROVER_MAX_SENDS', 8, 1, 1000),
    workerGraceMs: int(env, 'DROVER_WORKER_GRACE_MS', 15_000, 0, 3_600_000),
    defaultNodeTimeoutMs: int(env, 'DROVER_NODE_TIMEOUT_MS', 300_000, 1, 86_400_000),
    logLevel: env.DROVER_LOG_LEVEL || 'info',
  });
}
