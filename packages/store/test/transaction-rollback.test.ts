import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, testDialects, type TestStore } from '@drover/testing';

describe.each(testDialects())('transactions on %s', (dialect) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore(dialect);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  const newRun = (id: string) => ({ id, workflow_id: randomUUID(), workflow: {}, status: 'queued' as const });
  const runExists = async (id: string) =>
    (await store.db.selectFrom('runs').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  it('leaves nothing behind when the callback throws', async () => {
    const runId = randomUUID();
    const boom = new Error('boom');
    await expect(
      store.db.transaction().execute(async (trx) => {
        await trx.insertInto('runs').values(newRun(runId)).execute();
        await trx
          .insertInto('tasks')
          .values({ run_id: runId, node_id: randomUUID(), node_type: 't', package_name: 'p', package_version: '1', status: 'ready' })
          .execute();
        await trx.insertInto('run_events').values({ run_id: runId, type: 'run.queued' }).execute();
        expect(await trx.selectFrom('tasks').select('id').where('run_id', '=', runId).execute()).toHaveLength(1);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await runExists(runId)).toBe(false);
    expect(await store.db.selectFrom('tasks').select('id').where('run_id', '=', runId).execute()).toEqual([]);
    expect(await store.db.selectFrom('run_events').select('id').where('run_id', '=', runId).execute()).toEqual([]);
    if (store.pglite) expect(store.pglite.isInTransaction()).toBe(false);
  });

  it('recovers after a statement fails inside a transaction', async () => {
    const runId = randomUUID();
    await store.db.insertInto('runs').values(newRun(runId)).execute();
    await expect(
      store.db.transaction().execute(async (trx) => {
        await trx.updateTable('runs').set({ status: 'running' }).where('id', '=', runId).execute();
        await trx.insertInto('runs').values(newRun(runId)).execute(); // duplicate key: aborts the transaction
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const after = await store.db.selectFrom('runs').select('status').where('id', '=', runId).executeTakeFirstOrThrow();
    expect(after.status).toBe('queued');
  });

  it('keeps a query issued outside the transaction out of it', async () => {
    // On PGlite every query shares one session: unless the dialect queues the outside insert until the
    // transaction ends, it would run inside it and vanish with the rollback.
    const inside = randomUUID();
    const outside = randomUUID();
    let entered!: () => void;
    const transactionStarted = new Promise<void>((resolve) => (entered = resolve));
    const transaction = store.db.transaction().execute(async (trx) => {
      await trx.insertInto('runs').values(newRun(inside)).execute();
      entered();
      await sleep(100);
      throw new Error('roll back');
    });
    await transactionStarted;
    const outsideInsert = store.db.insertInto('runs').values(newRun(outside)).execute();
    await expect(transaction).rejects.toThrow('roll back');
    await outsideInsert;
    expect(await runExists(inside)).toBe(false);
    expect(await runExists(outside)).toBe(true);
  });
});
