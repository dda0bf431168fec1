import { errorCatalogue, isErrorKey, type ErrorKey } from '../../../contracts/errors';

/**
 * How the console sorts a failed call (console.md section 8, "Client mapping"): by status for
 * the statuses screens treat alike, otherwise a response error with the catalogue's key;
 * a network failure is a request error, a cancelled call a cancelled error, and an answer
 * with neither a known status nor a known key an unknown response.
 */
export type ApiErrorKind =
  'unauthorized' | 'forbidden' | 'notFound' | 'payloadTooLarge' | 'rateLimited' | 'response' | 'request' | 'cancelled' | 'unknownResponse';

const kindByStatus: Partial<Record<number, ApiErrorKind>> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'notFound',
  413: 'payloadTooLarge',
  429: 'rateLimited',
};

const knownStatuses = new Set<number>(Object.values(errorCatalogue).map((entry) => entry.status));

/** A failed call of the console: REST or GraphQL alike. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** The HTTP status; 0 when no answer came. */
  readonly status: number;
  /** The catalogue key of the answer, when it had one. */
  readonly key: ErrorKey | null;
  readonly details: unknown;

  constructor(kind: ApiErrorKind, status: number, key: ErrorKey | null, details?: unknown, message?: string) {
    super(message ?? (key === null ? `${kind} (${status})` : errorCatalogue[key].message));
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.key = key;
    this.details = details;
  }

  /** Whether this answer carries `key` (a route error a screen handles itself). */
  is(key: ErrorKey): boolean {
    return this.key === key;
  }
}

/** The error of an answer with this status and body ({ key, details } for Gridport's answers). */
export function apiErrorFromResponse(status: number, body: unknown): ApiError {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const key = isErrorKey(record.key) ? record.key : null;
  const details = record.details;
  if (key === null && !knownStatuses.has(status)) {
    return new ApiError('unknownResponse', status, null, body);
  }
  return new ApiError(kindByStatus[status] ?? 'response', status, key, details);
}

/** The error of a GraphQL answer whose first error has `extensions.code`. */
export function apiErrorFromGraphql(code: unknown, details: unknown, message: string): ApiError {
  if (!isErrorKey(code)) {
    return new ApiError('unknownResponse', 200, null, details, message);
  }
  return apiErrorFromResponse(errorCatalogue[code].status, { key: code, details });
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The 401 keys that mean the session is gone (not a wrong password or a missing code). */
export function isSessionFailure(error: ApiError): boolean {
  return error.kind === 'unauthorized' && (error.key === null || error.key === 'unauthorized' || error.key === 'jwt_expired');
}
