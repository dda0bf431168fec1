import { parse, serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../graph/common/context';
import { anonymousActor } from '../graph/common/context';
import type { Services } from '../graph/services';
import { sessionCookieName } from '../graph/identity/services/session.service';

/** Who is acting on a request: the console session in its cookie, or nobody. API keys come with the identity issue. */
export function authenticator(services: Services): (request: FastifyRequest) => Promise<Actor> {
  return async (request) => {
    const header = request.headers.cookie;
    const token = header ? parse(header)[sessionCookieName] : undefined;
    if (!token) {
      return anonymousActor;
    }
    return services.sessions.authenticate(token);
  };
}

/** Sets (or, with null, clears) the session cookie: httpOnly, SameSite=Lax, and Secure when served over TLS. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string | null, expiresAt?: Date): void {
  void reply.header(
    'set-cookie',
    serialize(sessionCookieName, token ?? '', {
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      path: '/',
      ...(token === null ? { expires: new Date(0) } : expiresAt ? { expires: expiresAt } : {}),
    }),
  );
}
