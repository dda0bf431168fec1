import type { FastifyInstance } from 'fastify';
import {
  deviceGroupApiKeySchema,
  deviceGroupCreateSchema,
  deviceGroupListQuerySchema,
  deviceGroupPageSchema,
  deviceGroupUpdateSchema,
  deviceGroupViewSchema,
} from '../../contracts/device-group';
import { hashIdParams } from '../../contracts/pagination';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const base = '/console-admin/v1/device-group';

/** Device groups and their API-key access in the admin console (console.md section 7). */
export function deviceGroupRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: base,
    summary: 'Create a device group of an organisation, with its outage contacts',
    tags: ['device-group'],
    ...access('deviceGroup.create'),
    body: deviceGroupCreateSchema,
    status: 201,
    response: deviceGroupViewSchema,
    handler: ({ actor, body }) => services.deviceGroups.create(actor, body),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: base,
    summary: 'List device groups, newest first, by name and organisation',
    tags: ['device-group'],
    ...access('deviceGroup.list'),
    query: deviceGroupListQuerySchema,
    response: deviceGroupPageSchema,
    handler: ({ actor, query }) => services.deviceGroups.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: `${base}/api-key`,
    summary: "Link an API key of the group's organisation to the group: the key then sees only its groups' devices",
    tags: ['device-group'],
    ...access('deviceGroup.linkApiKey'),
    body: deviceGroupApiKeySchema,
    status: 204,
    handler: async ({ actor, body }) => {
      await services.deviceGroups.linkApiKey(actor, body);
    },
  });

  defineRoute(app, services, {
    method: 'DELETE',
    url: `${base}/api-key`,
    summary: 'Unlink an API key from a device group',
    tags: ['device-group'],
    ...access('deviceGroup.unlinkApiKey'),
    body: deviceGroupApiKeySchema,
    status: 204,
    handler: async ({ actor, body }) => {
      await services.deviceGroups.unlinkApiKey(actor, body);
    },
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${base}/:hashId`,
    summary: 'Get a device group with its outage contacts, device count and linked API keys',
    tags: ['device-group'],
    ...access('deviceGroup.read'),
    params: hashIdParams,
    response: deviceGroupViewSchema,
    handler: ({ actor, params }) => services.deviceGroups.get(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${base}/:hashId`,
    summary: "Update a device group's name and outage contacts; its organisation does not change",
    tags: ['device-group'],
    ...access('deviceGroup.update'),
    params: hashIdParams,
    body: deviceGroupUpdateSchema,
    response: deviceGroupViewSchema,
    handler: ({ actor, params, body }) => services.deviceGroups.update(actor, params.hashId, body),
  });

  defineRoute(app, services, {
    method: 'DELETE',
    url: `${base}/:hashId`,
    summary: 'Delete an empty device group (not_empty while it has devices)',
    tags: ['device-group'],
    ...access('deviceGroup.delete'),
    params: hashIdParams,
    status: 204,
    handler: async ({ actor, params }) => {
      await services.deviceGroups.delete(actor, params.hashId);
    },
  });
}
