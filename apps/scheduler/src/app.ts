import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { FrameParser } from '@drover/protocol';
import { openStore, type Store } from '@drover/store';
import type { SchedulerConfig } from './config.ts';
import { TokenStore } from './auth/token-store.ts';
import { Dispatcher } from './dispatch/dispatcher.ts';
import { requeueTasksOfLostWorkers } from './dispatch/requeue-tasks.ts';
import { failStrandedTasks } from './dispatch/fail-stranded-tasks.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { operatorAuth } from './http/operator-auth.ts';
import { healthRoutes } from './routes/health-routes.ts';
import { runRoutes } from './routes/run-routes.ts';
import { workerRoutes } from './routes/worker-routes.ts';
import { RunGraphCache } from './runs/run-graph-cache.ts';
import { markAllWorkersOffline } from './workers/worker-store.ts';
import { ConnectionRegistry } from './ws/connection-registry.ts';
import { registerWorkerGateway } from './ws/worker-gateway.ts';

/** The scheduler's moving parts, reachable from tests and the CLI as `app.drover`. */
export interface SchedulerServices {
  store: Store;
  dispatcher: Dispatcher;
  connections: ConnectionRegistry;
  config: SchedulerConfig;
}

declare module 'fastify' {
  interface FastifyInstance {
    drover: SchedulerServices;
  }
}

/** Extra dependencies, mainly for tests: an already-open store (not closed with the app). */
export interface BuildOptions {
  store?: Store;
  /** pino options or `false` for silence. */
  logger?: boolean | Record<string, unknown>;
}

/**
 * Build the scheduler as a Fastify app, without listening: opens (or takes) the store, loads configured tokens,
 * marks workers of a previous process offline, and wires REST, WebSocket, dispatcher and the lost-worker sweeper.
 */
export async function buildApp(config: SchedulerConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const ownStore = options.store === undefined;
  const store =
    options.store ??
    (await openStore(config.databaseUrl ? { url: config.databaseUrl, ...(config.databaseSchema ? { searchPath: config.databaseSchema } : {}) } : { dataDir: config.dataDir }));
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.token', 'token'], censor: '[redacted]' },
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: 30_000,
    connectionTimeout: 30_000,
    return503OnClosing: true,
  });
  const log = app.log as unknown as Logger;
  installErrorHandler(app);

  const db = store.db;
  const tokens = new TokenStore(db);
  await tokens.ensure('worker', config.workerTokens, config.tenant);
  await markAllWorkersOffline(db);

  const connections = new ConnectionRegistry();
  const graphs = new RunGraphCache();
  const dispatcher = new Dispatcher(db, connections, { ackTimeoutMs: config.ackTimeoutMs * 5, log });
  app.decorate('drover', { store, dispatcher, connections, config });

  await registerWorkerGateway(app, tokens, {
    db,
    config,
    parser: new FrameParser({ maxBytes: config.maxPayloadBytes }),
    connections,
    dispatcher,
    graphs,
    log,
    schedulerId: `scheduler-${process.pid}`,
    dispatchAckTimeoutMs: config.ackTimeoutMs * 5,
  });
  await app.register(healthRoutes({ db, dialect: store.dialect }));
  await app.register(async (api) => {
    const auth = operatorAuth(config.apiTokens);
    if (auth) api.addHook('preHandler', auth);
    await api.register(runRoutes({ db, graphs, dispatcher, tenant: config.tenant }));
    await api.register(workerRoutes({ db, connections, tenant: config.tenant }));
  });

  const sweepEvery = Math.max(250, Math.min(5000, Math.floor(config.workerGraceMs / 3) || 250));
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    (async () => {
      const ids = await requeueTasksOfLostWorkers(db, config.workerGraceMs);
      if (ids.length > 0) log.warn({ requeued: ids.length }, 'requeued tasks of lost workers');
      const stranded = await failStrandedTasks(db, config.workerGraceMs);
      if (stranded.failed > 0) log.warn({ failed: stranded.failed }, 'failed nodes whose resources were on a lost worker');
      for (const order of stranded.cancel) connections.get(config.tenant, order.workerId)?.cancel(order, 'run failed');
      if (ids.length > 0 || stranded.failed > 0) dispatcher.wake();
    })()
      .catch((err) => log.error({ err }, 'lost-worker sweep failed'))
      .finally(() => (sweeping = false));
  }, sweepEvery);
  sweeper.unref();

  app.addHook('onReady', async () => dispatcher.wake());
  app.addHook('preClose', async () => {
    clearInterval(sweeper);
    await dispatcher.close();
    for (const conn of connections.all()) conn.close(1001, 'scheduler shutting down');
  });
  app.addHook('onClose', async () => {
    if (ownStore) await store.close();
  });
  return app;
}
