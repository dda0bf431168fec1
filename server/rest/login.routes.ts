import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { loginSchema } from '../../contracts/login';
import { organizationViewSchema } from '../../contracts/organization';
import type { Services } from '../../graph/services';
import { setSessionCookie } from '../auth';
import { access } from './access';
import { defineRoute } from './route';

/** POST /console-shared/v1/login (spec README, "Login"): starts a console session. */
export function loginRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: '/console-shared/v1/login',
    summary: 'Sign in with email and password (and a two-factor code or recovery code when two-factor is on)',
    tags: ['authentication'],
    ...access('session.login'),
    body: loginSchema,
    response: yup.object({ user: yup.object(), organization: organizationViewSchema }),
    handler: async ({ body, request, reply }) => {
      const session = await services.logins.login(body, request.clientAddress);
      setSessionCookie(request, reply, session.token, session.expiresAt);
      return session.whoami;
    },
  });
}
