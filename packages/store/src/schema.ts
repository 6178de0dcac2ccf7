/**
 * The database as kysely sees it: one interface per table, written by hand to match the migrations.
 *
 * Glossary
 * - tenant:   the isolation unit; every row carries one (`'default'` unless set).
 * - run:      one execution of a workflow; holds the workflow snapshot exactly as submitted.
 * - node:     a step of a workflow, identified by a uuid inside the workflow.
 * - task:     one attempt at running one node of one run (a row per attempt; `attempt` starts at 1).
 * - dispatch: the act of handing a task to a worker; `dispatch_id` names one hand-over, so a late ACK of
 *             an earlier dispatch of the same task can be told apart.
 * - worker:   a process that executes nodes; its id is chosen by the worker and survives reconnects.
 * - session:  one WebSocket connection of a worker, from hello to close.
 * - binding:  affinity of a run's package to one worker (nodes sharing live resources must stay together).
 * - package:  a versioned `.cwx` bundle of node types; `package_installs` tracks it per worker.
 * - artifact: an opaque blob, content-addressed by sha256 within a tenant.
 * - event:    an append-only history record; (run, node, type, attempt) is unique, so redelivery is a no-op.
 *
 * Value mapping (the same on both dialects, see open-database.ts):
 * - `timestamptz` reads as `Date`; writes take `Date` or an ISO-8601 string.
 * - `bigint` (int8) reads as `number` — values beyond ±2^53 would read as `bigint`; none of our int8 columns
 *   (ids, byte sizes) can get there.
 * - `bytea` reads as `Uint8Array` (a `Buffer` on PostgreSQL, which is a `Uint8Array`).
 * - `jsonb` reads as the parsed value. Object columns take any non-array object; array columns must be
 *   written through `jsonb()`, because node-postgres sends a JS array as a Postgres array literal.
 */
import type { ColumnType, Generated, GeneratedAlways } from 'kysely';

/** Run states; the `runs_status_check` constraint holds the same list. */
export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
/** The state of a run. */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Task states; the `tasks_status_check` constraint holds the same list. */
export const TASK_STATUSES = ['pending', 'ready', 'dispatched', 'running', 'succeeded', 'failed', 'cancelled', 'skipped'] as const;
/** The state of one node attempt. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Worker states; the `workers_status_check` constraint holds the same list. */
export const WORKER_STATUSES = ['online', 'offline', 'draining'] as const;
/** The state of a worker. */
export type WorkerStatus = (typeof WORKER_STATUSES)[number];

/** Token kinds; the `tokens_kind_check` constraint holds the same list. */
export const TOKEN_KINDS = ['worker', 'operator', 'pairing'] as const;
/** What a token authorises. */
export type TokenKind = (typeof TOKEN_KINDS)[number];

/**
 * A JSON object that may be written to a jsonb object column. Arrays are excluded on purpose (see the
 * value mapping above); interfaces without an index signature are accepted.
 */
export type JsonObjectInput = { readonly [key: string]: unknown } | (object & { readonly length?: never });

/** A JSON object as read back from a jsonb object column. */
export type JsonObject = Record<string, unknown>;

/** A jsonb object column. */
export type JsonObjectColumn = ColumnType<JsonObject, JsonObjectInput, JsonObjectInput>;
/** A jsonb object column with a default (`'{}'`). */
export type JsonObjectColumnWithDefault = ColumnType<JsonObject, JsonObjectInput | undefined, JsonObjectInput>;
/** A nullable jsonb object column. */
export type NullableJsonObjectColumn = ColumnType<JsonObject | null, JsonObjectInput | null, JsonObjectInput | null>;

declare const jsonbBrand: unique symbol;
/** A value serialised to JSON text by `jsonb()`; the only way to write a jsonb array column. */
export type JsonbText<T> = string & { readonly [jsonbBrand]: T };
/** A jsonb column holding an array, with a default (`'[]'`). */
export type JsonArrayColumnWithDefault<T> = ColumnType<T[], JsonbText<T[]> | undefined, JsonbText<T[]>>;

/** A `timestamptz not null default now()` column. */
export type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** A nullable `timestamptz` column. */
export type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;
/** An `int8` column: read as a number (see the value mapping above). */
export type Int8 = ColumnType<number, number | bigint | string, number | bigint | string>;

/** `runs`: one row per workflow execution. */
export interface RunTable {
  id: Generated<string>;
  tenant: Generated<string>;
  workflow_id: string;
  /** The workflow (nodes and edges) exactly as submitted; a run never reads a live definition. */
  workflow: JsonObjectColumn;
  inputs: JsonObjectColumnWithDefault;
  status: RunStatus;
  /** Client-chosen key; unique per tenant so a retried submission returns the first run. */
  idempotency_key: string | null;
  /** sha256 of the canonical submitted body; a replay with the same key must match it. */
  request_hash: string | null;
  error: NullableJsonObjectColumn;
  created_at: CreatedAt;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  updated_at: CreatedAt;
  /** sha256 over the finished run record (integrity seal); null until the run finishes. */
  seal: string | null;
}

/** `tasks`: one row per node attempt; the ready queue is claimed with `FOR UPDATE SKIP LOCKED`. */
export interface TaskTable {
  id: Generated<string>;
  tenant: Generated<string>;
  run_id: string;
  node_id: string;
  node_type: string;
  package_name: string;
  package_version: string;
  attempt: Generated<number>;
  status: TaskStatus;
  parameters: JsonObjectColumnWithDefault;
  results: NullableJsonObjectColumn;
  error: NullableJsonObjectColumn;
  /** When a `ready` task may be claimed: durable delays and retry backoff live here, never in setTimeout. */
  ready_at: NullableTimestamp;
  worker_id: string | null;
  /** Set when the task must run on one worker (resource affinity or operator rebind). */
  pinned_worker_id: string | null;
  dispatch_id: string | null;
  ack_deadline: NullableTimestamp;
  acked_at: NullableTimestamp;
  lease_expires_at: NullableTimestamp;
  dispatched_at: NullableTimestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  timings: JsonObjectColumnWithDefault;
  created_at: CreatedAt;
}

/** `run_events`: append-only run history; a duplicate (run, node, type, attempt) is discarded. */
export interface RunEventTable {
  id: GeneratedAlways<number>;
  tenant: Generated<string>;
  run_id: string;
  /** Null for run-level events; NULLs compare equal in the dedupe constraint. */
  node_id: string | null;
  /** 0 for run-level events. */
  attempt: Generated<number>;
  type: string;
  payload: JsonObjectColumnWithDefault;
  ts: CreatedAt;
}

/** `workers`: one row per worker id, kept across sessions. */
export interface WorkerTable {
  id: string;
  tenant: Generated<string>;
  name: string | null;
  status: WorkerStatus;
  labels: JsonObjectColumnWithDefault;
  max_parallel: Generated<number>;
  /** Installed packages as reported by the worker; write with `jsonb()`. */
  packages: JsonArrayColumnWithDefault<unknown>;
  runtime: JsonObjectColumnWithDefault;
  session_id: string | null;
  connected_at: NullableTimestamp;
  last_heartbeat_at: NullableTimestamp;
  disconnected_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

/** `worker_sessions`: one row per worker connection. */
export interface WorkerSessionTable {
  id: Generated<string>;
  tenant: Generated<string>;
  worker_id: string;
  remote_addr: string | null;
  started_at: CreatedAt;
  ended_at: NullableTimestamp;
  end_reason: string | null;
}

/** `worker_bindings`: which worker runs a given package's nodes for a given run. */
export interface WorkerBindingTable {
  tenant: Generated<string>;
  run_id: string;
  package_name: string;
  worker_id: string;
  created_at: CreatedAt;
}

/** `packages`: uploaded `.cwx` packages, unique per (tenant, name, version). */
export interface PackageTable {
  id: Generated<string>;
  tenant: Generated<string>;
  name: string;
  version: string;
  sha256: string;
  size: Int8;
  signature: string | null;
  manifest: JsonObjectColumn;
  blob: Uint8Array | null;
  yanked: Generated<boolean>;
  created_at: CreatedAt;
}

/** `package_installs`: install state of a package version on a worker. */
export interface PackageInstallTable {
  tenant: Generated<string>;
  worker_id: string;
  package_name: string;
  package_version: string;
  status: string;
  error: NullableJsonObjectColumn;
  updated_at: CreatedAt;
}

/** `artifacts`: content-addressed blobs. */
export interface ArtifactTable {
  tenant: Generated<string>;
  sha256: string;
  size: Int8;
  content_type: string;
  blob: Uint8Array;
  created_at: CreatedAt;
}

/** `tokens`: hashed credentials; the plain token is shown once and never stored. */
export interface TokenTable {
  id: Generated<string>;
  tenant: Generated<string>;
  kind: TokenKind;
  /** sha256 hex of the token. */
  hash: string;
  label: string | null;
  created_at: CreatedAt;
  expires_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

/** Every table, keyed by its name: the type parameter of `Kysely<Database>`. */
export interface Database {
  runs: RunTable;
  tasks: TaskTable;
  run_events: RunEventTable;
  workers: WorkerTable;
  worker_sessions: WorkerSessionTable;
  worker_bindings: WorkerBindingTable;
  packages: PackageTable;
  package_installs: PackageInstallTable;
  artifacts: ArtifactTable;
  tokens: TokenTable;
}
