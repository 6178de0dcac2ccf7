import type { ApiSchemas } from '@drover/api';
import type { WorkflowDefinition } from '@drover/engine';
import { sql, type Database, type Kysely, type RunStatus, type Selectable } from '@drover/store';
import { ApiError } from '../errors.ts';

type RunRow = Selectable<Database['runs']>;
type TaskRow = Selectable<Database['tasks']>;

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

function runName(workflow: unknown): string | null {
  return (workflow as WorkflowDefinition | undefined)?.metadata?.name ?? null;
}

/** API view of one node: its latest attempt. */
export function nodeView(task: TaskRow, label: string | undefined): ApiSchemas['NodeState'] {
  const view: ApiSchemas['NodeState'] = {
    nodeId: task.node_id,
    type: task.node_type,
    package: { name: task.package_name, version: task.package_version },
    status: task.status as ApiSchemas['NodeStatus'],
    attempt: task.attempt,
    taskId: task.id,
    workerId: task.worker_id,
    dispatchId: task.dispatch_id,
    pendingAck: task.status === 'dispatched',
    ackDeadline: task.status === 'dispatched' ? iso(task.ack_deadline) : null,
    startedAt: iso(task.started_at),
    finishedAt: iso(task.finished_at),
    results: (task.results as Record<string, unknown> | null) ?? null,
    error: (task.error as ApiSchemas['NodeError'] | null) ?? null,
  };
  if (label !== undefined) view.label = label;
  return view;
}

/** API view of a run with every node's latest attempt, in definition order. */
export function runView(run: RunRow, tasks: TaskRow[]): ApiSchemas['Run'] {
  const workflow = run.workflow as unknown as WorkflowDefinition;
  const latest = new Map<string, TaskRow>();
  for (const t of tasks) {
    const prev = latest.get(t.node_id);
    if (!prev || t.attempt > prev.attempt) latest.set(t.node_id, t);
  }
  const nodes = workflow.nodes.flatMap((n) => {
    const t = latest.get(n.id);
    return t ? [nodeView(t, n.label)] : [];
  });
  return {
    id: run.id,
    tenant: run.tenant,
    workflowId: run.workflow_id,
    name: runName(workflow),
    status: run.status as ApiSchemas['RunStatus'],
    inputs: run.inputs as Record<string, unknown>,
    createdAt: iso(run.created_at)!,
    startedAt: iso(run.started_at),
    finishedAt: iso(run.finished_at),
    error: (run.error as ApiSchemas['RunError'] | null) ?? null,
    nodes,
  };
}

/** Load a run of `tenant` with its tasks; E.RUN.NOT_FOUND when there is none. */
export async function getRun(db: Kysely<Database>, tenant: string, id: string): Promise<ApiSchemas['Run']> {
  const run = await db.selectFrom('runs').selectAll().where('id', '=', id).where('tenant', '=', tenant).executeTakeFirst();
  if (!run) throw new ApiError('E.RUN.NOT_FOUND', `no run ${id}`);
  const tasks = await db.selectFrom('tasks').selectAll().where('run_id', '=', id).execute();
  return runView(run, tasks);
}

/** Newest runs of `tenant`, optionally of one status. */
export async function listRuns(
  db: Kysely<Database>,
  tenant: string,
  query: { status?: string; limit: number },
): Promise<ApiSchemas['RunList']> {
  let q = db
    .selectFrom('runs')
    .select(['id', 'tenant', 'workflow_id', 'status', 'created_at', 'started_at', 'finished_at'])
    .select(sql<string | null>`workflow->'metadata'->>'name'`.as('name'))
    .where('tenant', '=', tenant)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(query.limit);
  if (query.status) q = q.where('status', '=', query.status as RunStatus);
  const rows = await q.execute();
  return {
    runs: rows.map((r) => ({
      id: r.id,
      tenant: r.tenant,
      workflowId: r.workflow_id,
      name: r.name ?? null,
      status: r.status as ApiSchemas['RunStatus'],
      createdAt: iso(r.created_at)!,
      startedAt: iso(r.started_at),
      finishedAt: iso(r.finished_at),
    })),
  };
}
