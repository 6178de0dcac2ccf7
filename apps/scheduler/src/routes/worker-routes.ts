import type { FastifyInstance } from 'fastify';
import type { Database, Kysely } from '@drover/store';
import { listWorkers } from '../workers/worker-store.ts';
import type { ConnectionRegistry } from '../ws/connection-registry.ts';

/** `GET /api/v1/workers`. */
export function workerRoutes(deps: { db: Kysely<Database>; connections: ConnectionRegistry; tenant: string }) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/api/v1/workers', async () => listWorkers(deps.db, deps.tenant, deps.connections.ids(deps.tenant)));
  };
}
