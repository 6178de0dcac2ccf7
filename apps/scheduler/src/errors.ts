/** Every scheduler error code with its HTTP status and one-line meaning (docs/errors.md repeats them). */
export const SCHEDULER_ERROR_CODES = {
  'E.API.BAD_REQUEST': { status: 400, description: 'The request body, query or path is malformed.' },
  'E.API.NOT_FOUND': { status: 404, description: 'No such route.' },
  'E.API.BODY_TOO_LARGE': { status: 413, description: 'The request body is larger than the limit.' },
  'E.API.UNSUPPORTED_MEDIA_TYPE': { status: 415, description: 'The request body is not application/json.' },
  'E.API.INTERNAL': { status: 500, description: 'An unexpected error; the log has the details under the request id.' },
  'E.API.UNAVAILABLE': { status: 503, description: 'The database does not answer.' },
  'E.AUTH.MISSING_TOKEN': { status: 401, description: 'No `Authorization: Bearer` token was presented.' },
  'E.AUTH.INVALID_TOKEN': { status: 401, description: 'The token is unknown, revoked, expired or of the wrong kind.' },
  'E.RUN.NOT_FOUND': { status: 404, description: 'No run with that id in this tenant.' },
  'E.RUN.IDEMPOTENCY_CONFLICT': { status: 409, description: 'The Idempotency-Key was already used with a different body.' },
  'E.WORKFLOW.INVALID': { status: 400, description: 'The workflow definition has one or more problems (listed in `details.problems`).' },
  'E.DISPATCH.WORKER_LOST': { status: 500, description: 'The worker holding an attempt went away; the attempt is requeued.' },
  'E.RESOURCE.LOST': { status: 500, description: 'The worker holding live resources a node needs (e.g. its browser page) went away; the node fails.' },
  'E.RUN.CANCELLED': { status: 409, description: 'The node was cancelled because its run ended (failed or cancelled) first.' },
  'E.CONFIG.INVALID': { status: 500, description: 'A configuration variable is missing or malformed; the message names it.' },
} as const;

/** A scheduler error code. */
export type SchedulerErrorCode = keyof typeof SCHEDULER_ERROR_CODES;

/** An error that maps to one HTTP answer with the common body `{statusCode, code, error, message, details?}`. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: SchedulerErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** HTTP status for this code. */
  get statusCode(): number {
    return SCHEDULER_ERROR_CODES[this.code].status;
  }
}
