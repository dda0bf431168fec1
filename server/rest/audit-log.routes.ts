import type { FastifyInstance } from 'fastify';
import { auditLogQuerySchema, auditLogRowSchema } from '../../contracts/audit-log';
import { pageSchema } from '../../contracts/pagination';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

/** The audit log (console.md section 7): employees read it, newest first, with opaque pagination. */
export function auditLogRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'GET',
    url: '/console-admin/v1/audit-log',
    summary: 'List audit log rows',
    tags: ['audit-log'],
    ...access('auditLog.list'),
    query: auditLogQuerySchema,
    response: pageSchema(auditLogRowSchema),
    handler: ({ actor, query }) => services.auditLog.list(actor, query),
  });
}
