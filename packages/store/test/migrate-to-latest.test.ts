import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, testDialects, type TestStore } from '@drover/testing';
import { migrateToEmpty, migrateToLatest, sql, StoreError, type Kysely } from '../src/index.ts';

const TABLES = [
  'artifacts',
  'package_installs',
  'packages',
  'run_events',
  'runs',
  'tasks',
  'tokens',
  'worker_bindings',
  'worker_sessions',
  'workers',
];

async function tablesInCurrentSchema(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_name not like 'kysely_%'
    order by table_name`.execute(db);
  return rows.map((row) => row.name);
}

describe.each(testDialects())('migrations on %s', (dialect) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore(dialect);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('creates every table', async () => {
    expect(await tablesInCurrentSchema(store.db)).toEqual(TABLES);
  });

  it('does nothing when run again', async () => {
    expect(await migrateToLatest(store.db)).toEqual([]);
    expect(await tablesInCurrentSchema(store.db)).toEqual(TABLES);
  });

  it('reverts to empty and re-applies', async () => {
    const down = await migrateToEmpty(store.db);
    expect(down.map((r) => [r.migrationName, r.direction, r.status])).toEqual([['0001-initial', 'Down', 'Success']]);
    expect(await tablesInCurrentSchema(store.db)).toEqual([]);
    const up = await migrateToLatest(store.db);
    expect(up.map((r) => [r.migrationName, r.direction, r.status])).toEqual([['0001-initial', 'Up', 'Success']]);
    expect(await tablesInCurrentSchema(store.db)).toEqual(TABLES);
  });

  it('rolls a failed migration back and reports E.STORE.MIGRATION_FAILED', async () => {
    await migrateToEmpty(store.db);
    // A table in the way of the last statement of 0001 makes it fail after nine tables were created.
    await sql`create table tokens (id int)`.execute(store.db);
    const error = await migrateToLatest(store.db).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'E.STORE.MIGRATION_FAILED', details: { migration: '0001-initial' } });
    expect((error as StoreError).message).toMatch(/0001-initial.*tokens/);
    // `runs` … `packages` were created before `tokens` failed; the transaction removed them all.
    expect(await tablesInCurrentSchema(store.db)).toEqual(['tokens']);
    await sql`drop table tokens`.execute(store.db);
    await migrateToLatest(store.db);
    expect(await tablesInCurrentSchema(store.db)).toEqual(TABLES);
  });
});
