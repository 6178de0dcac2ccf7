// DO NOT EDIT. Generated from schema/ws/*.schema.json by `pnpm gen` (scripts/gen.ts).
// `pnpm gen:check` (part of the test command) fails when this file is stale.

export type MessageType =
  | 'handshake'
  | 'register'
  | 'heartbeat'
  | 'ack'
  | 'cmd.dispatch'
  | 'cmd.cancel'
  | 'cmd.drain'
  | 'result'
  | 'feedback'
  | 'command.error'
  | 'pkg.install'
  | 'pkg.uninstall'
  | 'pkg.event'
  | 'error';

/**
 * Every WebSocket frame between scheduler and worker. The payload is validated by the schema named after `type`.
 */
export interface Envelope {
  type: MessageType;
  /**
   * Unique frame id (UUID). A resent frame keeps its id; receivers dedupe by it.
   */
  id: string;
  /**
   * Sender's clock, RFC 3339.
   */
  ts: string;
  tenant: string;
  sender: Sender;
  /**
   * Correlation id: the task id or command this frame belongs to.
   */
  corr?: string;
  /**
   * Per-session sequence number of the sender.
   */
  seq?: number;
  ack?: AckField;
  payload: {
    [k: string]: unknown;
  };
}

export interface Sender {
  role: 'scheduler' | 'worker';
  id: string;
}

export interface AckField {
  /**
   * Id of the frame this frame acknowledges.
   */
  for?: string;
  /**
   * The sender wants an `ack` frame for this one and resends it until it gets one.
   */
  request?: boolean;
}

/**
 * Definitions shared by several messages.
 */
export interface Common {
  [k: string]: unknown;
}

/**
 * Acknowledges the frame named in the envelope's `ack.for`. `duplicate` says the frame was seen before and not applied again.
 */
export interface AckPayload {
  status: 'ok' | 'duplicate' | 'stale';
}

/**
 * Scheduler → worker (with ack.request): abort an attempt; the handler's AbortSignal fires.
 */
export interface CancelPayload {
  run_id: string;
  task_id: string;
  attempt: number;
  reason: string;
}

/**
 * Scheduler → worker (with ack.request): run one attempt of one node. Sent only after the task row says `dispatched`.
 */
export interface DispatchPayload {
  run_id: string;
  task_id: string;
  node_id: string;
  attempt: number;
  dispatch_id: string;
  node: DispatchNode;
  parameters: {
    [k: string]: unknown;
  };
  timeout_ms: number;
}

export interface DispatchNode {
  type: string;
  package: PackageRef;
  label?: string;
}

export interface PackageRef {
  name: string;
  version: string;
}

/**
 * Scheduler → worker (with ack.request): take no new work, finish what is running.
 */
export interface DrainPayload {
  reason: string;
  deadline_ms?: number;
}

/**
 * Worker → scheduler (with ack.request): a command could not be taken at all (no handler, over capacity, draining). The attempt did not start.
 */
export interface CommandErrorPayload {
  command_id: string;
  command_type: 'cmd.dispatch' | 'cmd.cancel' | 'cmd.drain' | 'pkg.install' | 'pkg.uninstall';
  run_id?: string;
  task_id?: string;
  attempt?: number;
  dispatch_id?: string;
  code: string;
  message: string;
}

/**
 * Either side: a frame was refused (bad JSON, too big, unknown type, schema violation, not allowed now). `for` names the refused frame when its id could be read.
 */
export interface ErrorPayload {
  code: string;
  message: string;
  for?: string;
  /**
   * JSON pointer to the offending part of the frame.
   */
  pointer?: string;
  /**
   * The sender closes the socket after this frame.
   */
  fatal?: boolean;
}

/**
 * Worker → scheduler: a log line or progress update from a running attempt (best effort, no ACK).
 */
export interface FeedbackPayload {
  run_id: string;
  task_id: string;
  node_id: string;
  attempt: number;
  kind: 'log' | 'progress';
  level?: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  progress?: number;
  data?: {
    [k: string]: unknown;
  };
}

/**
 * First frame each way. The worker says hello with the protocol versions it speaks; the scheduler answers welcome with the chosen version and session parameters.
 */
export type HandshakePayload = HandshakeHello | HandshakeWelcome;

export interface HandshakeHello {
  kind: 'hello';
  /**
   * @minItems 1
   * @maxItems 16
   */
  protocols: [number, ...number[]];
  worker_id: string;
  worker_version: string;
}

export interface HandshakeWelcome {
  kind: 'welcome';
  protocol: number;
  session_id: string;
  heartbeat_interval_ms: number;
  ack_timeout_ms: number;
  max_payload_bytes: number;
}

/**
 * Worker → scheduler every heartbeat interval.
 */
export interface HeartbeatPayload {
  state: 'idle' | 'busy' | 'draining';
  running: number;
  rss_bytes?: number;
  load1?: number;
}

/**
 * Worker → scheduler (with ack.request): progress and outcome of a package install or uninstall.
 */
export interface PkgEventPayload {
  name: string;
  version: string;
  status: 'installing' | 'installed' | 'failed' | 'uninstalled';
  error?: ErrorInfo;
}

export interface ErrorInfo {
  code: string;
  message: string;
  /**
   * Which step of the node failed (e.g. `click #submit`).
   */
  step?: string;
  details?: {
    [k: string]: unknown;
  };
}

/**
 * Scheduler → worker (with ack.request): fetch, verify and install a package version.
 */
export interface PkgInstallPayload {
  name: string;
  version: string;
  url: string;
  sha256: string;
  size: number;
  signature?: string;
}

/**
 * Scheduler → worker (with ack.request): remove one installed version; other versions stay.
 */
export interface PkgUninstallPayload {
  name: string;
  version: string;
}

/**
 * Worker → scheduler after the handshake (with ack.request): what it can run, and what it is still running, so a reconnect can be reconciled.
 */
export interface RegisterPayload {
  name: string;
  capacity: {
    max_parallel: number;
  };
  labels: {
    [k: string]: string;
  };
  /**
   * @maxItems 1000
   */
  packages: InstalledPackage[];
  runtime: RuntimeContext;
  /**
   * Tasks the worker holds: `running` (handler still executing) or `completed` (result not yet ACKed; it will be resent).
   *
   * @maxItems 1024
   */
  inflight: InflightTask[];
}

export interface InstalledPackage {
  name: string;
  version: string;
  sha256?: string;
  /**
   * @maxItems 1000
   */
  nodes: string[];
}

export interface RuntimeContext {
  os: string;
  arch: string;
  node: string;
  hostname?: string;
  chromium?: string;
  playwright?: string;
}

export interface InflightTask {
  run_id: string;
  task_id: string;
  attempt: number;
  dispatch_id: string;
  state: 'running' | 'completed';
}

/**
 * Worker → scheduler (with ack.request): the outcome of one attempt, fenced by task id, attempt and dispatch id. ACKed only after it is committed.
 */
export interface ResultPayload {
  run_id: string;
  task_id: string;
  node_id: string;
  attempt: number;
  dispatch_id: string;
  status: 'succeeded' | 'failed';
  results?: {
    [k: string]: unknown;
  };
  error?: ErrorInfo;
  timings: ResultTimings;
}

export interface ResultTimings {
  started_at: string;
  finished_at: string;
  duration_ms: number;
}

/** Payload type of each message type. */
export interface PayloadMap {
  'ack': AckPayload;
  'cmd.cancel': CancelPayload;
  'cmd.dispatch': DispatchPayload;
  'cmd.drain': DrainPayload;
  'command.error': CommandErrorPayload;
  'error': ErrorPayload;
  'feedback': FeedbackPayload;
  'handshake': HandshakePayload;
  'heartbeat': HeartbeatPayload;
  'pkg.event': PkgEventPayload;
  'pkg.install': PkgInstallPayload;
  'pkg.uninstall': PkgUninstallPayload;
  'register': RegisterPayload;
  'result': ResultPayload;
}
