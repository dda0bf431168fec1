import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import * as yup from 'yup';
import { GridportError } from '../../contracts/errors';
import { limits } from '../../contracts/limits';
import { DevIdentityProvider, loadOrCreateSigningKeyPair } from '../../graph/identity/services/dev-identity-provider';
import { defaultSamlSettings, SamlService, samlPaths, type SamlSettings } from '../../graph/identity/services/saml.service';
import type { Services } from '../../graph/services';
import { setSessionCookie } from '../auth';
import { devIdentityProviderRoutes } from './dev-identity-provider.routes';
import { access } from './access';
import { defineRoute } from './route';

const formContentType = 'application/x-www-form-urlencoded';

/** The origin a request came to, from which the default callback and development provider URLs are made. */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * Parses an application/x-www-form-urlencoded body into single string values. A bad
 * percent-escape or a repeated field is url_encoded_body_invalid.
 */
export function parseFormBody(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const pair of text.split('&').filter((part) => part !== '')) {
    const separator = pair.indexOf('=');
    const [rawName, rawValue] = separator === -1 ? [pair, ''] : [pair.slice(0, separator), pair.slice(separator + 1)];
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      throw new GridportError('url_encoded_body_invalid', { reason: 'a field is not correctly percent-encoded' });
    }
    if (Object.prototype.hasOwnProperty.call(fields, name)) {
      throw new GridportError('url_encoded_body_invalid', { reason: `the field ${name} is repeated` });
    }
    fields[name] = value;
  }
  return fields;
}

/**
 * Routes in this scope take URL-encoded form bodies (the SAML HTTP-POST binding) and nothing
 * else; the rest of the app keeps its JSON-only parser.
 */
function acceptFormBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(formContentType, { parseAs: 'string', bodyLimit: limits.payloadBytes }, (_request, body, done) => {
    try {
      done(null, parseFormBody(typeof body === 'string' ? body : body.toString('utf8')));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: limits.payloadBytes }, (request, _body, done) => {
    done(
      new GridportError('url_encoded_body_invalid', { reason: `the body must be ${formContentType}, not ${request.headers['content-type'] ?? 'untyped'}` }),
      undefined,
    );
  });
}

/** Staff sign-in with SAML (console.md section 7): the login redirect and the assertion consumer service. */
export function samlRoutes(app: FastifyInstance, services: Services, saml: SamlService): void {
  defineRoute(app, services, {
    method: 'GET',
    url: samlPaths.login,
    summary: 'Staff sign-in: redirect to the identity provider with the relay state',
    tags: ['saml'],
    ...access('staff.signIn'),
    query: yup.object({ relayState: yup.string().optional() }),
    handler: async ({ query, request, reply }) => reply.redirect(await saml.loginUrl(query.relayState, requestOrigin(request)), 302),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: samlPaths.acs,
    summary: 'Staff sign-in: the identity provider posts its signed response here; answers 303 to the relay state with a session cookie',
    tags: ['saml'],
    ...access('staff.signIn'),
    handler: async ({ request, reply }) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const { session, relayState } = await saml.signIn(body, requestOrigin(request));
      setSessionCookie(request, reply, session.token, session.expiresAt);
      return reply.redirect(relayState, 303);
    },
  });
}

/**
 * Mounts staff SAML sign-in in its own scope (form bodies), with the development identity
 * provider when no provider is configured and it is enabled.
 */
export function samlPlugin(services: Services, settings: SamlSettings = defaultSamlSettings): FastifyPluginAsync {
  return async (scope) => {
    acceptFormBodies(scope);
    const devIdentityProvider =
      settings.entryPoint === null && settings.devIdentityProvider
        ? new DevIdentityProvider(await loadOrCreateSigningKeyPair(settings.devIdentityProviderKeyFile))
        : null;
    const saml = new SamlService(settings, devIdentityProvider?.certificate ?? settings.idpCert, services.users, services.sessions, services.samlRequests);
    samlRoutes(scope, services, saml);
    if (devIdentityProvider) {
      devIdentityProviderRoutes(scope, services, devIdentityProvider, saml);
    }
  };
}
