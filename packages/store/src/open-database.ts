import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { StoreError } from './errors.ts';
import { migrateToLatest } from './migrate.ts';
import { acquireDataDirLock, type DataDirLock } from './pglite-lock.ts';
import type { Database } from './schema.ts';

/** How to open the database. With no `url`, an embedded PGlite database in `dataDir` is used. */
export interface StoreOptions {
  /**
   * PostgreSQL connection URL (`postgres://` or `postgresql://`); selects PostgreSQL through a pg Pool.
   * @default undefined (embedded PGlite)
   */
  url?: string;
  /**
   * PGlite data directory, created if missing and locked against a second process; `'memory://'` keeps the
   * database in memory (no lock). Ignored with `url`.
   * @default '.drover/data'
   */
  dataDir?: string;
  /**
   * An already open PGlite instance to use instead of `dataDir` (e.g. one loaded from a dump); the store
   * takes it over and closes it. Its caller is responsible for any directory lock.
   * @default undefined
   */
  pglite?: PGlite;
  /**
   * The PostgreSQL schema holding Drover's tables, set as the `search_path` of every connection (on
   * PostgreSQL through the pool's startup `options`, so each pooled connection gets it). Created when
   * `migrate` is on. A plain identifier: letters, digits, `_`, `$`.
   * @default undefined (the server's default search_path, normally `public`)
   */
  searchPath?: string;
  /**
   * Apply pending migrations before returning.
   * @default true
   */
  migrate?: boolean;
  /**
   * Maximum number of pooled PostgreSQL connections. Ignored for PGlite, which has a single session.
   * @default 10
   */
  maxConnections?: number;
  /**
   * Receives errors of idle pooled PostgreSQL connections (e.g. the server restarted). The pool drops such a
   * connection and the next query opens a new one, so these are for logging only.
   * @default ignore them
   */
  onIdleConnectionError?: (error: Error) => void;
}

/** Which engine a store runs on. */
export type StoreDialect = 'postgres' | 'pglite';

/** An open database: the kysely instance and what is needed to close it. */
export interface Store {
  /** The query builder; on PGlite, kysely-pglite-dialect serialises queries and transactions on its one session. */
  readonly db: Kysely<Database>;
  readonly dialect: StoreDialect;
  /** The PGlite instance, for `dumpDataDir()`/`clone()`; undefined on PostgreSQL. */
  readonly pglite?: PGlite;
  /** Closes the pool or PGlite and releases the data-directory lock. Idempotent. */
  close(): Promise<void>;
}

const DEFAULT_DATA_DIR = '.drover/data';
const DEFAULT_MAX_CONNECTIONS = 10;
const MEMORY_DATA_DIR = 'memory://';
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/** Opens (and by default migrates) the database described by `options`. */
export async function openStore(options: StoreOptions = {}): Promise<Store> {
  checkOptions(options);
  const store = options.url !== undefined ? await openPostgres(options.url, options) : await openPGlite(options);
  try {
    if (options.migrate ?? true) {
      if (options.searchPath !== undefined) {
        await sql`create schema if not exists ${sql.id(options.searchPath)}`.execute(store.db);
      }
      await migrateToLatest(store.db);
    }
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

function checkOptions(options: StoreOptions): void {
  const bad = (message: string): StoreError => new StoreError('E.STORE.BAD_OPTIONS', message);
  if (options.url !== undefined && (options.dataDir !== undefined || options.pglite !== undefined)) {
    throw bad('choose one database: `url` (PostgreSQL) or `dataDir`/`pglite` (PGlite), not both');
  }
  if (options.dataDir !== undefined && options.pglite !== undefined) {
    throw bad('choose one of `dataDir` and `pglite`');
  }
  if (options.url !== undefined) {
    let protocol: string;
    try {
      protocol = new URL(options.url).protocol;
    } catch {
      throw bad('`url` is not a valid URL');
    }
    if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
      throw bad(`\`url\` must start with postgres:// or postgresql://, not ${protocol}//`);
    }
  }
  if (options.dataDir !== undefined && options.dataDir !== MEMORY_DATA_DIR && /^[a-z][a-z0-9+.-]*:\/\//i.test(options.dataDir)) {
    throw bad(`\`dataDir\` must be a directory path or '${MEMORY_DATA_DIR}', not ${options.dataDir}`);
  }
  if (options.searchPath !== undefined && !IDENTIFIER.test(options.searchPath)) {
    throw bad(`\`searchPath\` must be one plain schema name (letters, digits, _, $), not ${JSON.stringify(options.searchPath)}`);
  }
  const max = options.maxConnections;
  if (max !== undefined && (!Number.isInteger(max) || max < 1)) {
    throw bad('`maxConnections` must be a positive integer');
  }
}

async function openPostgres(url: string, options: StoreOptions): Promise<Store> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    application_name: 'drover',
    types: postgresTypes,
    ...(options.searchPath !== undefined ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  // Without a listener, an idle connection dropped by the server would crash the process.
  pool.on('error', (error) => options.onIdleConnectionError?.(error));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await sql`select 1`.execute(db);
  } catch (cause) {
    await db.destroy();
    const target = redactUrl(url);
    throw new StoreError('E.STORE.CONNECT_FAILED', `cannot connect to ${target}: ${reasonOf(cause)}`, { url: target }, { cause });
  }
  return { db, dialect: 'postgres', close: once(() => db.destroy()) };
}

async function openPGlite(options: StoreOptions): Promise<Store> {
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  let lock: DataDirLock | undefined;
  let pglite = options.pglite;
  if (pglite === undefined) {
    const location = dataDir === MEMORY_DATA_DIR ? dataDir : path.resolve(dataDir);
    if (location !== MEMORY_DATA_DIR) lock = acquireDataDirLock(location);
    try {
      pglite = await PGlite.create(location);
    } catch (cause) {
      lock?.release();
      const message = `cannot open PGlite database ${location}: ${reasonOf(cause)}`;
      throw new StoreError('E.STORE.CONNECT_FAILED', message, { dataDir: location }, { cause });
    }
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  const instance = pglite;
  const close = once(async () => {
    try {
      await db.destroy();
      // kysely only destroys a driver that ran a query; close PGlite ourselves (and only once: a second
      // close() throws) or its runtime keeps the process alive.
      if (!instance.closed) await instance.close();
    } finally {
      lock?.release();
    }
  });
  if (options.searchPath !== undefined) {
    try {
      await sql`set search_path to ${sql.id(options.searchPath)}`.execute(db);
    } catch (error) {
      await close();
      throw error;
    }
  }
  return { db, dialect: 'pglite', pglite, close };
}

/**
 * node-postgres type parsers matching PGlite's: int8 as a number when it fits exactly, as a bigint otherwise
 * (node-postgres alone returns a string). The pool gets its own table; the global `pg.types` is untouched.
 */
const postgresTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 && format !== 'binary'
      ? parseInt8
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

function parseInt8(text: string): number | bigint {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
}

/** The first line of an error's message, capped: PGlite's runtime errors can embed megabytes of source. */
function reasonOf(cause: unknown): string {
  // Emscripten's filesystem throws plain `{ name: 'ErrnoError', errno }` objects, not Errors.
  const text =
    cause instanceof Error
      ? cause.message
      : typeof cause === 'object' && cause !== null
        ? JSON.stringify(cause)
        : String(cause);
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= fn());
}
