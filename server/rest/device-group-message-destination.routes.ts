import type { FastifyInstance } from 'fastify';
import {
  groupForwardingCreateSchema,
  groupForwardingListQuerySchema,
  groupForwardingPageSchema,
  groupForwardingUpdateSchema,
  groupForwardingViewSchema,
} from '../../contracts/forwarding';
import { hashIdParams } from '../../contracts/pagination';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const base = '/console-admin/v1/device-group/message-destination';

/** The forwarding of device groups to message destinations in the admin console (console.md sections 5 and 7). */
export function deviceGroupMessageDestinationRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: base,
    summary: "Forward a device group's reports of some message types to a destination of its organisation (at most 3 destinations per message type)",
    tags: ['device-group'],
    ...access('groupForwarding.create'),
    body: groupForwardingCreateSchema,
    status: 201,
    response: groupForwardingViewSchema,
    handler: ({ actor, body }) => services.groupForwarding.add(actor, body),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: base,
    summary: "List a device group's forwardings, or a destination's, newest first",
    tags: ['device-group'],
    ...access('groupForwarding.list'),
    query: groupForwardingListQuerySchema,
    response: groupForwardingPageSchema,
    handler: ({ actor, query }) => services.groupForwarding.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${base}/:hashId`,
    summary: "Get a device group's forwarding to a destination",
    tags: ['device-group'],
    ...access('groupForwarding.read'),
    params: hashIdParams,
    response: groupForwardingViewSchema,
    handler: ({ actor, params }) => services.groupForwarding.get(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${base}/:hashId`,
    summary: 'Change the message types or the settings of a forwarding',
    tags: ['device-group'],
    ...access('groupForwarding.update'),
    params: hashIdParams,
    body: groupForwardingUpdateSchema,
    response: groupForwardingViewSchema,
    handler: ({ actor, params, body }) => services.groupForwarding.update(actor, params.hashId, body),
  });

  defineRoute(app, services, {
    method: 'DELETE',
    url: `${base}/:hashId`,
    summary: 'Stop forwarding a device group to a destination',
    tags: ['device-group'],
    ...access('groupForwarding.delete'),
    params: hashIdParams,
    status: 204,
    handler: async ({ actor, params }) => {
      await services.groupForwarding.remove(actor, params.hashId);
    },
  });
}
