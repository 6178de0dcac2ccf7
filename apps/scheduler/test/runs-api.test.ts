import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, testDialects } from '@drover/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { schedulerConfig } from '../src/config.ts';

const uid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const node = (n: number) => ({
  id: uid(n),
  type: 'test.echo',
  package: { name: 'drover.test', version: '0.1.0' },
  parameters: { value: n },
  ui: { inputPorts: [{ key: 'in', binding: { path: 'parameters.value' } }], outputPorts: [{ key: 'out', binding: { path: 'results.value' } }] },
});
const edge = (id: number, a: number, b: number, ports: [string, string] = ['out', 'in']) => ({
  id: uid(id),
  source: { node: uid(a), port: ports[0] },
  target: { node: uid(b), port: ports[1] },
});
const chain = () => ({ id: uid(900), nodes: [node(1), node(2)], edges: [edge(100, 1, 2)] });

describe.each(testDialects())('runs API on %s', (dialect) => {
  let store: Awaited<ReturnType<typeof createTestStore>>;
  let app: FastifyInstance;
  beforeAll(async () => {
    store = await createTestStore(dialect);
    app = await buildApp(schedulerConfig({ port: 0 }), { store, logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/api/v1/runs', payload: payload as object, headers });

  it('creates a run: 201, snapshot stored, entry node ready, the rest pending', async () => {
    const res = await post({ workflow: chain(), inputs: { who: 'ada' } });
    expect(res.statusCode).toBe(201);
    const run = res.json();
    expect(run).toMatchObject({ status: 'queued', workflowId: uid(900), inputs: { who: 'ada' }, tenant: 'default' });
    expect(res.headers.location).toBe(`/api/v1/runs/${run.id}`);
    expect(run.nodes.map((n: { nodeId: string; status: string; attempt: number }) => [n.nodeId, n.status, n.attempt])).toEqual([
      [uid(1), 'ready', 1],
      [uid(2), 'pending', 1],
    ]);
    const got = await app.inject({ method: 'GET', url: `/api/v1/runs/${run.id}` });
    expect(got.json()).toEqual(run);
    const listed = await app.inject({ method: 'GET', url: '/api/v1/runs?status=queued' });
    expect(listed.json().runs.map((r: { id: string }) => r.id)).toContain(run.id);
    const row = await store.db.selectFrom('runs').select('workflow').where('id', '=', run.id).executeTakeFirstOrThrow();
    expect(row.workflow).toEqual(chain());
  });

  it.each([
    ['duplicate node ids', { ...chain(), nodes: [node(1), node(2), node(2)] }, [['E.WORKFLOW.DUPLICATE_ID', '/workflow/nodes/2/id']]],
    ['dangling edge', { ...chain(), edges: [edge(100, 1, 7)] }, [['E.WORKFLOW.DANGLING_EDGE', '/workflow/edges/0/target/node']]],
    ['cycle', { ...chain(), edges: [edge(100, 1, 2), edge(101, 2, 1)] }, [['E.WORKFLOW.CYCLE', '/workflow/edges/0']]],
    ['unknown port', { ...chain(), edges: [edge(100, 1, 2, ['out', 'nope'])] }, [['E.WORKFLOW.UNKNOWN_PORT', '/workflow/edges/0/target/port']]],
    ['non-UUID id', { ...chain(), nodes: [node(1), { ...node(2), id: 'node-2' }] }, [['E.WORKFLOW.SCHEMA', '/workflow/nodes/1/id'], ['E.WORKFLOW.DANGLING_EDGE', '/workflow/edges/0/target/node']]],
  ])('answers 400 for %s, naming each problem', async (_name, workflow, expected) => {
    const res = await post({ workflow });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ statusCode: 400, code: 'E.WORKFLOW.INVALID', error: 'Bad Request' });
    expect(body.details.problems.map((p: { code: string; pointer: string }) => [p.code, p.pointer])).toEqual(expected);
    for (const p of body.details.problems) expect(p.message.length).toBeGreaterThan(3);
  });

  it('reports several problems of one workflow together', async () => {
    const wf = { ...chain(), nodes: [node(1), node(2), node(2), { ...node(3), id: 'x' }], edges: [edge(100, 1, 2), edge(101, 1, 9), edge(102, 2, 1)] };
    const body = (await post({ workflow: wf })).json();
    expect(body.details.problems.map((p: { code: string }) => p.code)).toEqual([
      'E.WORKFLOW.DUPLICATE_ID',
      'E.WORKFLOW.SCHEMA',
      'E.WORKFLOW.DANGLING_EDGE',
      'E.WORKFLOW.CYCLE',
    ]);
  });

  it('stores nothing for a refused workflow', async () => {
    const before = await store.db.selectFrom('runs').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    await post({ workflow: { ...chain(), edges: [edge(100, 1, 7)] } });
    const after = await store.db.selectFrom('runs').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('answers malformed requests with stable codes', async () => {
    const bad = await app.inject({ method: 'POST', url: '/api/v1/runs', payload: '{"workflow":', headers: { 'content-type': 'application/json' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('E.API.BAD_REQUEST');
    expect((await post([1, 2])).json().code).toBe('E.API.BAD_REQUEST');
    expect((await post({ workflow: chain(), extra: 1 })).json().code).toBe('E.API.BAD_REQUEST');
    expect((await post({})).json()).toMatchObject({ code: 'E.WORKFLOW.INVALID', details: { problems: [{ pointer: '/workflow' }] } });
    const missing = await app.inject({ method: 'GET', url: `/api/v1/runs/${uid(12345)}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'E.RUN.NOT_FOUND', statusCode: 404, error: 'Not Found' });
    expect((await app.inject({ method: 'GET', url: '/api/v1/runs/not-a-uuid' })).json().code).toBe('E.API.BAD_REQUEST');
    expect((await app.inject({ method: 'GET', url: '/api/v1/runs?limit=0' })).json().code).toBe('E.API.BAD_REQUEST');
    expect((await app.inject({ method: 'GET', url: '/api/v1/nothing' })).json()).toMatchObject({ statusCode: 404, code: 'E.API.NOT_FOUND' });
  });

  it('replays a run for a repeated Idempotency-Key and refuses the key for another body', async () => {
    const first = await post({ workflow: chain() }, { 'idempotency-key': 'key-1' });
    const second = await post({ workflow: chain() }, { 'idempotency-key': 'key-1' });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json().id).toBe(first.json().id);
    const other = await post({ workflow: chain(), inputs: { x: 1 } }, { 'idempotency-key': 'key-1' });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('E.RUN.IDEMPOTENCY_CONFLICT');
  });

  it('serves /health and /ready', async () => {
    expect((await app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/ready' })).json()).toEqual({ status: 'ready', database: dialect });
  });
});

describe('operator tokens', () => {
  it('guards /api/v1 when configured, and leaves /health open', async () => {
    const store = await createTestStore('pglite');
    const app = await buildApp(schedulerConfig({ apiTokens: ['op-secret'] }), { store, logger: false });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/v1/runs' })).json()).toMatchObject({ statusCode: 401, code: 'E.AUTH.MISSING_TOKEN' });
      expect((await app.inject({ method: 'GET', url: '/api/v1/runs', headers: { authorization: 'Bearer nope' } })).json().code).toBe('E.AUTH.INVALID_TOKEN');
      expect((await app.inject({ method: 'GET', url: '/api/v1/runs', headers: { authorization: 'Bearer op-secret' } })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await store.dispose();
    }
  });
});
