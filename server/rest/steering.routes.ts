import type { FastifyInstance } from 'fastify';
import { parametersBodySchema, scheduleBodySchema } from '../../contracts/device';
import { steeringResultSchema, v2DeviceListQuerySchema, v2DevicePageSchema } from '../../contracts/fleet';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

/** The header that carries the dangerous-action allowance left where the answer has no body. */
export const remainingAllowanceHeader = 'gridport-remaining-allowance';

/** The public steering API (api.md section 7): API keys with customer.write. */
export function steeringRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'GET',
    url: '/v2/device',
    summary: 'The devices the key may see whose cloud API is on, with assets, controllers and schedules',
    tags: ['steering'],
    ...access('steering.listDevices'),
    query: v2DeviceListQuerySchema,
    response: v2DevicePageSchema,
    handler: ({ actor, query }) => services.steering.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: '/v2/schedule',
    summary: 'Replace the schedule of the assets or controllers with these identifiers; queued for each device',
    tags: ['steering'],
    ...access('steering.setSchedule'),
    body: scheduleBodySchema,
    status: 201,
    response: steeringResultSchema,
    handler: ({ actor, body }) => services.steering.setSchedule(actor, body),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: '/v1/parameters',
    summary: 'Write parameters to the assets with these identifiers; queued for each device',
    tags: ['steering'],
    ...access('steering.setParameters'),
    body: parametersBodySchema,
    status: 204,
    handler: async ({ actor, body, reply }) => {
      const { remainingAllowance } = await services.steering.setParameters(actor, body);
      if (remainingAllowance !== null) {
        void reply.header(remainingAllowanceHeader, String(remainingAllowance));
      }
    },
  });
}
