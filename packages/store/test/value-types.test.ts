import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, testDialects, type TestStore } from '@drover/testing';
import { jsonb, sql } from '../src/index.ts';

describe.each(testDialects())('column values on %s', (dialect) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore(dialect);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('reads timestamptz as Date, equal to what was written', async () => {
    const startedAt = new Date('2024-02-29T23:59:58.123Z');
    const run = await store.db
      .insertInto('runs')
      .values({ workflow_id: randomUUID(), workflow: {}, status: 'running', started_at: startedAt, finished_at: '2024-03-01T01:00:00+01:00' })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(run.started_at).toBeInstanceOf(Date);
    expect(run.started_at).toEqual(startedAt);
    expect(run.finished_at).toEqual(new Date('2024-03-01T00:00:00.000Z'));
    expect(run.created_at).toBeInstanceOf(Date);
    expect(Math.abs(run.created_at.getTime() - Date.now())).toBeLessThan(60_000);
    const due = await store.db.selectFrom('runs').select('id').where('id', '=', run.id).where('started_at', '<', new Date('2024-03-01T00:00:00Z')).execute();
    expect(due).toHaveLength(1);
  });

  it('reads int8 as number, also from count(*)', async () => {
    const sha256 = randomUUID();
    await store.db.insertInto('artifacts').values({ sha256, size: 2 ** 40 + 1, content_type: 'application/octet-stream', blob: new Uint8Array([0, 1, 255]) }).execute();
    const artifact = await store.db.selectFrom('artifacts').selectAll().where('sha256', '=', sha256).executeTakeFirstOrThrow();
    expect(artifact.size).toBe(2 ** 40 + 1);
    const { count } = await store.db.selectFrom('artifacts').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
    expect(typeof count).toBe('number');
    const { rows } = await sql<{ big: unknown }>`select 9007199254740993::int8 as big`.execute(store.db);
    expect(rows[0]?.big).toBe(9007199254740993n); // beyond 2^53: bigint, never a rounded number
    const events = await store.db.selectFrom('run_events').select('id').limit(1).execute();
    expect(events).toEqual([]);
  });

  it('reads bytea as Uint8Array', async () => {
    const sha256 = randomUUID();
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    await store.db.insertInto('artifacts').values({ sha256, size: bytes.length, content_type: 'x', blob: bytes }).execute();
    const { blob } = await store.db.selectFrom('artifacts').select('blob').where('sha256', '=', sha256).executeTakeFirstOrThrow();
    expect(blob).toBeInstanceOf(Uint8Array);
    expect(Array.from(blob)).toEqual(Array.from(bytes));
  });

  it('round-trips jsonb objects and, through jsonb(), arrays', async () => {
    const labels = { region: 'eu', 'ünï': 'cödé ✓', nested: { list: [1, 'two', null, { three: true }] }, empty: [] };
    const id = `w-${randomUUID()}`;
    await store.db.insertInto('workers').values({ id, status: 'online', labels, packages: jsonb([]) }).execute();
    let row = await store.db.selectFrom('workers').select(['labels', 'packages', 'runtime']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ labels, packages: [], runtime: {} });

    const packages = [{ name: '@drover/node-playwright', version: '1.2.3' }];
    await store.db.updateTable('workers').set({ packages: jsonb(packages) }).where('id', '=', id).execute();
    row = await store.db.selectFrom('workers').select(['labels', 'packages', 'runtime']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.packages).toEqual(packages);

    const found = await store.db
      .selectFrom('workers')
      .select('id')
      .where(sql<boolean>`packages @> ${jsonb([{ name: '@drover/node-playwright' }])}`)
      .execute();
    expect(found.map((w) => w.id)).toEqual([id]);
  });
});
