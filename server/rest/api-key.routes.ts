import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { apiKeyCreateSchema, apiKeyListQuerySchema, apiKeyPageSchema, apiKeyUpdateSchema, apiKeyViewSchema } from '../../contracts/api-key';
import { hashIdParams } from '../../contracts/pagination';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const base = '/v1/api-key';

/** API keys (api.md sections 6 and 7): console sessions only; reads for employees, writes for ops and developers. */
export function apiKeyRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: base,
    summary: 'Create an API key; its secret is in this answer only',
    tags: ['api-key'],
    ...access('apiKey.create'),
    body: apiKeyCreateSchema,
    status: 201,
    response: yup.object({ apiKey: yup.string().required(), hashId: yup.string().required() }),
    handler: ({ actor, body }) => services.apiKeys.create(actor, body),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${base}/:hashId`,
    summary: 'Get an API key (never its secret)',
    tags: ['api-key'],
    ...access('apiKey.read'),
    params: hashIdParams,
    response: apiKeyViewSchema,
    handler: ({ actor, params }) => services.apiKeys.get(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: base,
    summary: 'List API keys, newest first',
    tags: ['api-key'],
    ...access('apiKey.list'),
    query: apiKeyListQuerySchema,
    response: apiKeyPageSchema,
    handler: ({ actor, query }) => services.apiKeys.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: `${base}/reset/:hashId`,
    summary: 'Give an API key a new secret; the old one stops working',
    tags: ['api-key'],
    ...access('apiKey.reset'),
    params: hashIdParams,
    response: yup.object({ apiKey: yup.string().required() }),
    handler: ({ actor, params }) => services.apiKeys.reset(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${base}/:hashId`,
    summary: 'Rename an API key or change its IP ranges or public key',
    tags: ['api-key'],
    ...access('apiKey.update'),
    params: hashIdParams,
    body: apiKeyUpdateSchema,
    status: 204,
    handler: async ({ actor, params, body }) => {
      await services.apiKeys.update(actor, params.hashId, body);
    },
  });

  defineRoute(app, services, {
    method: 'DELETE',
    url: `${base}/:hashId`,
    summary: 'Delete an API key; it stops working at once',
    tags: ['api-key'],
    ...access('apiKey.delete'),
    params: hashIdParams,
    status: 204,
    handler: async ({ actor, params }) => {
      await services.apiKeys.delete(actor, params.hashId);
    },
  });
}
