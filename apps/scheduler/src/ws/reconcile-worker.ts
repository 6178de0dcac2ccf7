import type { InflightTask } from '@drover/protocol';
import type { Database, Kysely } from '@drover/store';
import { requeueTasks } from '../dispatch/requeue-tasks.ts';
import type { CancelOrder } from '../runs/record-result.ts';

/** What a (re)registering worker's report changed. */
export interface Reconciliation {
  /** Attempts the worker still holds and the database agrees it should: they stay assigned. */
  kept: string[];
  /** Attempts the database gave this worker that it does not hold: queued again as new attempts. */
  requeued: string[];
  /** Attempts the worker is running that are no longer its own: it must abort them. */
  cancel: CancelOrder[];
}

/**
 * Compare what a registering worker says it holds with what the database assigned to it. Runs after every
 * (re)connect, including after a scheduler restart, so no attempt is lost or run twice on purpose.
 */
export async function reconcileWorker(db: Kysely<Database>, tenant: string, workerId: string, inflight: readonly InflightTask[]): Promise<Reconciliation> {
  const assigned = await db
    .selectFrom('tasks')
    .select(['id', 'run_id', 'attempt', 'dispatch_id', 'status'])
    .where('tenant', '=', tenant)
    .where('worker_id', '=', workerId)
    .where('status', 'in', ['dispatched', 'running'])
    .execute();
  const held = new Map(inflight.map((t) => [t.task_id, t]));
  const kept: string[] = [];
  const lost: string[] = [];
  const ackLost: string[] = [];
  for (const t of assigned) {
    const h = held.get(t.id);
    if (h && h.dispatch_id === t.dispatch_id && h.attempt === t.attempt) {
      kept.push(t.id);
      if (t.status === 'dispatched') ackLost.push(t.id);
    } else lost.push(t.id);
  }
  if (ackLost.length > 0) {
    await db.updateTable('tasks').set({ status: 'running', acked_at: new Date(), ack_deadline: null }).where('id', 'in', ackLost).where('status', '=', 'dispatched').execute();
  }
  const requeued = await requeueTasks(db, lost, `worker ${workerId} reconnected without it`);
  const keptSet = new Set(kept);
  const cancel = inflight
    .filter((h) => h.state === 'running' && !keptSet.has(h.task_id))
    .map((h) => ({ taskId: h.task_id, runId: h.run_id, attempt: h.attempt, workerId }));
  return { kept, requeued, cancel };
}
