import { sql, type Database, type Kysely, type Selectable } from '@drover/store';
import { hrNow } from '../hr-clock.ts';

/** A task row as claimed for dispatch. */
export type ClaimedTask = Selectable<Database['tasks']>;

/** Which tasks a worker can take. */
export interface ClaimRequest {
  tenant: string;
  workerId: string;
  /** Installed `name@version` pairs of the worker. */
  packages: ReadonlyArray<{ name: string; version: string }>;
  /** At most this many (the worker's free capacity). */
  limit: number;
  /** The worker must ACK the dispatch within this long. */
  ackTimeoutMs: number;
}

/**
 * Claim ready tasks for one worker in a single statement: pick with `FOR UPDATE SKIP LOCKED` (concurrent
 * schedulers never get the same row), mark them `dispatched` with a fresh dispatch id, and move their runs from
 * `queued` to `running`. The dispatch frame is sent only after this commits (outbox rule).
 */
export async function claimTasks(db: Kysely<Database>, req: ClaimRequest): Promise<ClaimedTask[]> {
  if (req.limit <= 0 || req.packages.length === 0) return [];
  const pkgs = sql.join(req.packages.map((p) => sql`(${p.name}::text, ${p.version}::text)`));
  const timings = JSON.stringify({ dispatchedAt: hrNow() });
  const result = await sql<ClaimedTask>`
    WITH picked AS (
      SELECT id FROM tasks
      WHERE tenant = ${req.tenant}
        AND status = 'ready'
        AND ready_at <= now()
        AND (pinned_worker_id IS NULL OR pinned_worker_id = ${req.workerId})
        AND (package_name, package_version) IN (${pkgs})
      ORDER BY ready_at, created_at
      LIMIT ${req.limit}
      FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE tasks t SET
        status = 'dispatched',
        worker_id = ${req.workerId},
        dispatch_id = gen_random_uuid(),
        dispatched_at = now(),
        ack_deadline = now() + make_interval(secs => ${req.ackTimeoutMs / 1000}::double precision),
        timings = t.timings || ${timings}::jsonb
      FROM picked WHERE t.id = picked.id
      RETURNING t.*
    ), started AS (
      UPDATE runs SET status = 'running', started_at = COALESCE(started_at, now()), updated_at = now()
      WHERE id IN (SELECT run_id FROM claimed) AND status = 'queued'
    )
    SELECT * FROM claimed
  `.execute(db);
  return result.rows;
}
