import { GridportError } from '../../contracts/errors';

/**
 * Whether an error says the disk is full: PostgreSQL's (and PGlite's) SQLSTATE 53100 disk_full,
 * as when a table or WAL file cannot grow, or a file write's ENOSPC.
 */
export function isDiskFull(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) {
    return false;
  }
  // Objection wraps the driver's error (nativeError); others keep it as the cause.
  const { code, nativeError, cause } = error as { code?: unknown; nativeError?: unknown; cause?: unknown };
  return code === '53100' || code === 'ENOSPC' || isDiskFull(nativeError, depth + 1) || isDiskFull(cause, depth + 1);
}

/** SQLSTATEs of a database that is away, stopping or starting: connection exceptions (class 08) and operator intervention (57P01-57P03). */
const unavailableStates = new Set(['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03']);
/** Node's codes for a server that refuses the connection or cannot be reached (the database's pool meets these while it is away). */
const unreachableCodes = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Why a dependency is unavailable, when the error says one is: the database stopped,
 * restarting or its connection broken (its SQLSTATE, pg's broken connection, no pooled
 * connection within knex's acquire timeout), or a connection refused; null for anything else.
 */
export function unavailableDependency(error: unknown, depth = 0): string | null {
  if (typeof error !== 'object' || error === null || depth > 3) {
    return null;
  }
  const { code, name, message, nativeError, cause } = error as { code?: unknown; name?: unknown; message?: unknown; nativeError?: unknown; cause?: unknown };
  if ((typeof code === 'string' && unavailableStates.has(code)) || name === 'KnexTimeoutError' || message === 'Connection terminated unexpectedly') {
    return 'the database is unavailable';
  }
  if (typeof code === 'string' && unreachableCodes.has(code)) {
    return 'a service Gridport depends on cannot be reached';
  }
  return unavailableDependency(nativeError, depth + 1) ?? unavailableDependency(cause, depth + 1);
}

/**
 * The catalogue's answer to a failure of what Gridport stands on rather than of the request (the
 * database away, a full disk), with the line to log; null for any other error. REST
 * (server/errors.ts) and GraphQL (resolvers/subgraph.ts) answer these alike.
 */
export function infrastructureError(error: unknown): { error: GridportError; logMessage: string } | null {
  const unavailable = unavailableDependency(error);
  if (unavailable) {
    return {
      error: new GridportError('service_unavailable', { reason: unavailable }),
      logMessage: `${unavailable}: requests that need it are refused until it answers`,
    };
  }
  if (isDiskFull(error)) {
    return { error: new GridportError('disk_full'), logMessage: 'the disk is full: writes are refused until space is freed' };
  }
  return null;
}
