import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from '@drover/store';
import { createTestStore, testDialects, type TestStore } from '../src/index.ts';

describe('testDialects', () => {
  const saved = process.env.DATABASE_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  });

  it('always includes PGlite and adds PostgreSQL when DATABASE_URL is set', () => {
    delete process.env.DATABASE_URL;
    expect(testDialects()).toEqual(['pglite']);
    process.env.DATABASE_URL = 'postgres://localhost/x';
    expect(testDialects()).toEqual(['pglite', 'postgres']);
  });
});

describe.each(testDialects())('createTestStore on %s', (dialect) => {
  it('gives each caller its own migrated, empty database', async () => {
    const stores: TestStore[] = [];
    try {
      stores.push(await createTestStore(dialect), await createTestStore(dialect));
      const [a, b] = stores as [TestStore, TestStore];
      expect(a.dialect).toBe(dialect);
      expect(await a.db.selectFrom('runs').select('id').execute()).toEqual([]);
      await a.db.insertInto('runs').values({ id: randomUUID(), workflow_id: randomUUID(), workflow: {}, status: 'queued' }).execute();
      expect(await a.db.selectFrom('runs').select('id').execute()).toHaveLength(1);
      expect(await b.db.selectFrom('runs').select('id').execute()).toEqual([]);
    } finally {
      for (const store of stores) await store.dispose();
    }
  });
});

describe('createTestStore on pglite', () => {
  it('closes PGlite on dispose even when no query ran', async () => {
    // kysely only destroys a driver that was used; an open PGlite keeps the process from exiting.
    const store = await createTestStore('pglite');
    await store.dispose();
    expect(store.pglite?.closed).toBe(true);
    await store.dispose(); // idempotent: a second PGlite close() would throw
  });
});

describe.runIf(testDialects().includes('postgres'))('createTestStore on postgres', () => {
  const schemaExists = async (store: TestStore, schema: string) => {
    const { rows } = await sql`select 1 from information_schema.schemata where schema_name = ${schema}`.execute(store.db);
    return rows.length === 1;
  };

  it('uses its schema on every pooled connection and drops it on dispose', async () => {
    const store = await createTestStore('postgres');
    const observer = await createTestStore('postgres');
    try {
      expect(store.schema).toMatch(/^t_[0-9a-f]{12}$/);
      // Eight transactions open at once hold eight distinct connections.
      const schemas = await Promise.all(
        Array.from({ length: 8 }, () =>
          store.db.transaction().execute(async (trx) => {
            const { rows } = await sql<{ schema: string; pid: number }>`select current_schema() as schema, pg_backend_pid() as pid, pg_sleep(0.05)`.execute(trx);
            return rows[0]!;
          }),
        ),
      );
      expect(new Set(schemas.map((row) => row.pid)).size).toBe(8);
      expect(new Set(schemas.map((row) => row.schema))).toEqual(new Set([store.schema]));
      expect(await schemaExists(observer, store.schema!)).toBe(true);
      await store.dispose();
      expect(await schemaExists(observer, store.schema!)).toBe(false);
    } finally {
      await store.dispose();
      await observer.dispose();
    }
  });

  it('keeps the schema when DROVER_KEEP_TEST_SCHEMA is set', async () => {
    const observer = await createTestStore('postgres');
    process.env.DROVER_KEEP_TEST_SCHEMA = '1';
    let kept: string | undefined;
    try {
      const store = await createTestStore('postgres');
      kept = store.schema!;
      await store.dispose();
      expect(await schemaExists(observer, kept)).toBe(true);
    } finally {
      delete process.env.DROVER_KEEP_TEST_SCHEMA;
      if (kept) await sql`drop schema if exists ${sql.id(kept)} cascade`.execute(observer.db);
      await observer.dispose();
    }
  });
});
