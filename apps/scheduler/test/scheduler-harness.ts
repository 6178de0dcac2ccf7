import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { DroverClient } from '@drover/api';
import type { Store } from '@drover/store';
import { buildApp } from '../src/app.ts';
import { schedulerConfig, type SchedulerConfig } from '../src/config.ts';

/** A scheduler listening on 127.0.0.1 for a test. */
export interface TestScheduler {
  app: FastifyInstance;
  baseUrl: string;
  wsUrl: string;
  client: DroverClient;
  close(): Promise<void>;
}

/** The worker token every test scheduler accepts. */
export const WORKER_TOKEN = 'test-worker-token';

/** Build and start a scheduler on `store` (which the test owns and closes). */
export async function startScheduler(store: Store, overrides: Partial<SchedulerConfig> = {}): Promise<TestScheduler> {
  const config = schedulerConfig({ port: 0, workerTokens: [WORKER_TOKEN], heartbeatIntervalMs: 2000, ackTimeoutMs: 1000, ...overrides });
  const app = await buildApp(config, {
    store,
    logger: process.env.DROVER_TEST_LOG_LEVEL ? { level: process.env.DROVER_TEST_LOG_LEVEL } : false,
  });
  await app.listen({ host: '127.0.0.1', port: config.port });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    app,
    baseUrl,
    wsUrl: `ws://127.0.0.1:${port}/ws/worker`,
    client: new DroverClient({ baseUrl }),
    close: () => app.close(),
  };
}
