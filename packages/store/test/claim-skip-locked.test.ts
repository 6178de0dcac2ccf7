import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, testDialects, type TestStore } from '@drover/testing';
import { sql, type Database, type Transaction } from '../src/index.ts';

// PGlite has one session, so two transactions can never overlap there: PostgreSQL only.
describe.runIf(testDialects().includes('postgres'))('claiming ready tasks with SKIP LOCKED on postgres', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore('postgres');
  });
  afterAll(async () => {
    await store?.dispose();
  });

  async function seedReadyTasks(count: number): Promise<string[]> {
    const run = await store.db
      .insertInto('runs')
      .values({ workflow_id: randomUUID(), workflow: {}, status: 'running' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const readyAt = new Date(Date.now() - 60_000);
    const rows = await store.db
      .insertInto('tasks')
      .values(
        Array.from({ length: count }, (_, i) => ({
          run_id: run.id,
          node_id: randomUUID(),
          node_type: 'click',
          package_name: 'pw',
          package_version: '1.0.0',
          status: 'ready' as const,
          ready_at: new Date(readyAt.getTime() + i),
        })),
      )
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** The claim the dispatcher makes: lock the oldest due ready rows, skipping rows other claimers hold. */
  async function claim(trx: Transaction<Database>, workerId: string, limit: number): Promise<string[]> {
    // Without SKIP LOCKED a claimer would wait for the other's row lock; fail fast instead of hanging.
    await sql`set local lock_timeout = '3s'`.execute(trx);
    const rows = await trx
      .updateTable('tasks')
      .set({ status: 'dispatched', worker_id: workerId, dispatch_id: randomUUID(), dispatched_at: new Date() })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('tasks')
          .select('id')
          .where('status', '=', 'ready')
          .where('tenant', '=', 'default')
          .where('package_name', '=', 'pw')
          .where('package_version', '=', '1.0.0')
          .where('ready_at', '<=', new Date())
          .orderBy('ready_at')
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  it('gives two open transactions different rows', async () => {
    const seeded = await seedReadyTasks(2);
    const first = await store.db.startTransaction().execute();
    const second = await store.db.startTransaction().execute();
    try {
      const a = await claim(first, 'w-a', 1);
      const b = await claim(second, 'w-b', 1); // does not wait for `first`: its row is skipped
      expect(a).toHaveLength(1);
      expect(b).toHaveLength(1);
      expect(a[0]).not.toBe(b[0]);
      expect([...a, ...b].sort()).toEqual([...seeded].sort());
      await first.commit().execute();
      await second.commit().execute();
    } finally {
      if (!first.isCommitted) await first.rollback().execute();
      if (!second.isCommitted) await second.rollback().execute();
    }
  });

  it('never hands one row to two of many concurrent claimers', async () => {
    const seeded = await seedReadyTasks(60);
    const claimed: string[][] = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const mine: string[] = [];
        for (;;) {
          const batch = await store.db.transaction().execute((trx) => claim(trx, `w-${i}`, 3));
          if (batch.length === 0) return mine;
          mine.push(...batch);
        }
      }),
    );
    const all = claimed.flat();
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual([...seeded].sort());
    expect(claimed.filter((mine) => mine.length > 0).length).toBeGreaterThan(1);
  });
});
