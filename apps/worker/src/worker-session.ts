import WebSocket from 'ws';
import type { Logger } from 'pino';
import {
  AckTracker,
  FrameParser,
  PROTOCOL_VERSION,
  SeenFrames,
  makeFrame,
  type CommandErrorPayload,
  type DispatchPayload,
  type FeedbackPayload,
  type Frame,
  type MessageType,
  type PayloadMap,
  type RuntimeContext,
} from '@drover/protocol';
import type { AdapterRegistry } from './adapter-registry.ts';
import type { WorkerConfig } from './config.ts';
import type { Runner } from './runner.ts';

type State = 'connecting' | 'hello' | 'register' | 'ready' | 'stopped';

/** What the session needs from the rest of the worker. */
export interface WorkerSessionOptions {
  config: WorkerConfig;
  registry: AdapterRegistry;
  runner: Runner;
  runtime: RuntimeContext;
  log: Logger;
  /** Called after every acknowledged register (first connect and each reconnect). */
  onRegistered?: (sessionId: string) => void;
}

/**
 * The worker's side of the protocol: connect with the token, handshake, register (packages, capacity, runtime,
 * in-flight attempts), heartbeat, execute dispatches, send results until they are ACKed, and reconnect with
 * jittered exponential backoff whenever the socket drops. Results survive reconnects: they are resent, with
 * their original frame id, after the next register is acknowledged.
 */
export class WorkerSession {
  private socket: WebSocket | undefined;
  private state: State = 'connecting';
  private readonly parser = new FrameParser({ maxBytes: 16 * 1_048_576 });
  /** Register frames: attached as soon as the socket opens. */
  private readonly control = new AckTracker({ initialTimeoutMs: 1000 });
  /** Results, command errors, package events: attached once registered. */
  private readonly outbox: AckTracker;
  private readonly seen = new SeenFrames(4096);
  private heartbeat: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private draining = false;

  constructor(private readonly o: WorkerSessionOptions) {
    this.outbox = new AckTracker({ initialTimeoutMs: 1000, maxTimeoutMs: 10_000 });
  }

  /** Start connecting (and keep reconnecting until `stop`). */
  start(): void {
    this.connect();
  }

  /** Close the socket and stop reconnecting. */
  async stop(): Promise<void> {
    this.state = 'stopped';
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeat);
    this.control.close();
    this.outbox.close();
    const s = this.socket;
    if (s && s.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        s.once('close', () => resolve());
        s.close(1000, 'worker stopping');
        setTimeout(() => {
          s.terminate();
          resolve();
        }, 2000).unref();
      });
    }
  }

  /** Results and other frames sent but not yet acknowledged by the scheduler. */
  pendingFrames(): number {
    return this.outbox.unacknowledged().length;
  }

  /** Stop taking new work; finish what runs. */
  drain(): void {
    this.draining = true;
    this.sendHeartbeat();
  }

  private frame<T extends MessageType>(type: T, payload: PayloadMap[T], opts: { requestAck?: boolean; corr?: string; ackFor?: string } = {}): Frame<T> {
    return makeFrame(type, payload, { tenant: this.o.config.tenant, sender: { role: 'worker', id: this.o.config.workerId }, ...opts });
  }

  private write(frame: Frame): boolean {
    const s = this.socket;
    if (!s || s.readyState !== WebSocket.OPEN) return false;
    s.send(JSON.stringify(frame));
    return true;
  }

  private connect(): void {
    if (this.state === 'stopped') return;
    this.state = 'connecting';
    const { config, log } = this.o;
    const socket = new WebSocket(config.schedulerUrl, {
      headers: { authorization: `Bearer ${config.token}` },
      maxPayload: 64 * 1_048_576,
      perMessageDeflate: false,
      handshakeTimeout: 10_000,
    });
    this.socket = socket;
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8').slice(0, 2000)));
      res.on('end', () => log.error({ status: res.statusCode, body }, 'scheduler refused the connection'));
      socket.terminate();
    });
    socket.on('open', () => {
      this.state = 'hello';
      this.control.attach((f) => this.write(f));
      this.write(this.frame('handshake', { kind: 'hello', protocols: [PROTOCOL_VERSION], worker_id: config.workerId, worker_version: '0.1.0' }));
    });
    socket.on('message', (data) => this.onMessage(data as Buffer));
    socket.on('error', (err) => log.debug({ err: err.message }, 'socket error'));
    socket.on('close', (code, reason) => this.onClose(code, reason.toString()));
  }

  private onClose(code: number, reason: string): void {
    const wasReady = this.state === 'ready';
    this.control.detach();
    this.outbox.detach();
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (this.state === 'stopped') return;
    this.state = 'connecting';
    if (wasReady) this.failures = 0;
    this.failures++;
    const cap = Math.min(this.o.config.reconnectMaxMs, this.o.config.reconnectMinMs * 2 ** Math.min(this.failures - 1, 16));
    const delay = Math.round(this.o.config.reconnectMinMs / 2 + Math.random() * (cap - this.o.config.reconnectMinMs / 2));
    this.o.log.info({ code, reason, retryInMs: delay }, 'disconnected from scheduler');
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private onMessage(data: Buffer): void {
    const parsed = this.parser.parse(data);
    if (!parsed.ok) {
      this.o.log.warn({ code: parsed.error.code }, `invalid frame from scheduler: ${parsed.error.message}`);
      const p: PayloadMap['error'] = { code: parsed.error.code, message: parsed.error.message.slice(0, 4000) };
      if (parsed.error.details.for) p.for = parsed.error.details.for;
      this.write(this.frame('error', p));
      return;
    }
    const frame = parsed.frame;
    if (frame.type === 'ack') {
      const ack = frame as Frame<'ack'>;
      if (!this.control.handleAck(ack)) this.outbox.handleAck(ack);
      return;
    }
    if (frame.ack?.request) {
      if (this.seen.has(frame.id)) {
        this.write(this.frame('ack', { status: 'duplicate' }, { ackFor: frame.id }));
        return;
      }
      this.seen.add(frame.id);
      this.write(this.frame('ack', { status: 'ok' }, { ackFor: frame.id }));
    }
    switch (frame.type) {
      case 'handshake':
        return this.onWelcome(frame as Frame<'handshake'>);
      case 'cmd.dispatch':
        return this.onDispatch(frame as Frame<'cmd.dispatch'>);
      case 'cmd.cancel': {
        const p = (frame as Frame<'cmd.cancel'>).payload;
        this.o.runner.cancel(p.task_id, p.attempt, p.reason);
        return;
      }
      case 'cmd.drain':
        return this.drain();
      case 'error': {
        const p = (frame as Frame<'error'>).payload;
        this.o.log.error({ code: p.code, for: p.for, fatal: p.fatal }, `scheduler reported: ${p.message}`);
        return;
      }
      default:
        this.o.log.warn({ type: frame.type }, 'unexpected frame from scheduler');
    }
  }

  private onWelcome(frame: Frame<'handshake'>): void {
    const w = frame.payload;
    if (w.kind !== 'welcome' || this.state !== 'hello') return;
    this.state = 'register';
    const completed = this.outbox
      .unacknowledged()
      .filter((f): f is Frame<'result'> => f.type === 'result')
      .map((f) => ({ run_id: f.payload.run_id, task_id: f.payload.task_id, attempt: f.payload.attempt, dispatch_id: f.payload.dispatch_id, state: 'completed' as const }));
    const register = this.frame(
      'register',
      {
        name: this.o.config.name.slice(0, 128),
        capacity: { max_parallel: this.o.config.maxParallel },
        labels: { ...this.o.config.labels },
        packages: this.o.registry.packages(),
        runtime: this.o.runtime,
        inflight: [...this.o.runner.inflight(), ...completed],
      },
      { requestAck: true },
    );
    this.control.sendReliable(register).then(
      () => {
        if (this.state !== 'register') return;
        this.state = 'ready';
        this.failures = 0;
        this.outbox.attach((f) => this.write(f));
        this.heartbeat = setInterval(() => this.sendHeartbeat(), w.heartbeat_interval_ms);
        this.heartbeat.unref();
        this.o.log.info({ sessionId: w.session_id, packages: this.o.registry.packages().length }, 'registered with scheduler');
        this.o.onRegistered?.(w.session_id);
      },
      () => undefined,
    );
  }

  private sendHeartbeat(): void {
    if (this.state !== 'ready') return;
    const running = this.o.runner.size();
    this.write(this.frame('heartbeat', { state: this.draining ? 'draining' : running > 0 ? 'busy' : 'idle', running, rss_bytes: process.memoryUsage.rss() }));
  }

  private refuse(d: DispatchPayload, commandId: string, code: CommandErrorPayload['code'], message: string): void {
    this.outbox
      .sendReliable(
        this.frame(
          'command.error',
          { command_id: commandId, command_type: 'cmd.dispatch', run_id: d.run_id, task_id: d.task_id, attempt: d.attempt, dispatch_id: d.dispatch_id, code, message },
          { requestAck: true, corr: d.task_id },
        ),
      )
      .catch(() => undefined);
  }

  private onDispatch(frame: Frame<'cmd.dispatch'>): void {
    const d = frame.payload;
    if (this.o.runner.has(d.task_id)) return; // the same attempt re-dispatched while it runs: keep the running one
    if (this.draining) return this.refuse(d, frame.id, 'E.WORKER.DRAINING', 'worker is draining');
    if (this.o.runner.size() >= this.o.config.maxParallel) return this.refuse(d, frame.id, 'E.WORKER.BUSY', `worker runs ${this.o.runner.size()} of ${this.o.config.maxParallel}`);
    const entry = this.o.registry.resolve(d.node.package.name, d.node.package.version, d.node.type);
    if (!entry) return this.refuse(d, frame.id, 'E.RUNNER.NO_HANDLER', `no handler for ${d.node.type} in ${d.node.package.name}@${d.node.package.version}`);
    void this.o.runner.run(d, entry).then((result) => {
      this.outbox.sendReliable(this.frame('result', result, { requestAck: true, corr: d.task_id })).catch(() => undefined);
    });
  }

  /** Send a feedback frame if connected (best effort; not resent). */
  feedback(p: FeedbackPayload): void {
    if (this.state === 'ready') this.write(this.frame('feedback', p));
  }
}
