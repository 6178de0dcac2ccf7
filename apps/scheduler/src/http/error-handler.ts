import type { FastifyError, FastifyInstance } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { ApiError, SCHEDULER_ERROR_CODES, type SchedulerErrorCode } from '../errors.ts';

/** The one error body shape of the API. */
export interface ErrorBody {
  statusCode: number;
  code: string;
  error: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Build the error body for a code. */
export function errorBody(code: SchedulerErrorCode, message: string, details?: Record<string, unknown>): ErrorBody {
  const statusCode = SCHEDULER_ERROR_CODES[code].status;
  const body: ErrorBody = { statusCode, code, error: STATUS_CODES[statusCode] ?? 'Error', message };
  if (details !== undefined) body.details = details;
  return body;
}

const fastifyCodes: Record<string, SchedulerErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'E.API.BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'E.API.UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'E.API.BAD_REQUEST',
  FST_ERR_CTP_INVALID_JSON_BODY: 'E.API.BAD_REQUEST',
  FST_ERR_VALIDATION: 'E.API.BAD_REQUEST',
};

/** Map every error to the common body; unknown errors are logged and answered as E.API.INTERNAL. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
    if (err instanceof ApiError) {
      return reply.code(err.statusCode).send(errorBody(err.code, err.message, err.details));
    }
    const mapped = (err as FastifyError).code ? fastifyCodes[(err as FastifyError).code] : undefined;
    if (mapped) return reply.code(SCHEDULER_ERROR_CODES[mapped].status).send(errorBody(mapped, err.message));
    if (typeof (err as FastifyError).statusCode === 'number' && (err as FastifyError).statusCode! < 500) {
      return reply.code((err as FastifyError).statusCode!).send(errorBody('E.API.BAD_REQUEST', err.message));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send(errorBody('E.API.INTERNAL', `internal error (request ${request.id})`));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody('E.API.NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`));
  });
}
