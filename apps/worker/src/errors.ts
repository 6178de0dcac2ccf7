/** Every worker-side error code (sent in results and command.error frames), with its meaning for docs/errors.md. */
export const WORKER_ERROR_CODES = {
  'E.RUNNER.FAILURE': 'The node handler threw something that is not a NodeError; the message is kept.',
  'E.RUNNER.TIMEOUT': "The attempt ran longer than its timeout; its AbortSignal fired.",
  'E.RUNNER.ABORTED': 'The attempt was cancelled by the scheduler.',
  'E.RUNNER.INVALID_PARAMETERS': "The node's parameters do not match its package's `schema.parameters`; the message names the parameter.",
  'E.RUNNER.BAD_RESULT': 'The handler returned something that is not a plain JSON object.',
  'E.RUNNER.NO_HANDLER': 'No installed package provides this node type at this version.',
  'E.WORKER.BUSY': 'The worker is at max_parallel; the scheduler requeues the attempt.',
  'E.WORKER.DRAINING': 'The worker is draining and takes no new work; the scheduler requeues the attempt.',
  'E.WORKER.NO_BROWSER': 'A node asked for a browser on a worker that loaded no Playwright package.',
  'E.CONFIG.INVALID': 'A configuration variable is missing or malformed; the message names it.',
  'E.PKG.LOAD_FAILED': 'An installed package could not be loaded (bad entrypoint or handler table).',
} as const;

/** A worker error code. */
export type WorkerErrorCode = keyof typeof WORKER_ERROR_CODES;

/** An error raised by the worker runtime itself. */
export class WorkerError extends Error {
  override readonly name = 'WorkerError';
  constructor(
    readonly code: WorkerErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
