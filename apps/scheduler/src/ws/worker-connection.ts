import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import {
  AckTracker,
  FrameParser,
  PROTOCOL_VERSION,
  ProtocolError,
  SeenFrames,
  makeFrame,
  type Frame,
  type MessageType,
  type PayloadMap,
  type RegisterPayload,
} from '@drover/protocol';
import type { Database, Kysely } from '@drover/store';
import type { SchedulerConfig } from '../config.ts';
import type { ClaimedTask } from '../dispatch/claim-tasks.ts';
import type { Dispatcher } from '../dispatch/dispatcher.ts';
import { hrNow } from '../hr-clock.ts';
import { recordResult, type CancelOrder } from '../runs/record-result.ts';
import type { RunGraphCache } from '../runs/run-graph-cache.ts';
import { markWorkerOffline, registerWorker, touchWorker } from '../workers/worker-store.ts';
import type { ConnectionRegistry } from './connection-registry.ts';
import { reconcileWorker } from './reconcile-worker.ts';
import { markDispatchAcked, rejectDispatch } from './dispatch-acks.ts';
import { DispatchAckBuffer } from './dispatch-ack-buffer.ts';
import { dispatchPayload } from './dispatch-payload.ts';

/** What every connection shares. */
export interface ConnectionServices {
  db: Kysely<Database>;
  config: SchedulerConfig;
  parser: FrameParser;
  connections: ConnectionRegistry;
  dispatcher: Dispatcher;
  graphs: RunGraphCache;
  log: Logger;
  schedulerId: string;
  /** How long a worker has to ACK a dispatch (the task's ack deadline). */
  dispatchAckTimeoutMs: number;
}

type State = 'hello' | 'register' | 'ready' | 'closed';

/** Pings in a row without a pong after which the socket is considered dead. */
const MAX_UNANSWERED_PINGS = 2;

/** How long an ACKed dispatch waits for its result before `running` is written on its own. */
const ACK_WRITE_DELAY_MS = 25;

/** Frame types only the scheduler sends; a worker sending one breaks the protocol. */
const SCHEDULER_ONLY = new Set<MessageType>(['cmd.dispatch', 'cmd.cancel', 'cmd.drain', 'pkg.install', 'pkg.uninstall']);

/**
 * One worker's socket: handshake → register → heartbeats, dispatches and results. Inbound frames are validated
 * before anything else and handled one at a time in arrival order; an invalid frame gets an `error` reply and
 * the socket lives until too many arrive.
 */
export class WorkerConnection {
  workerId = '';
  readonly sessionId = crypto.randomUUID();
  private state: State = 'hello';
  private invalidFrames = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly tracker: AckTracker;
  private readonly seen = new SeenFrames(4096);
  private registration: RegisterPayload | undefined;
  private draining = false;
  /** ACKed dispatches whose `running` state may still be folded into their result. */
  private readonly acks: DispatchAckBuffer;
  /** Slots promised to an eager claim whose transaction has not finished. */
  private reserved = 0;
  private packageKeys: ReadonlySet<string> = new Set();
  /** Tasks dispatched to this worker and not finished. */
  private readonly assigned = new Set<string>();
  private readonly log: Logger;
  private pingTimer: NodeJS.Timeout | undefined;
  private handshakeTimer: NodeJS.Timeout | undefined;
  /** Pings sent since the last pong. */
  private unanswered = 0;

  constructor(
    private readonly socket: WebSocket,
    readonly tenant: string,
    private readonly remoteAddr: string | undefined,
    private readonly svc: ConnectionServices,
  ) {
    this.log = svc.log.child({ session: this.sessionId });
    this.tracker = new AckTracker({
      initialTimeoutMs: svc.config.ackTimeoutMs,
      maxTimeoutMs: svc.config.ackTimeoutMs * 8,
      // A worker that keeps its socket alive but stops acknowledging is unhealthy: give up and drop it.
      maxAttempts: svc.config.maxSends,
      onResend: (frame, attempt) => this.log.warn({ frameId: frame.id, type: frame.type, attempt }, 'resending unacknowledged frame'),
    });
    this.tracker.attach((frame) => this.write(frame));
    this.acks = new DispatchAckBuffer(ACK_WRITE_DELAY_MS, (taskId, dispatchId, at) =>
      markDispatchAcked(svc.db, taskId, dispatchId, at).catch((err) => this.log.error({ err, taskId }, 'recording a dispatch ACK failed')),
    );
    socket.on('message', (data) => {
      this.queue = this.queue.then(() => this.onMessage(data as Buffer)).catch((err) => this.log.error({ err }, 'frame handling failed'));
    });
    socket.on('pong', () => (this.unanswered = 0));
    socket.on('close', (code, reason) => void this.onClose(code, reason.toString()));
    socket.on('error', (err) => this.log.warn({ err }, 'socket error'));
    this.handshakeTimer = setTimeout(() => this.fatal('E.WS.UNEXPECTED_MESSAGE', 'no handshake within 10 s'), 10_000);
    this.handshakeTimer.unref();
    this.pingTimer = setInterval(() => this.ping(), svc.config.heartbeatIntervalMs);
    this.pingTimer.unref();
  }

  /** Registered, not draining, socket open. */
  acceptsWork(): boolean {
    return this.state === 'ready' && !this.draining && this.socket.readyState === this.socket.OPEN;
  }

  /** Capacity left (slots held for an eager claim in progress count as taken). */
  freeSlots(): number {
    return (this.registration?.capacity.max_parallel ?? 0) - this.assigned.size - this.reserved;
  }

  /** Installed packages as registered. */
  packages(): Array<{ name: string; version: string }> {
    return this.registration?.packages.map((p) => ({ name: p.name, version: p.version })) ?? [];
  }

  /** Send a committed claim to the worker; the ACK moves the task to `running`. */
  dispatch(task: ClaimedTask): void {
    this.assigned.add(task.id);
    void this.sendDispatch(task);
  }

  private async sendDispatch(task: ClaimedTask): Promise<void> {
    const graph = await this.svc.graphs.get(this.svc.db, task.run_id).catch(() => undefined);
    const node = graph?.nodes.get(task.node_id);
    const frame = this.frame('cmd.dispatch', dispatchPayload(task, node, this.svc.config.defaultNodeTimeoutMs), { requestAck: true, corr: task.id });
    try {
      await this.tracker.sendReliable(frame);
      this.acks.hold(task.id, task.dispatch_id!, hrNow());
    } catch (err) {
      if (this.state === 'closed') return;
      this.log.warn({ err, taskId: task.id }, 'dispatch not acknowledged; closing the session');
      // Its attempts are requeued like those of any lost worker once the grace period is over.
      if ((err as { code?: string }).code === 'E.WS.ACK_TIMEOUT') this.fatal('E.WS.ACK_TIMEOUT', `no ACK for dispatch ${frame.id} after ${this.svc.config.maxSends} sends`);
    }
  }

  /** Tell the worker to abort an attempt. */
  cancel(order: CancelOrder, reason: string): void {
    this.assigned.delete(order.taskId);
    const frame = this.frame('cmd.cancel', { run_id: order.runId, task_id: order.taskId, attempt: order.attempt, reason }, { requestAck: true, corr: order.taskId });
    this.tracker.sendReliable(frame).catch(() => undefined);
  }

  /** Close the socket (e.g. replaced by a newer connection of the same worker). */
  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  private frame<T extends MessageType>(type: T, payload: PayloadMap[T], opts: { requestAck?: boolean; corr?: string; ackFor?: string } = {}): Frame<T> {
    return makeFrame(type, payload, { tenant: this.tenant, sender: { role: 'scheduler', id: this.svc.schedulerId }, ...opts });
  }

  private write(frame: Frame): boolean {
    if (this.socket.readyState !== this.socket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  private ack(frame: Frame, status: PayloadMap['ack']['status']): void {
    this.write(this.frame('ack', { status }, { ackFor: frame.id }));
  }

  private sendError(err: ProtocolError, fatal = false): void {
    const payload: PayloadMap['error'] = { code: err.code, message: err.message.slice(0, 4000) };
    if (err.details.for) payload.for = err.details.for;
    if (err.details.pointer !== undefined) payload.pointer = err.details.pointer.slice(0, 1000);
    if (fatal) payload.fatal = true;
    this.write(this.frame('error', payload));
  }

  private fatal(code: ProtocolError['code'], message: string): void {
    this.sendError(new ProtocolError(code, message), true);
    this.socket.close(1008, code);
  }

  private refuse(err: ProtocolError): void {
    this.invalidFrames++;
    this.log.warn({ code: err.code, pointer: err.details.pointer, invalidFrames: this.invalidFrames }, err.message);
    if (this.invalidFrames > this.svc.config.maxInvalidFrames) {
      this.fatal('E.WS.TOO_MANY_ERRORS', `more than ${this.svc.config.maxInvalidFrames} invalid frames`);
      return;
    }
    this.sendError(err);
  }

  /**
   * Liveness on the socket itself: a ping every heartbeat interval; two unanswered in a row end the socket. One
   * is tolerated because a pong that arrives while the event loop is busy is only read after the next timer fires.
   */
  private ping(): void {
    if (this.unanswered >= MAX_UNANSWERED_PINGS) {
      this.log.warn({ unanswered: this.unanswered }, 'no pong for several pings; terminating socket');
      this.socket.terminate();
      return;
    }
    this.unanswered++;
    this.socket.ping();
  }

  private async onMessage(data: Buffer): Promise<void> {
    if (this.state === 'closed') return;
    const receivedAt = hrNow();
    const parsed = this.svc.parser.parse(data);
    if (!parsed.ok) return this.refuse(parsed.error);
    const frame = parsed.frame;
    const forId = { for: frame.id };
    if (frame.tenant !== this.tenant) return this.refuse(new ProtocolError('E.WS.TENANT_MISMATCH', `tenant ${frame.tenant} is not this session's tenant`, { ...forId, pointer: '/tenant' }));
    if (frame.sender.role !== 'worker' || SCHEDULER_ONLY.has(frame.type)) {
      return this.refuse(new ProtocolError('E.WS.UNEXPECTED_MESSAGE', `a worker may not send ${frame.type} as ${frame.sender.role}`, forId));
    }
    if (this.state !== 'hello' && frame.sender.id !== this.workerId) {
      return this.refuse(new ProtocolError('E.WS.UNEXPECTED_MESSAGE', `sender ${frame.sender.id} is not this session's worker ${this.workerId}`, { ...forId, pointer: '/sender/id' }));
    }
    if (frame.type === 'ack') {
      this.tracker.handleAck(frame as Frame<'ack'>);
      return;
    }
    if (frame.ack?.request && this.seen.has(frame.id)) {
      this.ack(frame, 'duplicate');
      return;
    }
    switch (this.state) {
      case 'hello':
        if (frame.type !== 'handshake') return this.refuse(new ProtocolError('E.WS.UNEXPECTED_MESSAGE', `expected handshake, got ${frame.type}`, forId));
        return this.onHandshake(frame as Frame<'handshake'>);
      case 'register':
        if (frame.type !== 'register') return this.refuse(new ProtocolError('E.WS.UNEXPECTED_MESSAGE', `expected register, got ${frame.type}`, forId));
        return this.onRegister(frame as Frame<'register'>);
      case 'ready':
        return this.onReadyFrame(frame, receivedAt);
    }
  }

  private onHandshake(frame: Frame<'handshake'>): void {
    const hello = frame.payload;
    if (hello.kind !== 'hello') return this.refuse(new ProtocolError('E.WS.UNEXPECTED_MESSAGE', 'a worker handshake must be kind "hello"', { for: frame.id, pointer: '/payload/kind' }));
    if (!hello.protocols.includes(PROTOCOL_VERSION)) {
      return this.fatal('E.WS.UNSUPPORTED_PROTOCOL', `scheduler speaks protocol ${PROTOCOL_VERSION}; worker offers ${hello.protocols.join(', ')}`);
    }
    if (frame.sender.id !== hello.worker_id) {
      return this.refuse(new ProtocolError('E.WS.UNEXPECTED_MESSAGE', 'sender.id must equal worker_id', { for: frame.id, pointer: '/sender/id' }));
    }
    clearTimeout(this.handshakeTimer);
    this.workerId = hello.worker_id;
    this.state = 'register';
    this.write(
      this.frame('handshake', {
        kind: 'welcome',
        protocol: PROTOCOL_VERSION,
        session_id: this.sessionId,
        heartbeat_interval_ms: this.svc.config.heartbeatIntervalMs,
        ack_timeout_ms: this.svc.config.ackTimeoutMs,
        max_payload_bytes: this.svc.config.maxPayloadBytes,
      }),
    );
  }

  private async onRegister(frame: Frame<'register'>): Promise<void> {
    const p = frame.payload;
    const accepted = await registerWorker(this.svc.db, { id: this.workerId, tenant: this.tenant, sessionId: this.sessionId, remoteAddr: this.remoteAddr, payload: p });
    if (!accepted) return this.fatal('E.WS.TENANT_MISMATCH', `worker id ${this.workerId} belongs to another tenant`);
    const replaced = this.svc.connections.set(this);
    replaced?.close(4000, 'replaced by a newer connection of the same worker');
    const outcome = await reconcileWorker(this.svc.db, this.tenant, this.workerId, p.inflight);
    for (const id of outcome.kept) this.assigned.add(id);
    this.registration = p;
    this.packageKeys = new Set(p.packages.map((x) => `${x.name}@${x.version}`));
    this.state = 'ready';
    this.seen.add(frame.id);
    if (frame.ack?.request) this.ack(frame, 'ok');
    for (const c of outcome.cancel) this.cancel(c, 'the scheduler no longer assigns this attempt to this worker');
    this.log.info({ workerId: this.workerId, packages: p.packages.length, kept: outcome.kept.length, requeued: outcome.requeued.length }, 'worker registered');
    this.svc.dispatcher.wake();
  }

  private async onReadyFrame(frame: Frame, receivedAt: number): Promise<void> {
    switch (frame.type) {
      case 'heartbeat': {
        const hb = (frame as Frame<'heartbeat'>).payload;
        this.draining = hb.state === 'draining';
        await touchWorker(this.svc.db, this.workerId, this.sessionId, this.draining);
        if (frame.ack?.request) this.ack(frame, 'ok');
        return;
      }
      case 'result': {
        const p = (frame as Frame<'result'>).payload;
        // The attempt that reports is done: its slot may go straight to a successor (eager dispatch).
        this.assigned.delete(p.task_id);
        const ackedAt = this.acks.take(p.task_id, p.dispatch_id);
        const slots = this.acceptsWork() ? Math.max(0, this.freeSlots()) : 0;
        this.reserved += slots;
        let outcome;
        try {
          outcome = await recordResult(this.svc.db, this.svc.graphs, this.workerId, p, receivedAt, {
            workerId: this.workerId,
            packages: this.packageKeys,
            slots,
            ackTimeoutMs: this.svc.dispatchAckTimeoutMs,
          }, ackedAt);
        } finally {
          this.reserved -= slots;
        }
        for (const task of outcome.claimed ?? []) this.dispatch(task);
        this.seen.add(frame.id);
        if (frame.ack?.request) this.ack(frame, outcome.status);
        for (const order of outcome.cancel) {
          this.svc.connections.get(this.tenant, order.workerId)?.cancel(order, 'run failed');
        }
        if (outcome.runStatus) this.log.info({ runId: p.run_id, status: outcome.runStatus }, 'run finished');
        // Wake the dispatcher unless every new successor already went out and this worker's slot is taken again.
        if (outcome.readied > (outcome.claimed?.length ?? 0) || (outcome.claimed?.length ?? 0) === 0) this.svc.dispatcher.wake();
        return;
      }
      case 'command.error': {
        const p = (frame as Frame<'command.error'>).payload;
        if (p.command_type === 'cmd.dispatch' && p.task_id && p.dispatch_id) {
          const outcome = await rejectDispatch(this.svc.db, this.svc.graphs, this.workerId, p);
          this.assigned.delete(p.task_id);
          for (const order of outcome.cancel) this.svc.connections.get(this.tenant, order.workerId)?.cancel(order, 'run failed');
          this.svc.dispatcher.wake();
        }
        this.log.warn({ code: p.code, command: p.command_type, taskId: p.task_id }, `worker refused a command: ${p.message}`);
        this.seen.add(frame.id);
        if (frame.ack?.request) this.ack(frame, 'ok');
        return;
      }
      case 'feedback': {
        const p = (frame as Frame<'feedback'>).payload;
        this.log.info({ runId: p.run_id, nodeId: p.node_id, attempt: p.attempt, kind: p.kind, progress: p.progress }, p.message);
        return;
      }
      case 'pkg.event': {
        const p = (frame as Frame<'pkg.event'>).payload;
        this.log.info({ package: `${p.name}@${p.version}`, status: p.status }, 'package event');
        this.seen.add(frame.id);
        if (frame.ack?.request) this.ack(frame, 'ok');
        return;
      }
      case 'error': {
        const p = (frame as Frame<'error'>).payload;
        this.log.warn({ code: p.code, for: p.for }, `worker reported an error: ${p.message}`);
        return;
      }
      default:
        return this.refuse(new ProtocolError('E.WS.UNEXPECTED_MESSAGE', `${frame.type} is not expected now`, { for: frame.id }));
    }
  }

  private async onClose(code: number, reason: string): Promise<void> {
    const wasRegistered = this.state === 'ready' || this.state === 'register';
    this.state = 'closed';
    clearTimeout(this.handshakeTimer);
    clearInterval(this.pingTimer);
    this.tracker.close(new Error('socket closed'));
    this.svc.connections.delete(this);
    if (wasRegistered && this.workerId) {
      this.log.info({ workerId: this.workerId, code, reason }, 'worker disconnected');
      await this.queue.catch(() => undefined);
      await markWorkerOffline(this.svc.db, this.workerId, this.sessionId, reason || `close ${code}`).catch((err) =>
        this.log.error({ err }, 'could not mark worker offline'),
      );
    }
  }
}
