import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { mailSchema } from '../../contracts/mail';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

/** POST /console-admin/v1/mail (console.md section 7): sends a test mail, to check the mail set-up. */
export function mailRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: '/console-admin/v1/mail',
    summary: 'Send a test mail',
    tags: ['mail'],
    ...access('mail.sendTest'),
    body: mailSchema,
    status: 201,
    response: yup.object({ mailHashId: yup.string().required(), status: yup.string().oneOf(['kept', 'sent', 'failed']).required() }),
    handler: ({ actor, body }) => services.mail.sendTest(actor, body),
  });
}
