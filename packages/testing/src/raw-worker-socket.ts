import WebSocket from 'ws';
import { makeFrame, type Frame, type MessageType, type PayloadMap } from '@drover/protocol';

/** A hand-driven worker socket for protocol tests: send any bytes, read frames as they arrive. */
export class RawWorkerSocket {
  readonly frames: Frame[] = [];
  private waiters: Array<{ match: (f: Frame) => boolean; resolve: (f: Frame) => void }> = [];
  closed: { code: number; reason: string } | undefined;
  private closedWaiters: Array<() => void> = [];

  private constructor(
    readonly ws: WebSocket,
    readonly workerId: string,
    readonly tenant: string,
  ) {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      const i = this.waiters.findIndex((w) => w.match(frame));
      if (i >= 0) this.waiters.splice(i, 1)[0]!.resolve(frame);
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.closedWaiters.splice(0).forEach((w) => w());
    });
  }

  /** Open a socket with `token` (or none). Rejects with the HTTP status when the upgrade is refused. */
  static open(url: string, token: string | undefined, workerId = 'raw-worker', tenant = 'default', options: { autoPong?: boolean } = {}): Promise<RawWorkerSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, autoPong: options.autoPong ?? true });
      ws.once('open', () => resolve(new RawWorkerSocket(ws, workerId, tenant)));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { statusCode: res.statusCode, body })));
      });
      ws.once('error', reject);
    });
  }

  /** Build a frame from this worker. */
  frame<T extends MessageType>(type: T, payload: PayloadMap[T], opts: { requestAck?: boolean; ackFor?: string } = {}): Frame<T> {
    return makeFrame(type, payload, { tenant: this.tenant, sender: { role: 'worker', id: this.workerId }, ...opts });
  }

  /** Send a frame object or raw text/bytes. */
  send(data: Frame | string | Buffer): void {
    this.ws.send(typeof data === 'string' || Buffer.isBuffer(data) ? data : JSON.stringify(data));
  }

  /** The next frame (already received or arriving) that matches. */
  next(match: (f: Frame) => boolean = () => true, timeoutMs = 15_000): Promise<Frame> {
    const i = this.frames.findIndex(match);
    if (i >= 0) return Promise.resolve(this.frames.splice(i, 1)[0]!);
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve: (f: Frame) => {
          clearTimeout(timer);
          this.frames.splice(this.frames.indexOf(f), 1);
          resolve(f);
        },
      };
      const timer = setTimeout(() => {
        // A waiter that gave up must not take a later frame meant for someone else.
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.map((f) => f.type))}${this.closed ? `; socket closed ${this.closed.code}` : ''}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Handshake and register with the given packages; resolves once the register is ACKed. */
  async register(packages: PayloadMap['register']['packages'] = [], maxParallel = 1): Promise<void> {
    this.send(this.frame('handshake', { kind: 'hello', protocols: [1], worker_id: this.workerId, worker_version: 'test' }));
    await this.next((f) => f.type === 'handshake');
    const reg = this.frame(
      'register',
      { name: this.workerId, capacity: { max_parallel: maxParallel }, labels: {}, packages, runtime: { os: 'test', arch: 'x64', node: process.version }, inflight: [] },
      { requestAck: true },
    );
    this.send(reg);
    await this.next((f) => f.type === 'ack' && f.ack?.for === reg.id);
  }

  /** Resolves when the socket is closed. */
  whenClosed(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => this.closedWaiters.push(resolve));
  }

  /** Close it. */
  close(): void {
    this.ws.close();
  }
}
