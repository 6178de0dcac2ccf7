import type { Frame } from './frame.ts';
import { ProtocolError } from './errors.ts';

/** Options of an AckTracker. */
export interface AckTrackerOptions {
  /** First resend after this many ms without an ACK. @default 1000 */
  initialTimeoutMs?: number;
  /** Longest wait between resends. @default 10000 */
  maxTimeoutMs?: number;
  /** Give up after this many sends (first send included); 0 means never. @default 0 */
  maxAttempts?: number;
  /** Source of randomness for jitter, in [0, 1). @default Math.random */
  random?: () => number;
  /** Called when a frame is resent (for metrics and logs). */
  onResend?: (frame: Frame, attempt: number) => void;
}

interface Pending {
  frame: Frame;
  attempt: number;
  timer: NodeJS.Timeout | undefined;
  resolve: (ack: Frame<'ack'>) => void;
  reject: (err: Error) => void;
}

/**
 * Sends frames that ask for an ACK and resends them, with the same id, with exponential backoff and jitter, until
 * the matching `ack` arrives. Survives reconnects: while detached it holds frames and sends them all when a new
 * transport is attached.
 */
export class AckTracker {
  private readonly pending = new Map<string, Pending>();
  private send: ((frame: Frame) => boolean) | undefined;
  private readonly initial: number;
  private readonly max: number;
  private readonly maxAttempts: number;
  private readonly random: () => number;

  constructor(private readonly options: AckTrackerOptions = {}) {
    this.initial = options.initialTimeoutMs ?? 1000;
    this.max = options.maxTimeoutMs ?? 10_000;
    this.maxAttempts = options.maxAttempts ?? 0;
    this.random = options.random ?? Math.random;
  }

  /** Use `send` for all frames from now on, resending everything still unacknowledged. */
  attach(send: (frame: Frame) => boolean): void {
    this.send = send;
    for (const p of this.pending.values()) this.transmit(p);
  }

  /** Stop sending (socket lost); pending frames wait for the next `attach`. */
  detach(): void {
    this.send = undefined;
    for (const p of this.pending.values()) {
      if (p.timer) clearTimeout(p.timer);
      p.timer = undefined;
    }
  }

  /** Send `frame` (which must request an ACK) and resolve with the ACK frame. */
  sendReliable(frame: Frame): Promise<Frame<'ack'>> {
    return new Promise((resolve, reject) => {
      const p: Pending = { frame, attempt: 0, timer: undefined, resolve, reject };
      this.pending.set(frame.id, p);
      this.transmit(p);
    });
  }

  /** Feed an inbound `ack` frame; returns true when it settled a pending frame. */
  handleAck(ack: Frame<'ack'>): boolean {
    const id = ack.ack?.for;
    if (!id) return false;
    const p = this.pending.get(id);
    if (!p) return false;
    this.pending.delete(id);
    if (p.timer) clearTimeout(p.timer);
    p.resolve(ack);
    return true;
  }

  /** Frames sent and not yet acknowledged. */
  unacknowledged(): Frame[] {
    return [...this.pending.values()].map((p) => p.frame);
  }

  /** Drop a pending frame without waiting for its ACK (its promise rejects with `reason`). */
  forget(id: string, reason: Error): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (p.timer) clearTimeout(p.timer);
    p.reject(reason);
  }

  /** Reject everything pending and stop all timers. */
  close(reason: Error = new Error('ack tracker closed')): void {
    this.detach();
    for (const id of [...this.pending.keys()]) this.forget(id, reason);
  }

  private transmit(p: Pending): void {
    if (!this.send) return;
    p.attempt++;
    if (p.attempt > 1) this.options.onResend?.(p.frame, p.attempt);
    this.send(p.frame);
    if (this.maxAttempts > 0 && p.attempt >= this.maxAttempts) {
      p.timer = setTimeout(() => {
        this.forget(p.frame.id, new ProtocolError('E.WS.ACK_TIMEOUT', `no ACK for ${p.frame.type} ${p.frame.id} after ${p.attempt} sends`));
      }, this.delay(p.attempt));
    } else {
      p.timer = setTimeout(() => this.transmit(p), this.delay(p.attempt));
    }
    p.timer.unref?.();
  }

  /** Exponential backoff with full jitter in the upper half: base·2^(n-1) · [0.5, 1). */
  private delay(attempt: number): number {
    const base = Math.min(this.max, this.initial * 2 ** (attempt - 1));
    return Math.round(base * (0.5 + this.random() / 2));
  }
}
