/**
 * The time the HTTP server gives a client (docs/operations.md, "What the server bounds"): the
 * request's headers must arrive within `headersTimeoutMs` of its first byte (or of the
 * connection's opening), the whole request, body included, within `requestTimeoutMs`; an idle
 * kept-alive connection is closed after `keepAliveTimeoutMs`. A request that does not arrive in
 * time is answered 400 payload_not_readable and its connection closed. server/config.ts reads
 * them from HTTP_HEADERS_TIMEOUT_SECONDS, HTTP_REQUEST_TIMEOUT_SECONDS and
 * HTTP_KEEP_ALIVE_TIMEOUT_SECONDS; tests give short ones to buildApp.
 */
export interface HttpBounds {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

export const defaultHttpBounds: HttpBounds = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  // Longer than the idle timeout of common load balancers (60 s), so they close first.
  keepAliveTimeoutMs: 72_000,
};
