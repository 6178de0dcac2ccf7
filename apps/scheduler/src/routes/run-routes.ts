import type { FastifyInstance } from 'fastify';
import type { Database, Kysely } from '@drover/store';
import { ApiError } from '../errors.ts';
import { createRun } from '../runs/create-run.ts';
import { getRun, listRuns } from '../runs/run-view.ts';
import type { RunGraphCache } from '../runs/run-graph-cache.ts';
import type { Dispatcher } from '../dispatch/dispatcher.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATUSES = new Set(['queued', 'running', 'succeeded', 'failed', 'cancelled']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `POST /api/v1/runs`, `GET /api/v1/runs`, `GET /api/v1/runs/{id}`. */
export function runRoutes(deps: { db: Kysely<Database>; graphs: RunGraphCache; dispatcher: Dispatcher; tenant: string }) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post('/api/v1/runs', async (request, reply) => {
      const body = request.body;
      if (!isObject(body)) throw new ApiError('E.API.BAD_REQUEST', 'body must be a JSON object {workflow, inputs?}');
      const extra = Object.keys(body).filter((k) => k !== 'workflow' && k !== 'inputs');
      if (extra.length > 0) throw new ApiError('E.API.BAD_REQUEST', `unknown field(s) in body: ${extra.join(', ')}`);
      if (body.workflow === undefined) {
        throw new ApiError('E.WORKFLOW.INVALID', 'workflow is required', { problems: [{ code: 'E.WORKFLOW.SCHEMA', pointer: '/workflow', message: 'is required' }] });
      }
      if (body.inputs !== undefined && !isObject(body.inputs)) throw new ApiError('E.API.BAD_REQUEST', 'inputs must be an object');
      const key = request.headers['idempotency-key'];
      if (key !== undefined && (typeof key !== 'string' || key.length === 0 || key.length > 200)) {
        throw new ApiError('E.API.BAD_REQUEST', 'Idempotency-Key must be 1–200 characters');
      }
      const outcome = await createRun(deps.db, deps.graphs, {
        tenant: deps.tenant,
        workflow: body.workflow,
        ...(body.inputs !== undefined ? { inputs: body.inputs as Record<string, unknown> } : {}),
        ...(typeof key === 'string' ? { idempotencyKey: key } : {}),
      });
      if (!outcome.replayed) deps.dispatcher.wake();
      const run = await getRun(deps.db, deps.tenant, outcome.runId);
      return reply.code(outcome.replayed ? 200 : 201).header('location', `/api/v1/runs/${run.id}`).send(run);
    });

    app.get('/api/v1/runs', async (request) => {
      const q = request.query as Record<string, string | undefined>;
      const limit = q.limit === undefined ? 50 : Number(q.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new ApiError('E.API.BAD_REQUEST', 'limit must be an integer from 1 to 500');
      if (q.status !== undefined && !STATUSES.has(q.status)) throw new ApiError('E.API.BAD_REQUEST', `status must be one of ${[...STATUSES].join(', ')}`);
      return listRuns(deps.db, deps.tenant, { limit, ...(q.status ? { status: q.status } : {}) });
    });

    app.get('/api/v1/runs/:id', async (request) => {
      const { id } = request.params as { id: string };
      if (!UUID.test(id)) throw new ApiError('E.API.BAD_REQUEST', `run id ${JSON.stringify(id.slice(0, 64))} is not a UUID`);
      return getRun(deps.db, deps.tenant, id.toLowerCase());
    });
  };
}
