/**
 * The error a handler throws to fail its node with a stable code and the step that failed. Any other thrown value
 * becomes `E.RUNNER.FAILURE` with its message.
 */
export class NodeError extends Error {
  override readonly name = 'NodeError';
  constructor(
    /** Stable code, `E.<AREA>.<WHAT>`. */
    readonly code: string,
    message: string,
    readonly options: { step?: string; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }

  /** Which step failed, when the node has several (e.g. `click #submit`). */
  get step(): string | undefined {
    return this.options.step;
  }

  /** Extra data for operators. */
  get details(): Record<string, unknown> | undefined {
    return this.options.details;
  }
}

/** True for a NodeError, including one from another copy of the SDK (packages bundle their own). */
export function isNodeError(err: unknown): err is NodeError {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { name?: unknown }).name === 'NodeError' &&
    typeof (err as { code?: unknown }).code === 'string'
  );
}
