import type { Actor } from '../graph/common/context';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is acting on this request; anonymous until authenticated. */
    actor: Actor;
  }
}
