import type { FastifyInstance } from 'fastify';
import { userListQuerySchema, userPageSchema, userUpdateSchema, userViewSchema } from '../../contracts/user';
import { hashIdParams } from '../../contracts/pagination';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

/** Users in the admin console (list, get: employees; update: ops) and the customer console (their organisation's list). */
export function userRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'GET',
    url: '/console-admin/v1/user',
    summary: 'List users of every organisation, or of one',
    tags: ['user'],
    ...access('user.list'),
    query: userListQuerySchema,
    response: userPageSchema,
    handler: ({ actor, query }) => services.users.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: '/console-admin/v1/user/:hashId',
    summary: 'Get a user',
    tags: ['user'],
    ...access('user.read'),
    params: hashIdParams,
    response: userViewSchema,
    handler: ({ actor, params }) => services.users.get(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: '/console-admin/v1/user/:hashId',
    summary: "Change a user's name, email, rights or organisation",
    tags: ['user'],
    ...access('user.update'),
    params: hashIdParams,
    body: userUpdateSchema,
    response: userViewSchema,
    handler: ({ actor, params, body }) => services.users.update(actor, params.hashId, body),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: '/console/v1/user',
    summary: "List the users of the caller's organisation",
    tags: ['user'],
    ...access('user.listOwn'),
    query: userListQuerySchema.omit(['organizationHashId']),
    response: userPageSchema,
    handler: ({ actor, query }) => services.users.list(actor, query),
  });
}
