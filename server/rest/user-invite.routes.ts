import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import {
  userInviteCodeQuerySchema,
  userInviteConvertSchema,
  userInviteCreateSchema,
  userInviteListQuerySchema,
  userInvitePageSchema,
  userInviteViewSchema,
} from '../../contracts/user-invite';
import { hashIdParams } from '../../contracts/pagination';
import type { Services } from '../../graph/services';
import { setSessionCookie } from '../auth';
import { access } from './access';
import { defineRoute } from './route';

/** User invites: Ops invite and revoke in the admin console; invitees accept in the customer console. */
export function userInviteRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: '/console-admin/v1/user-invite',
    summary: 'Invite 1 to 20 emails into an organisation',
    tags: ['user-invite'],
    ...access('userInvite.create'),
    body: userInviteCreateSchema,
    status: 201,
    response: yup.object({ invites: yup.array(userInviteViewSchema).required() }),
    handler: async ({ actor, body }) => ({ invites: await services.userInvites.create(actor, body) }),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: '/console-admin/v1/user-invite',
    summary: 'List open invites',
    tags: ['user-invite'],
    ...access('userInvite.list'),
    query: userInviteListQuerySchema,
    response: userInvitePageSchema,
    handler: ({ actor, query }) => services.userInvites.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'DELETE',
    url: '/console-admin/v1/user-invite/:hashId',
    summary: 'Revoke an invite',
    tags: ['user-invite'],
    ...access('userInvite.revoke'),
    params: hashIdParams,
    status: 204,
    handler: ({ actor, params }) => services.userInvites.revoke(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: '/console/v1/user-invite',
    summary: "List the open invites of the caller's organisation",
    tags: ['user-invite'],
    ...access('userInvite.listOwn'),
    query: userInviteListQuerySchema.omit(['organizationHashId']),
    response: userInvitePageSchema,
    handler: ({ actor, query }) => services.userInvites.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: '/console/v1/user-invite/:hashId',
    summary: 'The invite behind an invite link',
    tags: ['user-invite'],
    ...access('userInvite.accept'),
    params: hashIdParams,
    query: userInviteCodeQuerySchema,
    response: userInviteViewSchema,
    handler: ({ params, query }) => services.userInvites.get(params.hashId, query.code),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: '/console/v1/user-invite/:hashId/create-challenge',
    summary: 'A two-factor secret for the invitee to add to an authenticator app',
    tags: ['user-invite'],
    ...access('userInvite.accept'),
    params: hashIdParams,
    query: userInviteCodeQuerySchema,
    response: yup.object({ secret: yup.string().required(), keyuri: yup.string().required() }),
    handler: ({ params, query }) => services.userInvites.createChallenge(params.hashId, query.code),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: '/console/v1/user-invite/:hashId',
    summary: 'Accept the invite: name, password and the first two-factor code; signs the new user in',
    tags: ['user-invite'],
    ...access('userInvite.accept'),
    params: hashIdParams,
    query: userInviteCodeQuerySchema,
    body: userInviteConvertSchema,
    status: 201,
    response: yup.object({ recoveryCodes: yup.array(yup.string().required()).required() }),
    handler: async ({ params, query, body, request, reply }) => {
      const { session, recoveryCodes } = await services.userInvites.convert(params.hashId, query.code, body);
      setSessionCookie(request, reply, session.token, session.expiresAt);
      return { recoveryCodes };
    },
  });
}
