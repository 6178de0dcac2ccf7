import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, testDialects, type TestStore } from '@drover/testing';
import { RUN_STATUSES, TASK_STATUSES, TOKEN_KINDS, WORKER_STATUSES, type Insertable, type TaskTable } from '../src/index.ts';

const UNIQUE_VIOLATION = '23505';
const CHECK_VIOLATION = '23514';

describe.each(testDialects())('constraints on %s', (dialect) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore(dialect);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  async function insertRun(values: { tenant?: string; idempotency_key?: string | null } = {}): Promise<string> {
    const row = await store.db
      .insertInto('runs')
      .values({ workflow_id: randomUUID(), workflow: { nodes: [], edges: [] }, status: 'queued', ...values })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  function task(runId: string, nodeId: string, attempt: number): Insertable<TaskTable> {
    return { run_id: runId, node_id: nodeId, attempt, node_type: 'click', package_name: 'pw', package_version: '1.0.0', status: 'pending' };
  }

  it('allows one task row per (run_id, node_id, attempt)', async () => {
    const runId = await insertRun();
    const nodeId = randomUUID();
    await store.db.insertInto('tasks').values([task(runId, nodeId, 1), task(runId, nodeId, 2)]).execute();
    await expect(store.db.insertInto('tasks').values(task(runId, nodeId, 1)).execute()).rejects.toMatchObject({
      code: UNIQUE_VIOLATION,
      constraint: 'tasks_run_id_node_id_attempt_key',
    });
  });

  it('discards a duplicate run event, also when node_id is null', async () => {
    const runId = await insertRun();
    const nodeId = randomUUID();
    const append = (node: string | null, attempt: number) =>
      store.db
        .insertInto('run_events')
        .values({ run_id: runId, node_id: node, attempt, type: 'node.succeeded', payload: { n: attempt } })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .execute();

    for (const node of [null, nodeId]) {
      expect(await append(node, 1)).toHaveLength(1);
      expect(await append(node, 1)).toHaveLength(0);
      expect(await append(node, 2)).toHaveLength(1);
    }
    const again = await store.db
      .insertInto('run_events')
      .values({ run_id: runId, type: 'run.started' })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    expect(again.numInsertedOrUpdatedRows).toBe(1n);
    const duplicate = await store.db
      .insertInto('run_events')
      .values({ run_id: runId, type: 'run.started' })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    expect(duplicate.numInsertedOrUpdatedRows).toBe(0n);

    const events = await store.db.selectFrom('run_events').select(['node_id', 'attempt', 'type']).where('run_id', '=', runId).orderBy('id').execute();
    expect(events).toEqual([
      { node_id: null, attempt: 1, type: 'node.succeeded' },
      { node_id: null, attempt: 2, type: 'node.succeeded' },
      { node_id: nodeId, attempt: 1, type: 'node.succeeded' },
      { node_id: nodeId, attempt: 2, type: 'node.succeeded' },
      { node_id: null, attempt: 0, type: 'run.started' },
    ]);
  });

  it('keeps idempotency keys unique per tenant only', async () => {
    const key = `key-${randomUUID()}`;
    await insertRun({ idempotency_key: key });
    await expect(insertRun({ idempotency_key: key })).rejects.toMatchObject({ code: UNIQUE_VIOLATION });
    await expect(insertRun({ tenant: 'acme', idempotency_key: key })).resolves.toEqual(expect.any(String));
    // Runs without a key never collide (plain UNIQUE treats NULLs as distinct).
    await insertRun({ idempotency_key: null });
    await insertRun({ idempotency_key: null });
  });

  it('accepts every status the types declare', async () => {
    const runIds = [];
    for (const status of RUN_STATUSES) {
      runIds.push((await store.db.insertInto('runs').values({ workflow_id: randomUUID(), workflow: {}, status }).returning('id').executeTakeFirstOrThrow()).id);
    }
    const runId = runIds[0]!;
    await store.db.insertInto('tasks').values(TASK_STATUSES.map((status) => ({ ...task(runId, randomUUID(), 1), status }))).execute();
    await store.db.insertInto('workers').values(WORKER_STATUSES.map((status) => ({ id: `w-${randomUUID()}`, status }))).execute();
    await store.db.insertInto('tokens').values(TOKEN_KINDS.map((kind) => ({ kind, hash: randomUUID() }))).execute();
  });

  it('rejects an unknown status or kind', async () => {
    const runId = await insertRun();
    const bogus = 'paused' as never;
    await expect(
      store.db.insertInto('runs').values({ workflow_id: randomUUID(), workflow: {}, status: bogus }).execute(),
    ).rejects.toMatchObject({ code: CHECK_VIOLATION, constraint: 'runs_status_check' });
    await expect(store.db.updateTable('runs').set({ status: bogus }).where('id', '=', runId).execute()).rejects.toMatchObject({
      code: CHECK_VIOLATION,
    });
    await expect(store.db.insertInto('tasks').values({ ...task(runId, randomUUID(), 1), status: bogus }).execute()).rejects.toMatchObject({
      code: CHECK_VIOLATION,
      constraint: 'tasks_status_check',
    });
    await expect(store.db.insertInto('workers').values({ id: 'w-bogus', status: bogus }).execute()).rejects.toMatchObject({
      code: CHECK_VIOLATION,
      constraint: 'workers_status_check',
    });
    await expect(store.db.insertInto('tokens').values({ kind: bogus, hash: randomUUID() }).execute()).rejects.toMatchObject({
      code: CHECK_VIOLATION,
      constraint: 'tokens_kind_check',
    });
  });

  it('deletes a run together with its tasks, events and bindings', async () => {
    const runId = await insertRun();
    await store.db.insertInto('tasks').values(task(runId, randomUUID(), 1)).execute();
    await store.db.insertInto('run_events').values({ run_id: runId, type: 'run.queued' }).execute();
    await store.db.insertInto('worker_bindings').values({ run_id: runId, package_name: 'pw', worker_id: 'w1' }).execute();
    await store.db.deleteFrom('runs').where('id', '=', runId).execute();
    for (const table of ['tasks', 'run_events', 'worker_bindings'] as const) {
      const left = await store.db.selectFrom(table).select('run_id').where('run_id', '=', runId).execute();
      expect(left, table).toEqual([]);
    }
  });
});
