import { parse, serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { Actor } from '../graph/common/context';
import { anonymousActor } from '../graph/common/context';
import type { Services } from '../graph/services';
import { sessionCookieName } from '../graph/identity/services/session.service';

/** Whether `address` is one of the trusted proxies (single addresses or CIDR ranges, IPv4 or IPv6). */
function isTrustedProxy(address: string, trustedProxies: readonly string[]): boolean {
  if (!ipaddr.isValid(address)) {
    return false;
  }
  const parsed = ipaddr.process(address);
  return trustedProxies.some((entry) => {
    if (!entry.includes('/')) {
      return ipaddr.process(entry).toNormalizedString() === parsed.toNormalizedString();
    }
    const range = ipaddr.parseCIDR(entry);
    return range[0].kind() === parsed.kind() && parsed.match(range);
  });
}

/**
 * The address of the client: the socket's, unless the socket is a trusted proxy; then the
 * right-most X-Forwarded-For entry that is not itself a trusted proxy. Entries left of it
 * are the client's own say and are not believed.
 */
export function clientAddress(request: Pick<FastifyRequest, 'socket' | 'headers'>, trustedProxies: readonly string[]): string {
  let address = request.socket.remoteAddress ?? '';
  if (!isTrustedProxy(address, trustedProxies)) {
    return address;
  }
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  while (forwarded.length > 0 && isTrustedProxy(address, trustedProxies)) {
    address = forwarded.pop() ?? address;
  }
  return address;
}

const bearer = /^Bearer\s+(\S+)\s*$/i;

/**
 * Who is acting on a request: an API key (`Authorization: Bearer <key or signed JWT>`), the
 * console session in its cookie, or nobody. A refused credential leaves an anonymous actor
 * carrying the reason, answered only where a route needs someone.
 */
export function authenticator(services: Services): (request: Pick<FastifyRequest, 'headers' | 'clientAddress'>) => Promise<Actor> {
  return async (request) => {
    const authorization = request.headers.authorization;
    if (authorization !== undefined) {
      const token = bearer.exec(authorization)?.[1];
      if (!token) {
        return { ...anonymousActor, rejection: 'unauthorized' };
      }
      return services.apiKeys.authenticate(token, request.clientAddress);
    }
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
