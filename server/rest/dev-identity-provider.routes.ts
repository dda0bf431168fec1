import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { GridportError } from '../../contracts/errors';
import { readAuthnRequest, type DevIdentityProvider } from '../../graph/identity/services/dev-identity-provider';
import { samlPaths, type SamlService } from '../../graph/identity/services/saml.service';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const hidden = (name: string, value: string) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

/**
 * The development identity provider's single sign-on endpoint (HTTP-Redirect binding in,
 * HTTP-POST binding out). It answers only AuthnRequests from this Gridport, to its own ACS.
 */
export function devIdentityProviderRoutes(app: FastifyInstance, services: Services, provider: DevIdentityProvider, saml: SamlService): void {
  defineRoute(app, services, {
    method: 'GET',
    url: samlPaths.devIdentityProvider,
    summary: 'Development identity provider: choose a staff email, then post a signed SAML response to the ACS',
    tags: ['saml'],
    ...access('staff.signIn'),
    query: yup.object({
      SAMLRequest: yup.string().required(),
      RelayState: yup.string().optional(),
      email: yup.string().trim().email().optional(),
    }),
    handler: async ({ query, request, reply }) => {
      const authnRequest = readAuthnRequest(query.SAMLRequest);
      const acs = saml.callbackUrl(`${request.protocol}://${request.host}`);
      if (authnRequest.assertionConsumerServiceUrl !== acs || authnRequest.issuer !== saml.entityId) {
        throw new GridportError('saml2_request_validation_failed', { reason: 'the AuthnRequest is not from this Gridport' });
      }
      const relayState = query.RelayState ?? '';
      void reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      if (!query.email) {
        return reply.send(
          page(
            'Gridport development sign-in',
            `<h1>Development identity provider</h1><p>Sign in as a staff user of the provider organisation.</p>` +
              `<form method="get" action="${escapeHtml(samlPaths.devIdentityProvider)}">` +
              hidden('SAMLRequest', query.SAMLRequest) +
              hidden('RelayState', relayState) +
              `<label>Email <input type="email" name="email" required autofocus></label> <button type="submit">Sign in</button></form>`,
          ),
        );
      }
      return reply.send(
        page(
          'Signing in…',
          `<form id="saml" method="post" action="${escapeHtml(acs)}">` +
            hidden('SAMLResponse', provider.respond(authnRequest, query.email)) +
            hidden('RelayState', relayState) +
            `<noscript><button type="submit">Continue</button></noscript></form>` +
            `<script>document.getElementById('saml').submit();</script>`,
        ),
      );
    },
  });
}
