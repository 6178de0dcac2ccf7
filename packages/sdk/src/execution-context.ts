/** Severity of a log line a handler writes through its context. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Structured logger handed to a node handler; lines are streamed to the scheduler as `feedback`. */
export interface NodeLogger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/**
 * A reference to a live object (a browser page, a file) held by one worker. It travels through port bindings
 * like any value; a node whose parameters contain one is pinned to that worker by the scheduler.
 */
export interface ResourceRef {
  $resource: {
    /** Worker that holds the object. */
    workerId: string;
    /** Id of the object in that worker's run-scoped resource table. */
    id: string;
    /** What it is, e.g. `playwright.page`. */
    type: string;
  };
}

/** Run-scoped resources of the worker: objects that outlive one node and die with the run. */
export interface RunResources {
  /** Store `value` and return a reference that later nodes of the same run can pass back to `get`. */
  put(type: string, value: unknown, dispose?: () => Promise<void> | void): ResourceRef;
  /** Resolve a reference made by `put` in the same run on this worker; throws `E.RESOURCE.NOT_FOUND` otherwise. */
  get<T = unknown>(ref: ResourceRef | unknown, type?: string): T;
}

/**
 * Browser access for Playwright nodes. `context()` returns the run's BrowserContext (created on first use, fresh
 * cookies per run, closed when the run's resources are released). Typed loosely so the SDK does not depend on
 * Playwright; node packages cast to `import('playwright-core').BrowserContext`.
 */
export interface BrowserAccess {
  context(): Promise<unknown>;
  /** A fresh page in the run's context, taken from the worker's warm pool when one is ready. */
  newPage(): Promise<unknown>;
}

/** Everything a handler gets for one attempt of one node. */
export interface ExecutionContext<P = Record<string, unknown>> {
  runId: string;
  taskId: string;
  nodeId: string;
  attempt: number;
  tenant: string;
  workerId: string;
  /** Node type, e.g. `playwright.click`. */
  nodeType: string;
  /** Resolved parameters: the node's own, with values bound from upstream output ports. */
  parameters: P;
  /** Fires on cancel or timeout; handlers pass it on to whatever they await. */
  signal: AbortSignal;
  log: NodeLogger;
  /** Report progress between 0 and 1. */
  progress(fraction: number, message?: string): void;
  resources: RunResources;
  browser: BrowserAccess;
}

/** A node implementation: takes the context and returns the node's `results` object. */
export type NodeHandler<P = Record<string, unknown>, R extends Record<string, unknown> = Record<string, unknown>> = (
  ctx: ExecutionContext<P>,
) => Promise<R> | R;
