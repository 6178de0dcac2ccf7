import type { ApiSchemas } from '@drover/api';
import type { RegisterPayload } from '@drover/protocol';
import { jsonb, type Database, type Kysely } from '@drover/store';

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

/**
 * Record a registered worker (insert or refresh) and open a session row. Returns false, writing nothing, when the
 * worker id is already taken by a worker of another tenant.
 */
export async function registerWorker(
  db: Kysely<Database>,
  w: { id: string; tenant: string; sessionId: string; remoteAddr: string | undefined; payload: RegisterPayload },
): Promise<boolean> {
  const p = w.payload;
  const values = {
    tenant: w.tenant,
    name: p.name,
    status: 'online' as const,
    labels: p.labels,
    max_parallel: p.capacity.max_parallel,
    packages: jsonb(p.packages),
    runtime: p.runtime,
    session_id: w.sessionId,
    connected_at: new Date(),
    last_heartbeat_at: new Date(),
    disconnected_at: null,
    updated_at: new Date(),
  };
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto('workers')
      .values({ id: w.id, ...values })
      .onConflict((oc) => oc.column('id').doUpdateSet(values).where('workers.tenant', '=', w.tenant))
      .returning('id')
      .executeTakeFirst();
    if (!row) return false;
    await tx
      .insertInto('worker_sessions')
      .values({ id: w.sessionId, tenant: w.tenant, worker_id: w.id, remote_addr: w.remoteAddr ?? null })
      .execute();
    return true;
  });
}

/** Note a heartbeat. */
export async function touchWorker(db: Kysely<Database>, workerId: string, sessionId: string, draining: boolean): Promise<void> {
  await db
    .updateTable('workers')
    .set({ last_heartbeat_at: new Date(), status: draining ? 'draining' : 'online' })
    .where('id', '=', workerId)
    .where('session_id', '=', sessionId)
    .execute();
}

/** Mark a worker's session ended and the worker offline (unless a newer session already took over). */
export async function markWorkerOffline(db: Kysely<Database>, workerId: string, sessionId: string, reason: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('workers')
      .set({ status: 'offline', disconnected_at: new Date(), session_id: null, updated_at: new Date() })
      .where('id', '=', workerId)
      .where('session_id', '=', sessionId)
      .execute();
    await tx.updateTable('worker_sessions').set({ ended_at: new Date(), end_reason: reason.slice(0, 200) }).where('id', '=', sessionId).execute();
  });
}

/**
 * At start-up of a single scheduler process no socket is open, so every worker is offline; its in-flight tasks
 * are requeued by the sweeper unless it reconnects within the grace period.
 */
export async function markAllWorkersOffline(db: Kysely<Database>): Promise<void> {
  await db
    .updateTable('workers')
    .set({ status: 'offline', session_id: null, disconnected_at: new Date(), updated_at: new Date() })
    .where('status', '<>', 'offline')
    .execute();
}

/** API view of the workers of `tenant`. */
export async function listWorkers(db: Kysely<Database>, tenant: string, connected: ReadonlySet<string>): Promise<ApiSchemas['WorkerList']> {
  const rows = await db.selectFrom('workers').selectAll().where('tenant', '=', tenant).orderBy('id').execute();
  const running = await db
    .selectFrom('tasks')
    .select(['worker_id'])
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant', '=', tenant)
    .where('status', 'in', ['dispatched', 'running'])
    .groupBy('worker_id')
    .execute();
  const runningBy = new Map(running.map((r) => [r.worker_id, Number(r.n)]));
  return {
    workers: rows.map((r) => ({
      id: r.id,
      tenant: r.tenant,
      name: r.name ?? r.id,
      status: r.status as ApiSchemas['WorkerStatus'],
      connected: connected.has(r.id),
      labels: r.labels as Record<string, string>,
      maxParallel: r.max_parallel,
      running: runningBy.get(r.id) ?? 0,
      packages: r.packages as ApiSchemas['Worker']['packages'],
      runtime: r.runtime as Record<string, unknown>,
      lastHeartbeatAt: iso(r.last_heartbeat_at),
      connectedAt: iso(r.connected_at),
    })),
  };
}
