import type { WorkerConnection } from './worker-connection.ts';

const key = (tenant: string, workerId: string) => `${tenant}\u0000${workerId}`;

/** The worker sockets this scheduler process holds, one live connection per (tenant, worker id). */
export class ConnectionRegistry {
  private readonly byWorker = new Map<string, WorkerConnection>();

  /** Make `conn` the worker's connection; returns the one it replaces, if any. */
  set(conn: WorkerConnection): WorkerConnection | undefined {
    const k = key(conn.tenant, conn.workerId);
    const prev = this.byWorker.get(k);
    this.byWorker.set(k, conn);
    return prev === conn ? undefined : prev;
  }

  /** Forget `conn` unless a newer connection of the same worker replaced it. */
  delete(conn: WorkerConnection): void {
    const k = key(conn.tenant, conn.workerId);
    if (this.byWorker.get(k) === conn) this.byWorker.delete(k);
  }

  /** The live connection of a worker of a tenant. */
  get(tenant: string, workerId: string): WorkerConnection | undefined {
    return this.byWorker.get(key(tenant, workerId));
  }

  /** Registered connections. */
  all(): WorkerConnection[] {
    return [...this.byWorker.values()];
  }

  /** Ids of the workers of `tenant` with a live connection. */
  ids(tenant: string): Set<string> {
    return new Set(this.all().filter((c) => c.tenant === tenant).map((c) => c.workerId));
  }
}
