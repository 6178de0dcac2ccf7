import type { WorkerConnection } from './worker-connection.ts';

/** The worker sockets this scheduler process holds, by worker id (one live connection per worker). */
export class ConnectionRegistry {
  private readonly byWorker = new Map<string, WorkerConnection>();

  /** Make `conn` the worker's connection; returns the one it replaces, if any. */
  set(conn: WorkerConnection): WorkerConnection | undefined {
    const prev = this.byWorker.get(conn.workerId);
    this.byWorker.set(conn.workerId, conn);
    return prev === conn ? undefined : prev;
  }

  /** Forget `conn` unless a newer connection of the same worker replaced it. */
  delete(conn: WorkerConnection): void {
    if (this.byWorker.get(conn.workerId) === conn) this.byWorker.delete(conn.workerId);
  }

  /** The live connection of a worker. */
  get(workerId: string): WorkerConnection | undefined {
    return this.byWorker.get(workerId);
  }

  /** Registered connections. */
  all(): WorkerConnection[] {
    return [...this.byWorker.values()];
  }

  /** Ids of workers with a live connection. */
  ids(): Set<string> {
    return new Set(this.byWorker.keys());
  }
}
