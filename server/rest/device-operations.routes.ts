import type { FastifyInstance } from 'fastify';
import { dangerousActionResultSchema, firmwarePinSchema, latestFirmwareSchema, messageSentSchema, sendMessageSchema } from '../../contracts/firmware';
import type { CloudToDeviceMessage } from '../../contracts/device';
import { hashIdParams } from '../../contracts/pagination';
import { validate } from '../../contracts/validation';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const admin = '/console-admin/v1';

/**
 * What staff do to a device beyond editing it (console.md section 7): pin its firmware, send it
 * a message, open its tickets; and the fleet's latest firmware.
 */
export function deviceOperationRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: `${admin}/device/:hashId/firmware`,
    summary: "Pin the device's Balena device to the release with this version, or to the latest; a dangerous action in production",
    tags: ['device'],
    ...access('device.pinFirmware'),
    params: hashIdParams,
    // The body ({ semver? }) is optional, so it is checked here rather than by `body`, which requires one.
    response: dangerousActionResultSchema,
    handler: ({ actor, params, request }) => services.firmware.pin(actor, params.hashId, validate(firmwarePinSchema, request.body ?? {}, 'payload_invalid')),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: `${admin}/device/:hashId/send-message`,
    summary: 'Queue a cloud-to-device message (not setConfig); a dangerous action in production',
    tags: ['device'],
    ...access('device.sendMessage'),
    params: hashIdParams,
    body: sendMessageSchema,
    status: 201,
    response: messageSentSchema,
    handler: ({ actor, params, body }) => services.deviceMessages.send(actor, params.hashId, body.message as CloudToDeviceMessage),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${admin}/device/:hashId/hubspot`,
    summary: "Redirect (303) to the device's tickets in HubSpot",
    tags: ['device'],
    ...access('device.tickets'),
    params: hashIdParams,
    handler: async ({ actor, params, reply }) => reply.redirect(await services.deviceTickets.ticketPageUrl(actor, params.hashId), 303),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${admin}/latest-firmware`,
    summary: "The version of the Balena fleet's newest successful release",
    tags: ['device'],
    ...access('firmware.latest'),
    response: latestFirmwareSchema,
    handler: ({ actor }) => services.firmware.latest(actor),
  });
}
