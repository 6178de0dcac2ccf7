import type { CommandErrorPayload } from '@drover/protocol';
import { sql, type Database, type Kysely } from '@drover/store';
import { requeueTasks } from '../dispatch/requeue-tasks.ts';
import { recordResult, type ResultOutcome } from '../runs/record-result.ts';
import type { RunGraphCache } from '../runs/run-graph-cache.ts';

/** The worker ACKed a dispatch: the attempt is now running there. Ignored when the dispatch is no longer current. */
export async function markDispatchAcked(db: Kysely<Database>, taskId: string, dispatchId: string, at: number): Promise<void> {
  await db
    .updateTable('tasks')
    .set({
      status: 'running',
      acked_at: new Date(),
      started_at: new Date(),
      ack_deadline: null,
      timings: sql`timings || ${JSON.stringify({ ackedAt: at })}::jsonb`,
    })
    .where('id', '=', taskId)
    .where('dispatch_id', '=', dispatchId)
    .where('status', '=', 'dispatched')
    .execute();
}

/** Codes with which a worker says "not now" rather than "never": the attempt goes to another worker. */
const TRANSIENT = new Set(['E.WORKER.BUSY', 'E.WORKER.DRAINING']);

/**
 * The worker refused a dispatch. A transient refusal requeues the node; any other (no handler for the node type,
 * package missing) fails the attempt with the worker's code, exactly as a failed result would.
 */
export async function rejectDispatch(db: Kysely<Database>, graphs: RunGraphCache, workerId: string, p: CommandErrorPayload): Promise<ResultOutcome> {
  const task = await db.selectFrom('tasks').select(['id', 'run_id', 'node_id', 'attempt', 'dispatch_id', 'worker_id']).where('id', '=', p.task_id!).executeTakeFirst();
  if (!task || task.dispatch_id !== p.dispatch_id || task.worker_id !== workerId) return { status: 'stale', readied: 0, cancel: [] };
  if (TRANSIENT.has(p.code)) {
    await requeueTasks(db, [task.id], `worker ${workerId} refused: ${p.code}`);
    return { status: 'ok', readied: 1, cancel: [] };
  }
  const now = new Date().toISOString();
  return recordResult(
    db,
    graphs,
    workerId,
    {
      run_id: task.run_id,
      task_id: task.id,
      node_id: task.node_id,
      attempt: task.attempt,
      dispatch_id: p.dispatch_id!,
      status: 'failed',
      error: { code: p.code, message: p.message },
      timings: { started_at: now, finished_at: now, duration_ms: 0 },
    },
    performance.timeOrigin + performance.now(),
  );
}
