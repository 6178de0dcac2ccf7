import type { Logger } from 'pino';
import type { Database, Kysely } from '@drover/store';
import type { ConnectionRegistry } from '../ws/connection-registry.ts';
import { claimTasks } from './claim-tasks.ts';

/**
 * Hands ready tasks to connected workers. `wake()` is cheap and coalesces: whatever happened since the last pass
 * (a run created, a result recorded, a worker registered) is served by one more pass. Each pass claims, per
 * worker with free capacity, as many matching ready tasks as it can take, commits, then sends the frames.
 */
export class Dispatcher {
  private running = false;
  private again = false;
  private closed = false;
  private idle: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly connections: ConnectionRegistry,
    private readonly options: { ackTimeoutMs: number; log: Logger },
  ) {}

  /** Ask for a dispatch pass soon. */
  wake(): void {
    if (this.closed) return;
    this.again = true;
    if (!this.running) this.idle = this.loop();
  }

  /** Resolves when no pass is running (tests and shutdown). */
  settled(): Promise<void> {
    return this.idle;
  }

  /** Stop dispatching. */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle;
  }

  private async loop(): Promise<void> {
    this.running = true;
    try {
      while (this.again && !this.closed) {
        this.again = false;
        try {
          if (await this.pass()) this.again = true;
        } catch (err) {
          this.options.log.error({ err }, 'dispatch pass failed');
          await new Promise((r) => setTimeout(r, 200));
          this.again = true;
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** One pass over the connected workers; true when some worker filled all its free slots (there may be more). */
  private async pass(): Promise<boolean> {
    let saturated = false;
    for (const conn of this.connections.all()) {
      if (!conn.acceptsWork()) continue;
      const free = conn.freeSlots();
      if (free <= 0) continue;
      const tasks = await claimTasks(this.db, {
        tenant: conn.tenant,
        workerId: conn.workerId,
        packages: conn.packages(),
        limit: free,
        ackTimeoutMs: this.options.ackTimeoutMs,
      });
      for (const task of tasks) conn.dispatch(task);
      if (tasks.length === free) saturated = true;
    }
    return saturated;
  }
}
