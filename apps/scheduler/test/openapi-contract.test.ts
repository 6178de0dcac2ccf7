import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';
import { parse } from 'yaml';
import type { FastifyInstance } from 'fastify';
import { RawWorkerSocket, createTestStore, repoRoot } from '@drover/testing';
import { buildApp } from '../src/app.ts';
import { schedulerConfig } from '../src/config.ts';

const addFormats = createRequire(import.meta.url)('ajv-formats') as FormatsPlugin;
const spec = parse(readFileSync(join(repoRoot, 'docs/api/v1/openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; content?: { 'application/json': { schema: { $ref: string } } } }> }>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, { content: { 'application/json': { schema: { $ref: string } } } }> };
};

/** Validators for every component schema, refs resolved inside one document. */
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'openapi', components: spec.components });

/** The schema the spec declares for `method path` answering `status`. */
function responseValidator(method: string, path: string, status: number) {
  const op = spec.paths[path]?.[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${path} is not in openapi.yaml`);
  let res = op.responses[String(status)];
  if (!res) throw new Error(`${method.toUpperCase()} ${path} does not declare a ${status} response`);
  if (res.$ref) res = spec.components.responses[res.$ref.split('/').pop()!]!;
  const ref = res.content!['application/json'].schema.$ref;
  return ajv.getSchema(`openapi${ref}`)!;
}

describe('the API answers as docs/api/v1/openapi.yaml says', () => {
  let store: Awaited<ReturnType<typeof createTestStore>>;
  let app: FastifyInstance;
  beforeAll(async () => {
    store = await createTestStore('pglite');
    app = await buildApp(schedulerConfig({ port: 0, workerTokens: ['t'] }), { store, logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  const check = async (method: 'get' | 'post', path: string, url: string, status: number, payload?: unknown) => {
    const res = await app.inject({ method: method.toUpperCase() as 'GET', url, ...(payload !== undefined ? { payload: payload as object } : {}) });
    expect(res.statusCode, res.body).toBe(status);
    const validate = responseValidator(method, path, status);
    const ok = validate(res.json());
    expect(ok ? [] : validate.errors).toEqual([]);
    return res.json();
  };

  it('for runs, workers, health and errors', async () => {
    const id = crypto.randomUUID();
    const node = { id, type: 'test.echo', package: { name: 'drover.test', version: '0.1.0' }, label: 'echo', parameters: { value: 1 }, ui: { outputPorts: [{ key: 'value', binding: { path: 'results.value' } }] } };
    const run = await check('post', '/api/v1/runs', '/api/v1/runs', 201, { workflow: { id: crypto.randomUUID(), metadata: { name: 'contract' }, nodes: [node], edges: [] } });
    await check('get', '/api/v1/runs/{id}', `/api/v1/runs/${run.id}`, 200);
    // The validator has teeth: a run without nodes or with an unknown field is refused.
    const { nodes: _nodes, ...withoutNodes } = run;
    expect(responseValidator('get', '/api/v1/runs/{id}', 200)(withoutNodes)).toBe(false);
    expect(responseValidator('get', '/api/v1/runs/{id}', 200)({ ...run, surprise: 1 })).toBe(false);
    await check('get', '/api/v1/runs', '/api/v1/runs', 200);
    await check('post', '/api/v1/runs', '/api/v1/runs', 400, { workflow: { id: 'x', nodes: [], edges: [] } });
    await check('get', '/api/v1/runs/{id}', `/api/v1/runs/${crypto.randomUUID()}`, 404);
    await check('get', '/api/v1/runs/{id}', '/api/v1/runs/nope', 400);
    await check('get', '/health', '/health', 200);
    await check('get', '/ready', '/ready', 200);
    // A registered worker, as the list shows it.
    const address = app.server.address() as { port: number };
    const w = await RawWorkerSocket.open(`ws://127.0.0.1:${address.port}/ws/worker`, 't', 'contract-worker');
    await w.register([{ name: 'drover.test', version: '0.1.0', nodes: ['test.echo'] }]);
    const list = await check('get', '/api/v1/workers', '/api/v1/workers', 200);
    expect(list.workers[0]).toMatchObject({ id: 'contract-worker', connected: true });
    w.close();
  });
});
