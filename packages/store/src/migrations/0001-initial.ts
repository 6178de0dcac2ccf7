/**
 * The initial schema (ARCHITECTURE.md §2). A migration is a frozen snapshot: it spells out its status lists
 * instead of importing them from schema.ts, so later edits there cannot change what this migration did.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';

/** `column in ('a', 'b', …)` for a check constraint. */
function oneOf(column: string, values: readonly string[]): RawBuilder<boolean> {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;
}

const emptyObject = sql`'{}'::jsonb`;
const emptyArray = sql`'[]'::jsonb`;
const now = sql`now()`;
const randomUuid = sql`gen_random_uuid()`;

/** Creates every table of the initial schema. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('runs')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(randomUuid))
    .addColumn('tenant', 'text', (col) => col.notNull().defaultTo('default'))
    .addColumn('workflow_id', 'uuid', (col) => col.notNull())
    .addColumn('workflow', 'jsonb', (col) => col.notNull())
    .addColumn('inputs', 'jsonb', (col) => col.notNull().defaultTo(emptyObject))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('request_hash', 'text')
    .addColumn('error', 'jsonb')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addColumn('seal', 'text')
    .addCheckConstraint('runs_status_check', oneOf('status', ['queued', 'running', 'succeeded', 'failed', 'cancelled']))
    .addUniqueConstraint('runs_tenant_idempotency_key_key', ['tenant', 'idempotency_key'])
    .execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(randomUuid))
    .addColumn('tenant', 'text', (col) => col.notNull().defaultTo('default'))
    .addColumn('run_id', 'uuid', (col) => col.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('node_id', 'uuid', (col) => col.notNull())
    .addColumn('node_type', 'text', (col) => col.notNull())
    .addColumn('package_name', 'text', (col) => col.notNull())
    .addColumn('package_version', 'text', (col) => col.notNull())
    .addColumn('attempt', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('parameters', 'jsonb', (col) => col.notNull().defaultTo(emptyObject))
    .addColumn('results', 'jsonb')
    .addColumn('error', 'jsonb')
    .addColumn('ready_at', 'timestamptz')
    .addColumn('worker_id', 'text')
    .addColumn('pinned_worker_id', 'text')
    .addColumn('dispatch_id', 'uuid')
    .addColumn('ack_deadline', 'timestamptz')
    .addColumn('acked_at', 'timestamptz')
    .addColumn('lease_expires_at', 'timestamptz')
    .addColumn('dispatched_at', 'timestamptz')
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('timings', 'jsonb', (col) => col.notNull().defaultTo(emptyObject))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addCheckConstraint(
      'tasks_status_check',
      oneOf('status', ['pending', 'ready', 'dispatched', 'running', 'succeeded', 'failed', 'cancelled', 'skipped']),
    )
    // Also serves lookups by run_id (its leading column), so tasks needs no separate run_id index.
    .addUniqueConstraint('tasks_run_id_node_id_attempt_key', ['run_id', 'node_id', 'attempt'])
    .execute();

  // The ready queue: claimers filter by tenant and package@version and take the oldest ready_at first.
  await db.schema
    .createIndex('tasks_ready_queue_idx')
    .on('tasks')
    .columns(['tenant', 'package_name', 'package_version', 'ready_at'])
    .where(sql.ref('status'), '=', 'ready')
    .execute();

  // In-flight tasks of a worker: read when it disconnects, drains or its leases expire.
  await db.schema
    .createIndex('tasks_in_flight_worker_idx')
    .on('tasks')
    .column('worker_id')
    .where(oneOf('status', ['dispatched', 'running']))
    .execute();

  await db.schema
    .createTable('run_events')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('tenant', 'text', (col) => col.notNull().defaultTo('default'))
    .addColumn('run_id', 'uuid', (col) => col.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('node_id', 'uuid')
    .addColumn('attempt', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('payload', 'jsonb', (col) => col.notNull().defaultTo(emptyObject))
    .addColumn('ts', 'timestamptz', (col) => col.notNull().defaultTo(now))
    // NULLS NOT DISTINCT (PostgreSQL 15+): run-level events have no node_id and must dedupe too.
    .addUniqueConstraint('run_events_dedupe_key', ['run_id', 'node_id', 'type', 'attempt'], (c) => c.nullsNotDistinct())
    .execute();

  await db.schema
    .createTable('workers')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('tenant', 'text', (col) => col.notNull().defaultTo('default'))
    .addColumn('name', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('labels', 'jsonb', (col) => col.notNull().defaultTo(emptyObject))
    .addColumn('max_parallel', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('packages', 'jsonb', (col) => col.notNull().defaultTo(emptyArray))
    .addColumn('runtime', 'jsonb', (col) => col.notNull().defaultTo(emptyObject))
    .addColumn('session_id', 'uuid')
    .addColumn('connected_at', 'timestamptz')
    .addColumn('last_heartbeat_at', 'timestamptz')
    .addColumn('disconnected_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addCheckConstraint('workers_status_check', oneOf('status', ['online', 'offline', 'draining']))
    .execute();

  await db.schema
    .createTable('worker_sessions')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(randomUuid))
    .addColumn('tenant', 'text', (col) => col.notNull().defaultTo('default'))
    .addColumn('worker_id', 'text', (col) => col.notNull())
    .addColumn('remote_addr', 'text')
    .addColumn('started_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addColumn('ended_at', 'timestamptz')
    .addColumn('end_reason', 'text')
    .execute();

  await db.schema
    .createTable('worker_bindings')
    .addColumn('tenant', 'text', (col) => col.notNull().defaultTo('default'))
    .addColumn('run_id', 'uuid', (col) => col.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('package_name', 'text', (col) => col.notNull())
    .addColumn('worker_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('worker_bindings_pkey', ['run_id', 'package_name'])
    .execute();

  await db.schema
    .createTable('packages')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(randomUuid))
    .addColumn('tenant', 'text', (col) => col.notNull().defaultTo('default'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('version', 'text', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('size', 'bigint', (col) => col.notNull())
    .addColumn('signature', 'text')
    .addColumn('manifest', 'jsonb', (col) => col.notNull())
    .addColumn('blob', 'bytea')
    .addColumn('yanked', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addUniqueConstraint('packages_tenant_name_version_key', ['tenant', 'name', 'version'])
    .execute();

  await db.schema
    .createTable('package_installs')
    .addColumn('tenant', 'text', (col) => col.notNull().defaultTo('default'))
    .addColumn('worker_id', 'text', (col) => col.notNull())
    .addColumn('package_name', 'text', (col) => col.notNull())
    .addColumn('package_version', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('error', 'jsonb')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('package_installs_pkey', ['worker_id', 'package_name', 'package_version'])
    .execute();

  await db.schema
    .createTable('artifacts')
    .addColumn('tenant', 'text', (col) => col.notNull().defaultTo('default'))
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('size', 'bigint', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('blob', 'bytea', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('artifacts_pkey', ['tenant', 'sha256'])
    .execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(randomUuid))
    .addColumn('tenant', 'text', (col) => col.notNull().defaultTo('default'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('hash', 'text', (col) => col.notNull().unique())
    .addColumn('label', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addCheckConstraint('tokens_kind_check', oneOf('kind', ['worker', 'operator', 'pairing']))
    .execute();
}

/** Drops every table of the initial schema (children first). */
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'tokens',
    'artifacts',
    'package_installs',
    'packages',
    'worker_bindings',
    'worker_sessions',
    'workers',
    'run_events',
    'tasks',
    'runs',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
