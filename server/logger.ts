import pino, { type Logger } from 'pino';
import { currentRequestId, requestIdLogKey } from './request-context';

export type { Logger };

/** Set on a request's own logger (and so inherited by its children), whose lines carry the id already. */
const boundToRequest = Symbol('gridport.boundToRequest');

/** A request's logger, as Fastify makes it: its bindings name the request id. */
export function requestLogger(parent: Logger, bindings: pino.Bindings, options: pino.ChildLoggerOptions): Logger {
  const child = parent.child(bindings, options);
  Object.defineProperty(child, boundToRequest, { value: true });
  return child;
}

/**
 * Structured JSON logs on standard output (pino); secrets never reach them. A line written while
 * a request is served (server/request-context.ts), by any logger, carries the request's id as
 * `reqId`, as the request's own logger does.
 */
export function createLogger(level: pino.LevelWithSilent, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'gridport' },
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.secret'], censor: '[hidden]' },
      mixin: (_line, _level, logger) => {
        if ((logger as Logger & { [boundToRequest]?: true })[boundToRequest]) {
          return {};
        }
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { [requestIdLogKey]: requestId };
      },
    },
    destination,
  );
}
