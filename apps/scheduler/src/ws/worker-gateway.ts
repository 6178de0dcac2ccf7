import type { FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import type { TokenStore } from '../auth/token-store.ts';
import { bearerToken } from '../auth/token-hash.ts';
import { errorBody } from '../http/error-handler.ts';
import { WorkerConnection, type ConnectionServices } from './worker-connection.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Tenant of the worker token checked before the upgrade. */
    workerTenant?: string;
  }
}

/**
 * `GET /ws/worker`: checks the worker token before the upgrade (401 and no socket without a valid one), then
 * hands the socket to a WorkerConnection. The ws hard cap is above the protocol limit so an oversized frame gets
 * an `error` reply; only a frame beyond the hard cap closes the socket (1009).
 */
export async function registerWorkerGateway(app: FastifyInstance, tokens: TokenStore, svc: ConnectionServices): Promise<void> {
  await app.register(websocket, {
    options: { maxPayload: svc.config.maxPayloadBytes * 4, perMessageDeflate: false },
  });
  app.register(async (scope) => {
    scope.addHook('preValidation', async (request, reply) => {
      const token = bearerToken(request.headers.authorization);
      if (!token) return reply.code(401).send(errorBody('E.AUTH.MISSING_TOKEN', 'worker token required: Authorization: Bearer <token>'));
      const identity = await tokens.verify('worker', token);
      if (!identity) return reply.code(401).send(errorBody('E.AUTH.INVALID_TOKEN', 'worker token is not valid'));
      request.workerTenant = identity.tenant;
    });
    scope.get('/ws/worker', { websocket: true }, (socket, request) => {
      new WorkerConnection(socket, request.workerTenant!, request.ip, svc);
    });
  });
}
