import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawWorkerSocket, createTestStore, testDialects } from '@drover/testing';
import { TokenStore } from '../src/auth/token-store.ts';
import { startScheduler, WORKER_TOKEN, type TestScheduler } from './scheduler-harness.ts';

describe.each(testDialects())('worker protocol on %s', (dialect) => {
  let store: Awaited<ReturnType<typeof createTestStore>>;
  let s: TestScheduler;
  beforeAll(async () => {
    store = await createTestStore(dialect);
    s = await startScheduler(store, { maxPayloadBytes: 4096, maxInvalidFrames: 5 });
  });
  afterAll(async () => {
    await s?.close();
    await store?.dispose();
  });

  it('refuses the upgrade without a token or with a bad one (401, no socket)', async () => {
    await expect(RawWorkerSocket.open(s.wsUrl, undefined)).rejects.toMatchObject({ statusCode: 401, body: expect.stringContaining('E.AUTH.MISSING_TOKEN') });
    await expect(RawWorkerSocket.open(s.wsUrl, 'wrong-token')).rejects.toMatchObject({ statusCode: 401, body: expect.stringContaining('E.AUTH.INVALID_TOKEN') });
  });

  it('answers every kind of bad frame with its error while a good worker keeps being served', async () => {
    const good = await RawWorkerSocket.open(s.wsUrl, WORKER_TOKEN, 'good-worker');
    await good.register([{ name: 'drover.test', version: '0.1.0', nodes: ['test.noop'] }]);

    const bad = await RawWorkerSocket.open(s.wsUrl, WORKER_TOKEN, 'bad-worker');
    const expectError = async (data: Parameters<RawWorkerSocket['send']>[0], code: string) => {
      bad.send(data);
      const f = await bad.next((x) => x.type === 'error');
      expect(f.payload).toMatchObject({ code });
      return f;
    };
    // register before handshake
    await expectError(bad.frame('register', { name: 'x', capacity: { max_parallel: 1 }, labels: {}, packages: [], runtime: { os: 'x', arch: 'x', node: 'x' }, inflight: [] }), 'E.WS.UNEXPECTED_MESSAGE');
    await expectError('{"type": "heartbeat", ', 'E.WS.BAD_JSON');
    await expectError(JSON.stringify({ ...bad.frame('heartbeat', { state: 'idle', running: 0 }), type: 'teleport' }), 'E.WS.UNKNOWN_TYPE');
    const violation = await expectError({ ...bad.frame('heartbeat', { state: 'idle', running: 0 }), payload: { state: 'asleep', running: 0 } } as never, 'E.WS.PAYLOAD_INVALID');
    expect(violation.payload).toMatchObject({ pointer: '/payload/state' });
    await expectError(bad.frame('heartbeat', { state: 'idle', running: 0, pad: 'x'.repeat(5000) } as never), 'E.WS.FRAME_TOO_LARGE');
    expect(bad.closed).toBeUndefined();

    // the same socket can still do a proper handshake and register
    await bad.register([]);

    // the good worker is online and answers heartbeats normally
    const workers = await s.client.listWorkers();
    expect(workers.workers.find((w) => w.id === 'good-worker')).toMatchObject({ status: 'online', connected: true });
    good.send(good.frame('heartbeat', { state: 'idle', running: 0 }));
    const errorsForGood = good.frames.filter((f) => f.type === 'error');
    expect(errorsForGood).toEqual([]);
    good.close();
    bad.close();
  });

  it('closes a socket that keeps sending invalid frames, and only that one', async () => {
    const good = await RawWorkerSocket.open(s.wsUrl, WORKER_TOKEN, 'patient-worker');
    await good.register([]);
    const abuser = await RawWorkerSocket.open(s.wsUrl, WORKER_TOKEN, 'abusive-worker');
    for (let i = 0; i < 10; i++) abuser.send('nonsense');
    await abuser.whenClosed();
    expect(abuser.closed?.code).toBe(1008);
    expect(abuser.frames.some((f) => f.type === 'error' && (f.payload as { code: string; fatal?: boolean }).code === 'E.WS.TOO_MANY_ERRORS')).toBe(true);
    expect(good.closed).toBeUndefined();
    const ready = await fetch(`${s.baseUrl}/ready`);
    expect(ready.status).toBe(200);
    good.close();
  });

  it('closes with 1009 a frame beyond the hard cap', async () => {
    const huge = await RawWorkerSocket.open(s.wsUrl, WORKER_TOKEN, 'huge-worker');
    huge.send('x'.repeat(4096 * 4 + 10));
    await huge.whenClosed();
    expect(huge.closed?.code).toBe(1009);
  });

  it('rejects frames for another tenant and from a different sender id', async () => {
    const w = await RawWorkerSocket.open(s.wsUrl, WORKER_TOKEN, 'tenant-worker');
    await w.register([]);
    w.send({ ...w.frame('heartbeat', { state: 'idle', running: 0 }), tenant: 'other' });
    expect((await w.next((f) => f.type === 'error')).payload).toMatchObject({ code: 'E.WS.TENANT_MISMATCH' });
    w.send({ ...w.frame('heartbeat', { state: 'idle', running: 0 }), sender: { role: 'worker', id: 'someone-else' } });
    expect((await w.next((f) => f.type === 'error')).payload).toMatchObject({ code: 'E.WS.UNEXPECTED_MESSAGE' });
    w.close();
  });

  it('keeps tenants apart: a worker id of one tenant cannot be taken by a worker of another', async () => {
    await new TokenStore(store.db).ensure('worker', ['token-of-acme'], 'acme');
    const home = await RawWorkerSocket.open(s.wsUrl, WORKER_TOKEN, 'shared-name');
    await home.register([]);
    const intruder = await RawWorkerSocket.open(s.wsUrl, 'token-of-acme', 'shared-name', 'acme');
    intruder.send(intruder.frame('handshake', { kind: 'hello', protocols: [1], worker_id: 'shared-name', worker_version: 'test' }));
    await intruder.next((f) => f.type === 'handshake');
    intruder.send(intruder.frame('register', { name: 'x', capacity: { max_parallel: 1 }, labels: {}, packages: [], runtime: { os: 'x', arch: 'x', node: 'x' }, inflight: [] }, { requestAck: true }));
    expect((await intruder.next((f) => f.type === 'error')).payload).toMatchObject({ code: 'E.WS.TENANT_MISMATCH', fatal: true });
    await intruder.whenClosed();
    // The default tenant's worker keeps its row and its socket.
    expect(home.closed).toBeUndefined();
    const row = await store.db.selectFrom('workers').select(['tenant', 'status']).where('id', '=', 'shared-name').executeTakeFirstOrThrow();
    expect(row).toEqual({ tenant: 'default', status: 'online' });
    // A token of one tenant cannot speak for another.
    const liar = await RawWorkerSocket.open(s.wsUrl, 'token-of-acme', 'liar', 'default');
    liar.send(liar.frame('handshake', { kind: 'hello', protocols: [1], worker_id: 'liar', worker_version: 'test' }));
    expect((await liar.next((f) => f.type === 'error')).payload).toMatchObject({ code: 'E.WS.TENANT_MISMATCH' });
    home.close();
    liar.close();
  });

  it('ends a socket that stops answering pings, and marks its worker offline', async () => {
    const quick = await startScheduler(store, { heartbeatIntervalMs: 200 });
    try {
      const mute = await RawWorkerSocket.open(quick.wsUrl, WORKER_TOKEN, 'mute-worker', 'default', { autoPong: false });
      await mute.register([]);
      await mute.whenClosed();
      expect(mute.closed?.code).toBe(1006); // terminated, no close handshake
      await expect.poll(async () => (await quick.client.listWorkers()).workers.find((w) => w.id === 'mute-worker')?.status, { timeout: 10_000 }).toBe('offline');
    } finally {
      await quick.close();
    }
  });
});
