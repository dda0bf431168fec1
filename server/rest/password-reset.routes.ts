import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { passwordResetQuerySchema, passwordResetRequestSchema, passwordResetSchema } from '../../contracts/login';
import type { Services } from '../../graph/services';
import { defineRoute } from './route';

const base = '/console/v1/password-reset';

/** Password reset of the customer console (console.md section 7); no session needed. */
export function passwordResetRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: base,
    summary: 'Mail a password reset link (answered alike for unknown emails)',
    tags: ['password-reset'],
    auth: 'public',
    body: passwordResetRequestSchema,
    status: 204,
    handler: ({ body }) => services.passwordResets.request(body.email),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: base,
    summary: 'Whether a password reset is waiting for this email, and until when',
    tags: ['password-reset'],
    auth: 'public',
    query: passwordResetRequestSchema,
    response: yup.object({ expiresAt: yup.string().required() }),
    handler: ({ query }) => services.passwordResets.status(query.email),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: `${base}/reset`,
    summary: 'Choose a new password with the code from the mail; ends every session of the user',
    tags: ['password-reset'],
    auth: 'public',
    query: passwordResetQuerySchema,
    body: passwordResetSchema,
    status: 204,
    handler: ({ query, body }) => services.passwordResets.reset(query.email, body),
  });
}
