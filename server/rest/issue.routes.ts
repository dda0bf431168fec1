import type { FastifyInstance } from 'fastify';
import {
  issueAdminListQuerySchema,
  issueCountViewSchema,
  issueCustomerListQuerySchema,
  issueCustomerMessageCreateSchema,
  issueHashIdParams,
  issueMessageCreateSchema,
  issueMessagePageSchema,
  issueMessageUpdateSchema,
  issueMessageViewSchema,
  issuePageSchema,
  issueStateChangeSchema,
  issueSubscribersSchema,
  issueTimelinePageSchema,
  issueTimelineQuerySchema,
  issueUpdateSchema,
  issueViewSchema,
} from '../../contracts/issue';
import { hashIdParams } from '../../contracts/pagination';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const admin = '/console-admin/v1/issue';
const messages = '/console-admin/v1/issue-messages';
const customer = '/console/v1/issue';
const tags = ['issue'];

/** Issues, their timelines, messages and subscribers in both console areas (console.md section 7). */
export function issueRoutes(app: FastifyInstance, services: Services): void {
  // Admin console: staff (Employee) see and manage every issue.
  defineRoute(app, services, {
    method: 'GET',
    url: admin,
    summary: 'List issues by status, device, owner, assignee and subscriber; newest first, oldest first, or next activity due first',
    tags,
    ...access('issue.list'),
    query: issueAdminListQuerySchema,
    response: issuePageSchema,
    handler: ({ actor, query }) => services.issues.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${admin}/:hashId`,
    summary: 'Get an issue with its alarms, subscribers and assignee',
    tags,
    ...access('issue.read'),
    params: hashIdParams,
    response: issueViewSchema,
    handler: ({ actor, params }) => services.issues.get(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${admin}/:hashId`,
    summary: 'Update an issue: title, flags, owner, assignee, next activity (an internal issue takes only the provider as assignee)',
    tags,
    ...access('issue.update'),
    params: hashIdParams,
    body: issueUpdateSchema,
    response: issueViewSchema,
    handler: ({ actor, params, body }) => services.issues.update(actor, params.hashId, body),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${admin}/:hashId/resolve`,
    summary: 'Resolve an open issue (already_resolved otherwise); silent leaves no timeline message',
    tags,
    ...access('issue.resolve'),
    params: hashIdParams,
    body: issueStateChangeSchema,
    response: issueViewSchema,
    handler: ({ actor, params, body }) => services.issues.resolve(actor, params.hashId, body),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${admin}/:hashId/reopen`,
    summary: 'Reopen a resolved issue (already_open otherwise); silent leaves no timeline message',
    tags,
    ...access('issue.reopen'),
    params: hashIdParams,
    body: issueStateChangeSchema,
    response: issueViewSchema,
    handler: ({ actor, params, body }) => services.issues.reopen(actor, params.hashId, body),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${admin}/:hashId/timeline`,
    summary: "An issue's messages and audit entries merged, oldest first",
    tags,
    ...access('issue.read'),
    params: hashIdParams,
    query: issueTimelineQuerySchema,
    response: issueTimelinePageSchema,
    handler: ({ actor, params, query }) => services.issues.timeline(actor, params.hashId, query),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: `${admin}/:hashId/subscriber`,
    summary: 'Subscribe users to an issue (each must be able to see it)',
    tags,
    ...access('issue.manageSubscribers'),
    params: hashIdParams,
    body: issueSubscribersSchema,
    response: issueViewSchema,
    handler: ({ actor, params, body }) => services.issues.changeSubscribersOf(actor, params.hashId, body.userHashIds, true),
  });

  defineRoute(app, services, {
    method: 'DELETE',
    url: `${admin}/:hashId/subscriber`,
    summary: 'Unsubscribe users from an issue',
    tags,
    ...access('issue.manageSubscribers'),
    params: hashIdParams,
    body: issueSubscribersSchema,
    response: issueViewSchema,
    handler: ({ actor, params, body }) => services.issues.changeSubscribersOf(actor, params.hashId, body.userHashIds, false),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: messages,
    summary: 'Post a message to an issue (internal or not; mailed to to and cc), optionally assigning it and attaching uploads',
    tags,
    ...access('issueMessage.create'),
    body: issueMessageCreateSchema,
    status: 201,
    response: issueMessageViewSchema,
    handler: ({ actor, body }) => services.issues.addMessage(actor, body),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${messages}/:hashId`,
    summary: 'Edit an internal message (only_internal_message_updates for any other)',
    tags,
    ...access('issueMessage.update'),
    params: hashIdParams,
    body: issueMessageUpdateSchema,
    response: issueMessageViewSchema,
    handler: ({ actor, params, body }) => services.issues.updateMessage(actor, params.hashId, body),
  });

  // Customer console: the issues of the caller's organisation and of the devices they may see, never internal ones.
  defineRoute(app, services, {
    method: 'GET',
    url: `${customer}/count`,
    summary: 'How many open issues the caller sees, are assigned to them, and to their organisation',
    tags,
    ...access('issue.countVisible'),
    response: issueCountViewSchema,
    handler: ({ actor }) => services.issues.count(actor),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: customer,
    summary: 'List the issues the caller may see, by status and assignee (myOrganization, me, gridport, external)',
    tags,
    ...access('issue.listVisible'),
    query: issueCustomerListQuerySchema,
    response: issuePageSchema,
    handler: ({ actor, query }) => services.issues.customerList(actor, query),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${customer}/:hashId`,
    summary: 'Get an issue the caller may see',
    tags,
    ...access('issue.readVisible'),
    params: hashIdParams,
    response: issueViewSchema,
    handler: ({ actor, params }) => services.issues.get(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${customer}/:hashId/timeline`,
    summary: "An issue's messages (never internal ones) and audit entries merged, oldest first",
    tags,
    ...access('issue.readVisible'),
    params: hashIdParams,
    query: issueTimelineQuerySchema,
    response: issueTimelinePageSchema,
    handler: ({ actor, params, query }) => services.issues.timeline(actor, params.hashId, query),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: `${customer}/:issueHashId/message`,
    summary: 'Post a message to an issue the caller may see; the next activity falls due',
    tags,
    ...access('issueMessage.createVisible'),
    params: issueHashIdParams,
    body: issueCustomerMessageCreateSchema,
    status: 201,
    response: issueMessageViewSchema,
    handler: ({ actor, params, body }) => services.issues.addCustomerMessage(actor, params.issueHashId, body),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${customer}/:issueHashId/message`,
    summary: "An issue's messages the caller may read, oldest first",
    tags,
    ...access('issueMessage.listVisible'),
    params: issueHashIdParams,
    query: issueTimelineQuerySchema,
    response: issueMessagePageSchema,
    handler: ({ actor, params, query }) => services.issues.messages(actor, params.issueHashId, query),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${customer}/:issueHashId/subscribe`,
    summary: 'Follow an issue: its messages are mailed to the caller',
    tags,
    ...access('issue.subscribe'),
    params: issueHashIdParams,
    response: issueViewSchema,
    handler: ({ actor, params }) => services.issues.subscribe(actor, params.issueHashId, true),
  });

  defineRoute(app, services, {
    method: 'DELETE',
    url: `${customer}/:issueHashId/unsubscribe`,
    summary: 'Stop following an issue',
    tags,
    ...access('issue.subscribe'),
    params: issueHashIdParams,
    response: issueViewSchema,
    handler: ({ actor, params }) => services.issues.subscribe(actor, params.issueHashId, false),
  });
}
