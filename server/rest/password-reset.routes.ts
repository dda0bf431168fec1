import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { passwordResetQuerySchema, passwordResetRequestSchema, passwordResetSchema, passwordResetStatusQuerySchema } from '../../contracts/login';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const base = '/console/v1/password-reset';

/** Password reset of the customer console (console.md section 7); no session needed. */
export function passwordResetRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: base,
    summary: 'Mail a password reset link; answered alike for unknown emails, 3 an hour per email either way',
    tags: ['password-reset'],
    ...access('passwordReset.use'),
    body: passwordResetRequestSchema,
    status: 204,
    handler: ({ body }) => services.passwordResets.request(body.email),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: base,
    summary: 'Whether the password reset of this email and mailed code is still waiting, and until when (404 alike for an unknown email and a wrong code)',
    tags: ['password-reset'],
    ...access('passwordReset.use'),
    query: passwordResetStatusQuerySchema,
    response: yup.object({ expiresAt: yup.string().required() }),
    handler: ({ query }) => services.passwordResets.status(query.email, query.code),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: `${base}/reset`,
    summary: 'Choose a new password with the code from the mail; ends every session of the user',
    tags: ['password-reset'],
    ...access('passwordReset.use'),
    query: passwordResetQuerySchema,
    body: passwordResetSchema,
    status: 204,
    handler: ({ query, body }) => services.passwordResets.reset(query.email, body),
  });
}
