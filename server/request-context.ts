import type { Actor } from '../graph/common/context';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is acting on this request; anonymous until authenticated. */
    actor: Actor;
    /** The client's address: the socket's, or from X-Forwarded-For behind a trusted proxy (TRUSTED_PROXIES). */
    clientAddress: string;
  }
}
