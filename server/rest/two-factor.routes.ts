import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { twoFactorChallengeSchema, twoFactorChangeAppSchema } from '../../contracts/login';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const base = '/console/v1/settings/two-factor';
const recoveryCodes = yup.object({ recoveryCodes: yup.array(yup.string().required()).required() });

/** Two-factor settings of the customer console (console.md section 7); customer rights only. */
export function twoFactorRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: `${base}/generate-challenge`,
    summary: 'A new two-factor secret and its key URI, to confirm with change-app',
    tags: ['settings'],
    ...access('twoFactor.manage'),
    body: twoFactorChallengeSchema,
    response: yup.object({ secret: yup.string().required(), keyuri: yup.string().required() }),
    handler: ({ actor, body }) => services.twoFactor.generateChallenge(actor, body),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: `${base}/change-app`,
    summary: 'Confirm the new authenticator app with its code; answers new recovery codes',
    tags: ['settings'],
    ...access('twoFactor.manage'),
    body: twoFactorChangeAppSchema,
    response: recoveryCodes,
    handler: ({ actor, body }) => services.twoFactor.changeApp(actor, body.twoFactorCode),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: `${base}/new-recovery-codes`,
    summary: 'Replace the recovery codes',
    tags: ['settings'],
    ...access('twoFactor.manage'),
    response: recoveryCodes,
    handler: ({ actor }) => services.twoFactor.newRecoveryCodes(actor),
  });
}
