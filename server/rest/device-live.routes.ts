import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { GridportError } from '../../contracts/errors';
import { hashIdParams } from '../../contracts/pagination';
import { watchDevice } from '../../graph/common/live';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

/** How often an idle event stream sends a comment, so proxies keep it open. */
export const eventStreamHeartbeatMs = 15_000;

/**
 * GET /console-admin/v1/device/{hashId}/server-sent-events: the device's stored reports
 * (`event: report`) and presence changes (`event: presence`) as they happen, on whichever node
 * the gateway is connected to. The stream ends when the reader goes away (logged as
 * cancel_stream) or the server stops (`event: end`).
 */
export function deviceLiveRoutes(app: FastifyInstance, services: Services): void {
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...open]) {
      end();
    }
  });

  // The developer channel and the tunnel are websockets (server/developer-channel.ts); a request without the upgrade is refused.
  for (const url of ['/v1/device/web-socket', '/v1/device/web-socket/tunnel']) {
    defineRoute(app, services, {
      method: 'GET',
      url,
      summary: url.endsWith('tunnel') ? 'A TCP tunnel through a device (websocket upgrade only)' : 'A live channel to one device (websocket upgrade only)',
      tags: ['device'],
      ...access('device.developerChannel'),
      query: yup.object({ deviceId: yup.string().trim().min(1).max(64).required(), destination: yup.string().trim().max(255).optional() }).exact(),
      handler: () => {
        throw new GridportError('upgrade_failed', { reason: 'this path takes a websocket upgrade only' });
      },
    });
  }

  defineRoute(app, services, {
    method: 'GET',
    url: '/console-admin/v1/device/:hashId/server-sent-events',
    summary: "The device's reports and presence as server-sent events",
    tags: ['device'],
    ...access('device.liveEvents'),
    params: hashIdParams,
    handler: async ({ actor, params, request, reply }) => {
      const device = await services.devices.find(actor, params.hashId);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write(`: events of device ${params.hashId}\n\n`);
      const send = (event: string, data: unknown) => raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const stop = watchDevice(services.pubsub, device.id, (event) => {
        if (event.kind === 'report') {
          const { deviceId: _deviceId, ...report } = event.report;
          send('report', { deviceHashId: params.hashId, ...report });
        } else {
          send('presence', { deviceHashId: params.hashId, online: event.online, networkInterface: event.networkInterface });
        }
      });
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), eventStreamHeartbeatMs);
      let ended = false;
      const end = (byServer: boolean) => {
        if (ended) {
          return;
        }
        ended = true;
        clearInterval(heartbeat);
        stop();
        open.delete(endByServer);
        if (byServer) {
          send('end', { reason: 'the server is stopping; reconnect' });
          raw.end();
        } else {
          request.log.info({ key: 'cancel_stream', deviceHashId: params.hashId }, 'event stream ended: its reader went away');
        }
      };
      const endByServer = () => end(true);
      open.add(endByServer);
      raw.on('close', () => end(false));
    },
  });
}
