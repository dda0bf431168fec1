import type { FastifyInstance } from 'fastify';
import {
  messageDestinationCreateSchema,
  messageDestinationListQuerySchema,
  messageDestinationPageSchema,
  messageDestinationResumeSchema,
  messageDestinationUpdateSchema,
  messageDestinationViewSchema,
} from '../../contracts/forwarding';
import { hashIdParams } from '../../contracts/pagination';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const base = '/console-admin/v1/message-destination';
const customer = '/console/v1/message-destination';

/** Message destinations in the admin console (console.md sections 5 and 7) and the customer's read-only list. */
export function messageDestinationRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: base,
    summary: 'Create a message destination of an organisation: one of twelve kinds, its settings checked, its secrets kept encrypted',
    tags: ['message-destination'],
    ...access('messageDestination.create'),
    body: messageDestinationCreateSchema,
    status: 201,
    response: messageDestinationViewSchema,
    handler: ({ actor, body }) => services.messageDestinations.create(actor, body),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: base,
    summary: 'List message destinations, newest first, by name, organisation, type and state',
    tags: ['message-destination'],
    ...access('messageDestination.list'),
    query: messageDestinationListQuerySchema,
    response: messageDestinationPageSchema,
    handler: ({ actor, query }) => services.messageDestinations.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${base}/:hashId`,
    summary: 'Get a message destination with its health (state, lag, last success and error); secrets are never returned',
    tags: ['message-destination'],
    ...access('messageDestination.read'),
    params: hashIdParams,
    response: messageDestinationViewSchema,
    handler: ({ actor, params }) => services.messageDestinations.get(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${base}/:hashId`,
    summary: 'Update a message destination: only what is given changes; its type never does (changing_type); a secret left out is kept',
    tags: ['message-destination'],
    ...access('messageDestination.update'),
    params: hashIdParams,
    body: messageDestinationUpdateSchema,
    response: messageDestinationViewSchema,
    handler: ({ actor, params, body }) => services.messageDestinations.update(actor, params.hashId, body),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${base}/:hashId/resume`,
    summary: 'Resume delivery to a message destination from where it stopped, or from offset, a stream position its health shows (replay)',
    tags: ['message-destination'],
    ...access('messageDestination.resume'),
    params: hashIdParams,
    body: messageDestinationResumeSchema,
    response: messageDestinationViewSchema,
    handler: ({ actor, params, body }) => services.messageDestinations.resume(actor, params.hashId, body),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: customer,
    summary: "List the caller's organisation's message destinations, read-only",
    tags: ['message-destination'],
    ...access('messageDestination.listOwn'),
    query: messageDestinationListQuerySchema,
    response: messageDestinationPageSchema,
    handler: ({ actor, query }) => services.messageDestinations.list(actor, query),
  });
}
