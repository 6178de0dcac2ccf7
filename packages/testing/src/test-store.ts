import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrations, openStore, sql, type Store } from '@drover/store';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { TestDialect } from './test-dialects.ts';

/** A migrated store of its own for one test file; dispose() removes it. */
export type TestStore = Store & {
  /** The PostgreSQL schema holding this store's tables (`t_<random>`); undefined on PGlite. */
  readonly schema: string | undefined;
  /** Drops the schema (kept when `DROVER_KEEP_TEST_SCHEMA` is set) or discards the PGlite copy, then closes. Idempotent. */
  dispose(): Promise<void>;
};

/**
 * Opens a fresh, migrated, empty store. PostgreSQL (`DATABASE_URL`) gets a new schema `t_<random>`; PGlite
 * gets an in-memory copy of a migrated template. Each copy costs ~0.5 s and a few hundred MB until
 * garbage-collected, so share one per test file.
 */
export async function createTestStore(dialect: TestDialect): Promise<TestStore> {
  return dialect === 'postgres' ? createPostgresTestStore() : createPGliteTestStore();
}

async function createPostgresTestStore(): Promise<TestStore> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('createTestStore("postgres") needs DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let store: Store;
  try {
    store = await openStore({ url, searchPath: schema });
  } catch (error) {
    // Migrating created the schema before it failed: do not leave it behind in the shared database.
    const admin = await openStore({ url, migrate: false });
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db).finally(() => admin.close());
    throw error;
  }
  let disposing: Promise<void> | undefined;
  const dispose = (): Promise<void> =>
    (disposing ??= (async () => {
      try {
        if (!process.env.DROVER_KEEP_TEST_SCHEMA) {
          await sql`drop schema ${sql.id(schema)} cascade`.execute(store.db);
        }
      } finally {
        await store.close();
      }
    })());
  return { ...store, schema, dispose };
}

async function createPGliteTestStore(): Promise<TestStore> {
  let template = await pgliteTemplate();
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({ loadDataDir: template.dump });
  } catch (error) {
    if (!template.fromCache) throw error;
    // A damaged cache file: rebuild the template once.
    await rm(template.file, { force: true });
    templatePromise = undefined;
    template = await pgliteTemplate();
    pglite = await PGlite.create({ loadDataDir: template.dump });
  }
  // The template was migrated by the same migrations (its file name is their fingerprint).
  const store = await openStore({ pglite, migrate: false });
  return { ...store, schema: undefined, dispose: () => store.close() };
}

interface PGliteTemplate {
  /** An uncompressed tarball of a migrated data directory. */
  dump: Blob;
  file: string;
  fromCache: boolean;
}

let templatePromise: Promise<PGliteTemplate> | undefined;

/** The migrated PGlite template: built once per process, and cached on disk across processes. */
function pgliteTemplate(): Promise<PGliteTemplate> {
  templatePromise ??= loadOrBuildTemplate().catch((error: unknown) => {
    templatePromise = undefined;
    throw error;
  });
  return templatePromise;
}

async function loadOrBuildTemplate(): Promise<PGliteTemplate> {
  const dir = path.join(tmpdir(), 'drover-test-templates');
  const file = path.join(dir, `pglite-${await templateFingerprint()}.tar`);
  try {
    const dump = new Blob([await readFile(file)]);
    await utimes(file, new Date(), new Date()).catch(() => undefined); // marks it as in use, see saveTemplate()
    return { dump, file, fromCache: true };
  } catch {
    // not cached yet
  }
  const store = await openStore({ dataDir: 'memory://' });
  let dump: Blob;
  try {
    dump = await store.pglite!.dumpDataDir('none');
  } finally {
    await store.close();
  }
  await saveTemplate(dir, file, dump);
  return { dump, file, fromCache: false };
}

/** Writes atomically (temp file + rename) and drops templates unused for a week; best effort. */
async function saveTemplate(dir: string, file: string, dump: Blob): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temp, new Uint8Array(await dump.arrayBuffer()));
    await rename(temp, file);
    const weekAgo = Date.now() - 7 * 24 * 3600_000;
    for (const name of await readdir(dir)) {
      const other = path.join(dir, name);
      if (name.startsWith('pglite-') && other !== file && (await stat(other)).mtimeMs < weekAgo) {
        await rm(other, { force: true });
      }
    }
  } catch {
    // The cache only saves time; without it every process builds its own template.
  }
}

/**
 * Changes whenever the PGlite version or the SQL of any migration changes. The SQL is recorded by running
 * the migrations against a driver that executes nothing, so it does not depend on how the source was
 * transpiled (tsx and vitest print functions differently).
 */
async function templateFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`template-format:1\npglite:${pgliteVersion()}\n`);
  const recorder = new Kysely<any>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      hash.update(`${event.query.sql}\n${JSON.stringify(event.query.parameters)}\n`);
    },
  });
  for (const [name, migration] of Object.entries(migrations)) {
    hash.update(`${name}\n`);
    await migration.up(recorder);
  }
  await recorder.destroy();
  return hash.digest('hex').slice(0, 16);
}

function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve('@electric-sql/pglite'));
  for (; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      const manifest = require(path.join(dir, 'package.json')) as { name?: string; version?: string };
      if (manifest.name === '@electric-sql/pglite') return manifest.version ?? 'unknown';
    } catch {
      // no package.json at this level
    }
  }
  return 'unknown';
}
