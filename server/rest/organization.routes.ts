import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import {
  organizationCreateSchema,
  organizationListQuerySchema,
  organizationPageSchema,
  organizationUpdateSchema,
  organizationViewSchema,
} from '../../contracts/organization';
import { hashIdParams } from '../../contracts/pagination';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const base = '/console-admin/v1/organization';

/** Organisations in the admin console (console.md section 7): reads for employees; writes for ops, developer and sales. */
export function organizationRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'GET',
    url: base,
    summary: 'List organisations',
    tags: ['organization'],
    ...access('organization.list'),
    query: organizationListQuerySchema,
    response: organizationPageSchema,
    handler: ({ actor, query }) => services.organizations.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${base}/:hashId`,
    summary: 'Get an organisation',
    tags: ['organization'],
    ...access('organization.read'),
    params: hashIdParams,
    response: organizationViewSchema,
    handler: ({ actor, params }) => services.organizations.get(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: base,
    summary: 'Create an organisation',
    tags: ['organization'],
    ...access('organization.create'),
    body: organizationCreateSchema,
    status: 201,
    response: yup.object({ organizationHashId: yup.string().required() }),
    handler: async ({ actor, body }) => {
      const organization = await services.organizations.create(actor, body);
      return { organizationHashId: organization.hashId };
    },
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${base}/:hashId`,
    summary: 'Update an organisation',
    tags: ['organization'],
    ...access('organization.update'),
    params: hashIdParams,
    body: organizationUpdateSchema,
    status: 204,
    handler: async ({ actor, params, body }) => {
      await services.organizations.update(actor, params.hashId, body);
    },
  });
}
