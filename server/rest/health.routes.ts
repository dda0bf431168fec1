import type { FastifyInstance } from 'fastify';
import { GridportError } from '../../contracts/errors';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

/** Health probes (api.md section 7): unauthenticated; 503 service_unavailable when the database does not answer. */
export function healthRoutes(app: FastifyInstance, services: Services, databaseAnswers: () => Promise<boolean>): void {
  defineRoute(app, services, {
    method: 'GET',
    url: '/v1/health',
    summary: 'Whether Gridport and the services it depends on answer',
    tags: ['health'],
    ...access('health.read'),
    status: 204,
    handler: async () => {
      if (!(await databaseAnswers())) {
        throw new GridportError('service_unavailable', { service: 'database' });
      }
    },
  });

  defineRoute(app, services, {
    method: 'GET',
    url: '/v1/elb',
    summary: 'Load balancer probe: 200 while this node can serve',
    tags: ['health'],
    ...access('health.read'),
    handler: async () => {
      if (!(await databaseAnswers())) {
        throw new GridportError('service_unavailable', { service: 'database' });
      }
      return { status: 'ok' };
    },
  });
}
