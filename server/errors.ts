import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { GridportError, type ErrorKey } from '../contracts/errors';

/** Fastify's own errors that are the client's doing, and the catalogue key each becomes. */
const fastifyErrorKeys: Partial<Record<string, ErrorKey>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'payload_not_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'payload_not_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'payload_not_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'payload_not_readable',
  FST_ERR_CTP_INVALID_TYPE: 'payload_not_readable',
  FST_ERR_CTP_EMPTY_TYPE: 'payload_not_readable',
  FST_ERR_BAD_URL: 'not_found',
  FST_ERR_ASYNC_CONSTRAINT: 'not_found',
};

/** Whether the client went away before the answer was complete. */
export function clientClosed(request: FastifyRequest): boolean {
  return request.raw.destroyed || request.raw.socket?.destroyed === true;
}

/**
 * The one mapping of any error to an HTTP answer `{ key, details }` with the catalogue status.
 * Unknown errors are logged with their stack and answered as internal_server_error, without internals.
 */
export function toGridportError(error: unknown, request: FastifyRequest): GridportError {
  if (error instanceof GridportError) {
    return error;
  }
  const fastifyError = error as Partial<FastifyError> & { type?: string };
  const mapped = fastifyError.code ? fastifyErrorKeys[fastifyError.code] : undefined;
  if (mapped) {
    return new GridportError(mapped, undefined, fastifyError.message);
  }
  if (fastifyError.code === 'ECONNRESET' || fastifyError.message === 'aborted' || clientClosed(request)) {
    return new GridportError('client_closed_request');
  }
  // Errors raised while reading the body stream (a broken chunked encoding, a bad charset).
  if (fastifyError.type === 'entity.parse.failed' || fastifyError.type === 'stream.encoding.set' || fastifyError.code === 'ERR_STRING_TOO_LONG') {
    return new GridportError('payload_not_readable');
  }
  request.log.error({ err: error }, 'unexpected error');
  return new GridportError('internal_server_error');
}

export function sendError(error: GridportError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.key === 'client_closed_request') {
    request.log.warn({ statusCode: 499, key: error.key }, 'client closed request');
  }
  return reply.code(error.status).type('application/json; charset=utf-8').send(error.toBody());
}
