import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import * as yup from 'yup';
import { DevIdentityProvider, loadOrCreateSigningKeyPair } from '../../graph/identity/services/dev-identity-provider';
import { defaultSamlSettings, SamlService, samlPaths, type SamlSettings } from '../../graph/identity/services/saml.service';
import type { Services } from '../../graph/services';
import { setSessionCookie } from '../auth';
import { devIdentityProviderRoutes } from './dev-identity-provider.routes';
import { access } from './access';
import { acceptFormBodies } from './form-bodies';
import { defineRoute } from './route';

/** The origin a request came to, from which the default callback and development provider URLs are made. */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
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
