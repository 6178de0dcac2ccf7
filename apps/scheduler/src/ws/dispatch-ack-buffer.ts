/**
 * Holds ACKed dispatches whose `running` state is not written yet. Most results of short nodes arrive within
 * `delayMs`: the result then takes the ACK (`take`) and records it in its own transaction, saving an UPDATE. When
 * no result comes in time, `flush` writes the ACK on its own.
 */
export class DispatchAckBuffer {
  private readonly held = new Map<string, { dispatchId: string; at: number; timer: NodeJS.Timeout }>();

  constructor(
    private readonly delayMs: number,
    private readonly flush: (taskId: string, dispatchId: string, at: number) => void,
  ) {}

  /** The worker ACKed dispatch `dispatchId` of `taskId` at `at` (high-resolution ms). */
  hold(taskId: string, dispatchId: string, at: number): void {
    const timer = setTimeout(() => {
      this.held.delete(taskId);
      this.flush(taskId, dispatchId, at);
    }, this.delayMs);
    timer.unref();
    this.held.set(taskId, { dispatchId, at, timer });
  }

  /** The ACK time of this dispatch if it is still held (it is then the caller's to record), else undefined. */
  take(taskId: string, dispatchId: string): number | undefined {
    const h = this.held.get(taskId);
    if (!h || h.dispatchId !== dispatchId) return undefined;
    clearTimeout(h.timer);
    this.held.delete(taskId);
    return h.at;
  }
}
