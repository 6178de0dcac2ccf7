import { sql, type Database, type Kysely } from '@drover/store';
import { hrNow } from '../hr-clock.ts';

/**
 * Give up on in-flight attempts whose worker is gone or does not know them, and queue a new attempt of each node.
 * The old attempt row ends `cancelled` with `E.DISPATCH.WORKER_LOST` (history keeps it); a late result for it is
 * fenced off by attempt and dispatch id. Returns the ids of the new attempts.
 */
export async function requeueTasks(db: Kysely<Database>, taskIds: readonly string[], reason: string): Promise<string[]> {
  if (taskIds.length === 0) return [];
  return db.transaction().execute(async (tx) => {
    const lost = await tx
      .updateTable('tasks')
      .set({
        status: 'cancelled',
        finished_at: new Date(),
        ack_deadline: null,
        error: { code: 'E.DISPATCH.WORKER_LOST', message: reason },
      })
      .where('id', 'in', [...taskIds])
      .where('status', 'in', ['dispatched', 'running'])
      .returningAll()
      .execute();
    if (lost.length === 0) return [];
    const fresh = lost.map((t) => ({
      id: crypto.randomUUID(),
      tenant: t.tenant,
      run_id: t.run_id,
      node_id: t.node_id,
      node_type: t.node_type,
      package_name: t.package_name,
      package_version: t.package_version,
      attempt: t.attempt + 1,
      status: 'ready' as const,
      parameters: t.parameters,
      pinned_worker_id: t.pinned_worker_id,
      ready_at: sql<Date>`now()`,
      timings: { readyAt: hrNow() },
    }));
    await tx.insertInto('tasks').values(fresh).execute();
    await tx
      .insertInto('run_events')
      .values(
        lost.map((t) => ({
          tenant: t.tenant,
          run_id: t.run_id,
          node_id: t.node_id,
          attempt: t.attempt,
          type: 'task.lost',
          payload: { reason, workerId: t.worker_id, dispatchId: t.dispatch_id },
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
    return fresh.map((t) => t.id);
  });
}

/** Requeue the in-flight tasks of workers that have been offline longer than `graceMs`. */
export async function requeueTasksOfLostWorkers(db: Kysely<Database>, graceMs: number): Promise<string[]> {
  const cutoff = new Date(Date.now() - graceMs);
  const rows = await db
    .selectFrom('tasks')
    .innerJoin('workers', (join) => join.onRef('workers.id', '=', 'tasks.worker_id').onRef('workers.tenant', '=', 'tasks.tenant'))
    .select('tasks.id')
    .where('tasks.status', 'in', ['dispatched', 'running'])
    .where('workers.status', '=', 'offline')
    .where('workers.disconnected_at', '<', cutoff)
    .execute();
  return requeueTasks(db, rows.map((r) => r.id), 'worker lost');
}
