/**
 * The response envelope of docs/contract.md §2.1: `{data, time}` on success, `{error, time}` on
 * failure, `time` in Unix µs. Rules throw `HttpError` (../errors.ts); the error handler turns it into an envelope.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, isStoreUnavailable, SERVICE_UNAVAILABLE } from '../errors';

const timeOriginUs = performance.timeOrigin * 1000;

/** Server clock as Unix microseconds (the envelope's `time`). */
export function nowUs(): number {
  return Math.round(timeOriginUs + performance.now() * 1000);
}

/** The success envelope. `data` is left out when undefined, as Go's omitempty does for nil. */
export function dataEnvelope(data: unknown): { data?: unknown; time: number } {
  return data === undefined ? { time: nowUs() } : { data, time: nowUs() };
}

/** The error envelope. */
export function errorEnvelope(message: string): { error: string; time: number } {
  return { error: message, time: nowUs() };
}

/** Sends `{data, time}` with `status` (200 unless given; 201 for create). */
export function sendData<T>(reply: FastifyReply, data: T extends PromiseLike<unknown> ? never : T, status = 200): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(dataEnvelope(data));
}

/** Sends 204 without a body (successful mutations without data). */
export function sendNoContent(reply: FastifyReply): FastifyReply {
  return reply.code(204).send();
}

/**
 * The global error handler: contract errors keep their status and text; Fastify's own 4xx errors
 * (bad JSON, empty body, body too large) become envelopes with a short text; anything else is a 500
 * whose details go to the log only, never to the client.
 */
export function handleError(error: FastifyError | HttpError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    if (error.status >= 500) request.log.error({ err: error.cause ?? error }, error.message);
    return reply.code(error.status).type('application/json; charset=utf-8').send(errorEnvelope(error.message));
  }
  const fastifyError = error as FastifyError;
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    let message = error.message;
    if (fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') message = 'EOF';
    else if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') message = 'request body is too large';
    else if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') message = 'unsupported content type';
    return reply.code(status).type('application/json; charset=utf-8').send(errorEnvelope(message));
  }
  // A store that did not answer within its deadline: say so at once, rather than 500 or a hang.
  if (isStoreUnavailable(error)) {
    request.log.warn({ err: error }, 'a store did not answer');
    return reply.code(503).header('retry-after', '5').type('application/json; charset=utf-8').send(errorEnvelope(SERVICE_UNAVAILABLE));
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).type('application/json; charset=utf-8').send(errorEnvelope('internal server error'));
}
