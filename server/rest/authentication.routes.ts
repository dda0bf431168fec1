import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { organizationViewSchema } from '../../contracts/organization';
import { rights } from '../../contracts/rights';
import type { Services } from '../../graph/services';
import { setSessionCookie } from '../auth';
import { access } from './access';
import { defineRoute } from './route';

const base = '/console-shared/v1/authentication';

/** The shared console's session calls (console.md section 7). */
export function authenticationRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'GET',
    url: `${base}/whoami`,
    summary: 'The signed-in user and their organisation',
    tags: ['authentication'],
    ...access('session.whoami'),
    response: yup.object({
      user: yup.object({
        hashId: yup.string().required(),
        email: yup.string().required(),
        name: yup.string().required(),
        rights: yup.array(yup.string().oneOf(rights).required()).required(),
      }),
      organization: organizationViewSchema,
    }),
    handler: ({ actor }) => services.sessions.whoami(actor),
  });

  defineRoute(app, services, {
    method: 'DELETE',
    url: `${base}/session`,
    summary: 'Sign out: end this console session',
    tags: ['authentication'],
    ...access('session.logout'),
    status: 204,
    handler: async ({ actor, request, reply }) => {
      await services.sessions.revoke(actor);
      setSessionCookie(request, reply, null);
    },
  });
}
