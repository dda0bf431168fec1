import type { FastifyInstance } from 'fastify';
import { hashIdParams } from '../../contracts/pagination';
import {
  customerPartnershipListQuerySchema,
  partnershipCreateSchema,
  partnershipListQuerySchema,
  partnershipPageQuerySchema,
  partnershipPageSchema,
  partnershipUpdateSchema,
  partnershipViewSchema,
} from '../../contracts/partnership';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const admin = '/console-admin/v1/partnership';
const customer = '/console/v1/partnership';

/** Partnerships in the admin console and the customer console (console.md section 7). */
export function partnershipRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'GET',
    url: admin,
    summary: 'List partnerships, newest first, optionally of one organisation (owner or partner)',
    tags: ['partnership'],
    ...access('partnership.list'),
    query: partnershipListQuerySchema,
    response: partnershipPageSchema,
    handler: ({ actor, query }) => services.partnerships.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: admin,
    summary: 'Create a partnership: the owner shares all or the listed devices with the partner, as viewer or operator',
    tags: ['partnership'],
    ...access('partnership.create'),
    body: partnershipCreateSchema,
    status: 201,
    response: partnershipViewSchema,
    handler: ({ actor, body }) => services.partnerships.create(actor, body),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${admin}/:hashId`,
    summary: "Update a partnership's role, description, allDevices and device list (replaced when given)",
    tags: ['partnership'],
    ...access('partnership.update'),
    params: hashIdParams,
    body: partnershipUpdateSchema,
    response: partnershipViewSchema,
    handler: ({ actor, params, body }) => services.partnerships.update(actor, params.hashId, body),
  });

  defineRoute(app, services, {
    method: 'DELETE',
    url: `${admin}/:hashId`,
    summary: 'Delete a partnership and its device list; the partner loses access at once',
    tags: ['partnership'],
    ...access('partnership.delete'),
    params: hashIdParams,
    status: 204,
    handler: async ({ actor, params }) => {
      await services.partnerships.delete(actor, params.hashId);
    },
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${admin}/device/:hashId`,
    summary: "The partnerships that share a device: those sharing all its owner's devices, and those listing it",
    tags: ['partnership'],
    ...access('partnership.listOfDevice'),
    params: hashIdParams,
    query: partnershipPageQuerySchema,
    response: partnershipPageSchema,
    handler: ({ actor, params, query }) => services.partnerships.listOfDevice(actor, params.hashId, query),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: customer,
    summary: "List the caller's partnerships: own (its organisation shares) or accepted (shared with it); both without kind",
    tags: ['partnership'],
    ...access('partnership.listOwn'),
    query: customerPartnershipListQuerySchema,
    response: partnershipPageSchema,
    handler: ({ actor, query }) => services.partnerships.customerList(actor, query),
  });
}
