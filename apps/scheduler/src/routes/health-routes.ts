import type { FastifyInstance } from 'fastify';
import { sql, type Database, type Kysely } from '@drover/store';
import { errorBody } from '../http/error-handler.ts';

/** `GET /health` (process up) and `GET /ready` (database answers). */
export function healthRoutes(deps: { db: Kysely<Database>; dialect: 'postgres' | 'pglite' }) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/health', async () => ({ status: 'ok' as const }));
    app.get('/ready', async (_request, reply) => {
      try {
        await sql`select 1`.execute(deps.db);
        return { status: 'ready' as const, database: deps.dialect };
      } catch {
        return reply.code(503).send(errorBody('E.API.UNAVAILABLE', 'database does not answer'));
      }
    });
  };
}
