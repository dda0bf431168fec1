import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { GridportError, type ErrorKey } from '../contracts/errors';
import { infrastructureError } from '../graph/common/infrastructure-errors';

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

/**
 * The longest path parameter the router takes: as long as a request head may be (Node refuses a
 * longer head first), so that every route's own schema judges its parameters (params_invalid,
 * "hashId must be at most 64 characters"), whether or not a catch-all route is mounted.
 */
export const maxPathParameterLength = 16 * 1024;

/** Sockets the server itself closed (a request that did not arrive in time): their loss is not the client's hang-up. */
const closedByServer = new WeakSet<object>();

export function markClosedByServer(socket: object): void {
  closedByServer.add(socket);
}

/**
 * Whether the client went away before the answer was complete: its connection is gone. (The
 * request stream's own `destroyed` says only that its body was read to the end.)
 */
export function clientClosed(request: FastifyRequest): boolean {
  const socket = request.raw.socket as FastifyRequest['raw']['socket'] | null | undefined;
  return socket !== null && socket !== undefined && socket.destroyed && !closedByServer.has(socket);
}

function closedForTimeout(request: FastifyRequest): boolean {
  const socket = request.raw.socket as FastifyRequest['raw']['socket'] | null | undefined;
  return socket !== null && socket !== undefined && closedByServer.has(socket);
}

/** Errors that only say the client's connection broke while its request was read. */
function isConnectionLoss(error: Partial<FastifyError>): boolean {
  return error.code === 'ECONNRESET' || error.code === 'ECONNABORTED' || error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'aborted';
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
  if (fastifyError.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new GridportError('params_invalid', [{ path: '', message: `a path parameter must be at most ${maxPathParameterLength} characters` }]);
  }
  if (isConnectionLoss(fastifyError) && closedForTimeout(request)) {
    // Already answered by the server's client error handler (app.ts); this answer reaches nobody.
    return new GridportError('payload_not_readable', { reason: 'the request did not arrive in time' });
  }
  if (isConnectionLoss(fastifyError) && clientClosed(request)) {
    return new GridportError('client_closed_request');
  }
  // Errors raised while reading the body stream (a broken chunked encoding, a bad charset).
  if (fastifyError.type === 'entity.parse.failed' || fastifyError.type === 'stream.encoding.set' || fastifyError.code === 'ERR_STRING_TOO_LONG') {
    return new GridportError('payload_not_readable');
  }
  const infrastructure = infrastructureError(error);
  if (infrastructure) {
    request.log.error({ err: error }, infrastructure.logMessage);
    return infrastructure.error;
  }
  request.log.error({ err: error }, 'unexpected error');
  // Nobody reads the answer of a client that is gone; the error is logged all the same.
  return new GridportError(clientClosed(request) ? 'client_closed_request' : 'internal_server_error');
}

export function sendError(error: GridportError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.key === 'client_closed_request') {
    request.log.warn({ statusCode: 499, key: error.key }, 'client closed request');
  }
  return reply.code(error.status).type('application/json; charset=utf-8').send(error.toBody());
}
