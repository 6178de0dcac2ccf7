import { bindParameters, pinnedWorker, readySuccessors, runOutcome, type NodeOutput, type NodeState } from '@drover/engine';
import type { ResultPayload } from '@drover/protocol';
import { sql, type Database, type Kysely, type Selectable, type Transaction } from '@drover/store';
import { hrNow } from '../hr-clock.ts';
import type { RunGraphCache } from './run-graph-cache.ts';
import type { ClaimedTask } from '../dispatch/claim-tasks.ts';

/** What result handling needs of every attempt of the run (no jsonb: runs can be large). */
export type TaskState = Pick<Selectable<Database['tasks']>, 'id' | 'run_id' | 'node_id' | 'attempt' | 'status' | 'worker_id' | 'package_name' | 'package_version'>;

/** The columns of TaskState, for selects. */
export const TASK_STATE_COLUMNS = ['id', 'run_id', 'node_id', 'attempt', 'status', 'worker_id', 'package_name', 'package_version'] as const;

/** An in-flight attempt that must be told to stop because its run ended. */
export interface CancelOrder {
  taskId: string;
  runId: string;
  attempt: number;
  workerId: string;
}

/**
 * Lets result handling hand a successor straight to the worker that reported (eager dispatch): it saves the
 * separate claim, its commit and the dispatcher round trip on the hot path of a chain. Only nodes of a package the
 * worker has, not pinned elsewhere, up to `slots`.
 */
export interface EagerClaim {
  workerId: string;
  /** `name@version` of the worker's packages. */
  packages: ReadonlySet<string>;
  /** Free slots of the worker once this result's attempt is done. */
  slots: number;
  ackTimeoutMs: number;
}

/** What happened to a result: applied now (`ok`), seen before (`duplicate`) or fenced off (`stale`). */
export interface ResultOutcome {
  status: 'ok' | 'duplicate' | 'stale';
  /** Nodes made ready by this result (including those claimed eagerly). */
  readied: number;
  /** Successors claimed for the reporting worker in the same transaction; the caller sends their dispatches. */
  claimed?: ClaimedTask[];
  /** In-flight attempts to cancel (the run failed). */
  cancel: CancelOrder[];
  /** Final run status when this result ended the run. */
  runStatus?: 'succeeded' | 'failed';
}

const nothing = (status: ResultOutcome['status']): ResultOutcome => ({ status, readied: 0, cancel: [] });

/** Latest attempt of each node. */
export function latestAttempts(tasks: TaskState[]): Map<string, TaskState> {
  const latest = new Map<string, TaskState>();
  for (const t of tasks) {
    const prev = latest.get(t.node_id);
    if (!prev || t.attempt > prev.attempt) latest.set(t.node_id, t);
  }
  return latest;
}

/**
 * Record one attempt's result in one transaction: fence it (run, task, attempt, dispatch id and worker must match
 * an in-flight attempt), store it, bind output ports into newly ready successors, and settle the run. The run row
 * is locked first, so results of one run are applied one at a time and a join never misses its last input.
 */
export async function recordResult(
  db: Kysely<Database>,
  graphs: RunGraphCache,
  workerId: string,
  p: ResultPayload,
  receivedAt: number,
  eager?: EagerClaim,
  /** When the worker's ACK of this dispatch arrived, if that was not written yet (it is folded in here). */
  ackedAt?: number,
): Promise<ResultOutcome> {
  return db.transaction().execute(async (tx) => {
    const run = await tx.selectFrom('runs').select(['id', 'tenant', 'status']).where('id', '=', p.run_id).forUpdate().executeTakeFirst();
    if (!run) return nothing('stale');
    const task = await tx.selectFrom('tasks').selectAll().where('id', '=', p.task_id).forUpdate().executeTakeFirst();
    if (!task || task.run_id !== p.run_id || task.node_id !== p.node_id || task.attempt !== p.attempt) return nothing('stale');
    if (task.dispatch_id !== p.dispatch_id || task.worker_id !== workerId) return nothing('stale');
    if (task.status === 'succeeded' || task.status === 'failed') return nothing('duplicate');
    if (task.status !== 'dispatched' && task.status !== 'running') return nothing('stale');

    const results = p.results ?? {};
    const error = p.status === 'failed' ? (p.error ?? { code: 'E.RUNNER.FAILURE', message: 'failed without an error' }) : null;
    await tx
      .updateTable('tasks')
      .set({
        status: p.status,
        results,
        error: error ?? null,
        started_at: task.started_at ?? new Date(p.timings.started_at),
        acked_at: task.acked_at ?? new Date(),
        finished_at: new Date(),
        ack_deadline: null,
        timings: {
          ...(task.timings as object),
          ...(ackedAt !== undefined ? { ackedAt } : {}),
          resultAt: receivedAt,
          completedAt: hrNow(),
          workerMs: p.timings.duration_ms,
        },
      })
      .where('id', '=', task.id)
      .execute();
    await tx
      .insertInto('run_events')
      .values({
        tenant: run.tenant,
        run_id: run.id,
        node_id: task.node_id,
        attempt: task.attempt,
        type: p.status === 'succeeded' ? 'node.succeeded' : 'node.failed',
        payload: error ? { workerId, error } : { workerId },
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    if (run.status !== 'queued' && run.status !== 'running') return nothing('ok');

    const tasks = await tx.selectFrom('tasks').select(TASK_STATE_COLUMNS).where('run_id', '=', run.id).execute();
    const latest = latestAttempts(tasks);
    const state = new Map<string, NodeState>([...latest].map(([id, t]) => [id, t.status as NodeState]));

    if (p.status === 'failed') {
      const cancel = await failRun(tx, run, latest, {
        code: error!.code,
        message: error!.message,
        nodeId: task.node_id,
        ...(error!.step ? { step: error!.step } : {}),
      });
      return { status: 'ok', readied: 0, cancel, runStatus: 'failed' };
    }

    const graph = await graphs.get(tx, run.id);
    const ready = readySuccessors(graph, task.node_id, state);
    // Outputs are read only for the nodes that feed the successors made ready now.
    const feeding = [...new Set(ready.flatMap((id) => graph.predecessors(id)))].map((id) => latest.get(id)!.id);
    const outputs = new Map<string, NodeOutput>();
    if (feeding.length > 0) {
      const rows = await tx.selectFrom('tasks').select(['node_id', 'parameters', 'results']).where('id', 'in', feeding).execute();
      for (const r of rows) outputs.set(r.node_id, { parameters: r.parameters as Record<string, unknown>, results: (r.results ?? {}) as Record<string, unknown> });
    }
    let readied = 0;
    const claimed: ClaimedTask[] = [];
    let slots = eager?.slots ?? 0;
    for (const nodeId of ready) {
      const next = latest.get(nodeId)!;
      const parameters = bindParameters(graph, nodeId, outputs);
      let pinned: string | undefined;
      try {
        pinned = pinnedWorker(parameters);
      } catch (err) {
        const cancel = await failRun(tx, run, latest, { code: 'E.WORKFLOW.RESOURCE_CONFLICT', message: (err as Error).message, nodeId });
        return { status: 'ok', readied, cancel, runStatus: 'failed' };
      }
      const now = hrNow();
      const mine =
        eager !== undefined && slots > 0 && (pinned === undefined || pinned === eager.workerId) && eager.packages.has(`${next.package_name}@${next.package_version}`);
      if (mine) {
        const row = await tx
          .updateTable('tasks')
          .set({
            status: 'dispatched',
            parameters,
            pinned_worker_id: pinned ?? null,
            ready_at: sql<Date>`now()`,
            worker_id: eager.workerId,
            dispatch_id: crypto.randomUUID(),
            dispatched_at: sql<Date>`now()`,
            ack_deadline: sql<Date>`now() + make_interval(secs => ${eager.ackTimeoutMs / 1000}::double precision)`,
            timings: { readyAt: now, dispatchedAt: now, eager: true },
          })
          .where('id', '=', next.id)
          .where('status', '=', 'pending')
          .returningAll()
          .executeTakeFirst();
        if (row) {
          claimed.push(row);
          slots--;
        }
      } else {
        await tx
          .updateTable('tasks')
          .set({ status: 'ready', parameters, pinned_worker_id: pinned ?? null, ready_at: sql<Date>`now()`, timings: { readyAt: now } })
          .where('id', '=', next.id)
          .where('status', '=', 'pending')
          .execute();
      }
      state.set(nodeId, 'ready');
      readied++;
    }
    const outcome = runOutcome(state);
    if (outcome === 'succeeded') {
      await tx.updateTable('runs').set({ status: 'succeeded', finished_at: new Date(), updated_at: new Date() }).where('id', '=', run.id).execute();
      await tx
        .insertInto('run_events')
        .values({ tenant: run.tenant, run_id: run.id, type: 'run.succeeded', payload: {} })
        .onConflict((oc) => oc.doNothing())
        .execute();
      return { status: 'ok', readied, claimed, cancel: [], runStatus: 'succeeded' };
    }
    return { status: 'ok', readied, claimed, cancel: [] };
  });
}

/** Fail the run, cancel its unfinished nodes, and list the in-flight attempts whose workers must be told. */
export async function failRun(
  tx: Transaction<Database>,
  run: { id: string; tenant: string },
  latest: Map<string, TaskState>,
  error: { code: string; message: string; nodeId: string; step?: string },
): Promise<CancelOrder[]> {
  await tx
    .updateTable('runs')
    .set({ status: 'failed', error, finished_at: new Date(), updated_at: new Date() })
    .where('id', '=', run.id)
    .execute();
  const open = [...latest.values()].filter((t) => ['pending', 'ready', 'dispatched', 'running'].includes(t.status));
  if (open.length > 0) {
    await tx
      .updateTable('tasks')
      .set({ status: 'cancelled', finished_at: new Date(), error: { code: 'E.RUN.CANCELLED', message: `run failed at node ${error.nodeId}` } })
      .where('id', 'in', open.map((t) => t.id))
      .execute();
  }
  await tx
    .insertInto('run_events')
    .values({ tenant: run.tenant, run_id: run.id, type: 'run.failed', payload: error })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return open
    .filter((t) => (t.status === 'dispatched' || t.status === 'running') && t.worker_id)
    .map((t) => ({ taskId: t.id, runId: t.run_id, attempt: t.attempt, workerId: t.worker_id! }));
}
