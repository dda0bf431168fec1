import type { FastifyInstance } from 'fastify';
import { grafanaOnCallViewSchema, onCallOpsUpdateSchema, onCallOpsViewSchema } from '../../contracts/on-call';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const base = '/console-admin/v1/on-call';

/** On-call (console.md section 7): the on-call ops user (only Ops changes it) and who Grafana OnCall has on call. */
export function onCallRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'GET',
    url: `${base}/ops`,
    summary: 'The on-call ops user (incoming calls are put through to their phone), or null',
    tags: ['on-call'],
    ...access('onCall.read'),
    response: onCallOpsViewSchema,
    handler: ({ actor }) => services.onCall.getOps(actor),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: `${base}/ops`,
    summary: 'Set (or with null clear) the on-call ops user: a staff user of the provider organisation',
    tags: ['on-call'],
    ...access('onCall.update'),
    body: onCallOpsUpdateSchema,
    response: onCallOpsViewSchema,
    handler: ({ actor, body }) => services.onCall.setOps(actor, body),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${base}/grafana`,
    summary: "Who Grafana OnCall's schedule has on call now",
    tags: ['on-call'],
    ...access('onCall.grafana'),
    response: grafanaOnCallViewSchema,
    handler: ({ actor }) => services.onCall.grafanaOnCall(actor),
  });
}
