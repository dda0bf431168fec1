import type { Actor } from './common/context';
import type { Services } from './services';

/** What the HTTP request under a GraphQL operation offers its resolvers. */
export interface GraphqlTransport {
  /** The address the request came from (forwarded-for only from trusted proxies), for login throttling. */
  clientAddress: string;
  /** Sets (a token) or clears (null) the console session cookie on the HTTP answer. */
  setSessionCookie(token: string | null, expiresAt?: Date): void;
}

/** What every GraphQL resolver of every subgraph receives: who is acting, the services and the transport. */
export interface GraphqlContext {
  actor: Actor;
  services: Services;
  transport: GraphqlTransport;
}

/** The transport of an operation run in process, without HTTP: there is no cookie to set. */
export function inProcessTransport(clientAddress = '127.0.0.1'): GraphqlTransport {
  return { clientAddress, setSessionCookie: () => undefined };
}
