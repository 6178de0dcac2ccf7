import type { Database, Kysely } from '@drover/store';
import { TASK_STATE_COLUMNS, failRun, latestAttempts, type CancelOrder } from '../runs/record-result.ts';

/**
 * Fail ready attempts pinned to a worker that has been offline longer than `graceMs`: the live resources they
 * need (a browser page) died with it, so waiting would hang the run forever. Each such node fails with
 * `E.RESOURCE.LOST`, and so does its run. Returns the in-flight attempts of those runs to cancel.
 */
export async function failStrandedTasks(db: Kysely<Database>, graceMs: number): Promise<{ failed: number; cancel: CancelOrder[] }> {
  const cutoff = new Date(Date.now() - graceMs);
  const stranded = await db
    .selectFrom('tasks')
    .innerJoin('workers', (join) => join.onRef('workers.id', '=', 'tasks.pinned_worker_id').onRef('workers.tenant', '=', 'tasks.tenant'))
    .select(['tasks.id', 'tasks.run_id', 'tasks.node_id', 'tasks.pinned_worker_id'])
    .where('tasks.status', '=', 'ready')
    .where('workers.status', '=', 'offline')
    .where('workers.disconnected_at', '<', cutoff)
    .execute();
  const cancel: CancelOrder[] = [];
  let failed = 0;
  for (const t of stranded) {
    const error = { code: 'E.RESOURCE.LOST', message: `worker ${t.pinned_worker_id} holding this node's resources is gone`, nodeId: t.node_id };
    await db.transaction().execute(async (tx) => {
      const run = await tx.selectFrom('runs').select(['id', 'tenant', 'status']).where('id', '=', t.run_id).forUpdate().executeTakeFirst();
      if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
      const updated = await tx
        .updateTable('tasks')
        .set({ status: 'failed', finished_at: new Date(), error: { code: error.code, message: error.message } })
        .where('id', '=', t.id)
        .where('status', '=', 'ready')
        .returning('id')
        .executeTakeFirst();
      if (!updated) return;
      const tasks = await tx.selectFrom('tasks').select(TASK_STATE_COLUMNS).where('run_id', '=', run.id).execute();
      cancel.push(...(await failRun(tx, run, latestAttempts(tasks), error)));
      failed++;
    });
  }
  return { failed, cancel };
}
