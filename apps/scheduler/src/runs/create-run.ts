import { validateWorkflow, WorkflowGraph, bindParameters } from '@drover/engine';
import { sql, type Database, type Kysely } from '@drover/store';
import { ApiError } from '../errors.ts';
import { hrNow } from '../hr-clock.ts';
import { canonicalHash } from './canonical-json.ts';
import type { RunGraphCache } from './run-graph-cache.ts';

/** What `POST /api/v1/runs` asks for. */
export interface CreateRunInput {
  tenant: string;
  workflow: unknown;
  inputs?: Record<string, unknown>;
  idempotencyKey?: string;
}

/** Outcome: the run id, and whether it was created now or replayed for a repeated Idempotency-Key. */
export interface CreateRunOutcome {
  runId: string;
  replayed: boolean;
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/**
 * Validate a workflow and store a run with its snapshot and one task per node (attempt 1): entry nodes `ready`,
 * the rest `pending`. Everything is written in one transaction; the caller wakes the dispatcher afterwards.
 */
export async function createRun(db: Kysely<Database>, graphs: RunGraphCache, input: CreateRunInput): Promise<CreateRunOutcome> {
  const validation = validateWorkflow(input.workflow);
  if (!validation.ok) {
    const problems = validation.problems.map((p) => ({ ...p, pointer: `/workflow${p.pointer}` }));
    throw new ApiError('E.WORKFLOW.INVALID', `workflow is invalid: ${problems.length} problem(s); see details.problems`, { problems });
  }
  const workflow = validation.workflow;
  const inputs = input.inputs ?? {};
  const requestHash = canonicalHash({ workflow, inputs });

  if (input.idempotencyKey !== undefined) {
    const existing = await findByIdempotencyKey(db, input.tenant, input.idempotencyKey, requestHash);
    if (existing) return { runId: existing, replayed: true };
  }

  const graph = new WorkflowGraph(workflow);
  const runId = crypto.randomUUID();
  const entry = new Set(graph.entryNodes());
  const now = hrNow();
  try {
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto('runs')
        .values({
          id: runId,
          tenant: input.tenant,
          workflow_id: workflow.id,
          workflow,
          inputs,
          status: 'queued',
          idempotency_key: input.idempotencyKey ?? null,
          request_hash: requestHash,
        })
        .execute();
      await tx
        .insertInto('tasks')
        .values(
          workflow.nodes.map((node) => {
            const ready = entry.has(node.id);
            return {
              id: crypto.randomUUID(),
              tenant: input.tenant,
              run_id: runId,
              node_id: node.id,
              node_type: node.type,
              package_name: node.package.name,
              package_version: node.package.version,
              attempt: 1,
              status: ready ? ('ready' as const) : ('pending' as const),
              parameters: (ready ? bindParameters(graph, node.id, new Map()) : (node.parameters ?? {})),
              ready_at: ready ? sql<Date>`now()` : null,
              timings: (ready ? { readyAt: now } : {}),
            };
          }),
        )
        .execute();
      await tx
        .insertInto('run_events')
        .values({ tenant: input.tenant, run_id: runId, type: 'run.created', payload: { nodes: workflow.nodes.length } })
        .execute();
    });
  } catch (err) {
    if (input.idempotencyKey !== undefined && isUniqueViolation(err)) {
      // A concurrent request with the same key won the race: answer with its run.
      const winner = await findByIdempotencyKey(db, input.tenant, input.idempotencyKey, requestHash);
      if (winner) return { runId: winner, replayed: true };
    }
    throw err;
  }
  graphs.put(runId, graph);
  return { runId, replayed: false };
}

async function findByIdempotencyKey(db: Kysely<Database>, tenant: string, key: string, requestHash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('runs')
    .select(['id', 'request_hash'])
    .where('tenant', '=', tenant)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.request_hash !== requestHash) {
    throw new ApiError('E.RUN.IDEMPOTENCY_CONFLICT', `Idempotency-Key ${JSON.stringify(key)} was used for a different request (run ${row.id})`, { runId: row.id });
  }
  return row.id;
}
