import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import * as yup from 'yup';
import { cloudToDeviceMessageSchema } from '../contracts/device';
import { GridportError, errorCatalogue } from '../contracts/errors';
import { hubLimits } from '../contracts/hub/protocol';
import { issuesOf } from '../contracts/validation';
import { watchDevice } from '../device-hub/live';
import { requireRights, type Actor } from '../graph/common/context';
import type { Services } from '../graph/services';
import { authenticator, clientAddress } from './auth';
import { closeWebSockets, refuseUpgrade } from './upgrade';

/** The developer channel's path (api.md section 7; spec README "Developer access"). */
export const developerChannelPath = '/v1/device/web-socket';

/** A frame a developer sends: a cloud-to-device message for the device. */
const developerFrameSchema = yup.object({ type: yup.string().oneOf(['message'] as const).required(), message: cloudToDeviceMessageSchema }).exact();

/**
 * `/v1/device/web-socket?deviceId=<hash id>`: a live channel to one device for a developer (an
 * API key with the developer right). It carries what the device reports and its presence, as
 * `{ type: 'report', deviceHashId, report }` and `{ type: 'presence', deviceHashId, online, networkInterface }` frames, and takes `{ type: 'message', message }` frames
 * that queue a cloud-to-device message (answered `{ type: 'queued', messageId }` or an error
 * frame). A plain request to the path, without the upgrade, is `400 upgrade_failed`
 * (server/rest/device-live.routes.ts).
 */
export function attachDeveloperChannel(server: Server, { services, log, trustedProxies }: { services: Services; log: Logger; trustedProxies: readonly string[] }): { close(): Promise<void> } {
  const authenticate = authenticator(services);
  const sockets = new WebSocketServer({ noServer: true, maxPayload: hubLimits.maxFrameBytes });

  const open = async (request: IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void> => {
    const actor: Actor = await authenticate({ headers: request.headers, clientAddress: clientAddress(request as never, trustedProxies) } as Parameters<typeof authenticate>[0]);
    try {
      requireRights(actor, ['gridport.developer']);
      if (actor.kind !== 'apiKey') {
        throw new GridportError('forbidden', { reason: 'this channel needs an API key' });
      }
    } catch (error) {
      refuseUpgrade(socket, error instanceof GridportError ? error.key : 'unauthorized', error instanceof GridportError ? error.details : undefined);
      return;
    }
    const hashId = url.searchParams.get('deviceId') ?? '';
    let deviceId: number;
    try {
      deviceId = (await services.devices.find(actor, hashId)).id;
    } catch (error) {
      refuseUpgrade(socket, error instanceof GridportError ? error.key : 'not_found', { deviceId: hashId });
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const send = (frame: unknown) => {
        if (ws.readyState === WebSocket.OPEN) {
          ws.send(JSON.stringify(frame));
        }
      };
      const stop = watchDevice(services.pubsub, deviceId, (event) => {
        if (event.kind === 'report') {
          const { deviceId: _deviceId, ...report } = event.report;
          send({ type: 'report', deviceHashId: hashId, report });
        } else {
          send({ type: 'presence', deviceHashId: hashId, online: event.online, networkInterface: event.networkInterface });
        }
      });
      ws.on('message', (data) => {
        let frame: unknown;
        try {
          frame = JSON.parse(data.toString());
        } catch {
          send({ type: 'error', key: 'payload_not_json', message: errorCatalogue.payload_not_json.message });
          return;
        }
        const issues = issuesOf(developerFrameSchema, frame);
        if (issues.length > 0) {
          send({ type: 'error', key: 'payload_invalid', message: errorCatalogue.payload_invalid.message, details: issues });
          return;
        }
        const { message } = developerFrameSchema.cast(frame);
        services.deviceMessages.send(actor, hashId, message).then(
          (sent) => send({ type: 'queued', ...sent }),
          (error: unknown) => {
            if (error instanceof GridportError) {
              send({ type: 'error', ...error.toBody(), message: error.message });
            } else {
              log.error({ err: error }, 'a developer channel message failed');
              send({ type: 'error', key: 'internal_server_error', message: errorCatalogue.internal_server_error.message });
            }
          },
        );
      });
      ws.on('close', stop);
    });
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(request.url ?? '/', 'http://gridport');
    if (url.pathname === `${developerChannelPath}/tunnel`) {
      // The TCP tunnel through a device is not built yet: say so rather than leave the upgrade hanging.
      refuseUpgrade(socket, 'not_found', { reason: 'tunnels through a device are not available on this server yet' });
      return;
    }
    if (url.pathname !== developerChannelPath) {
      return;
    }
    open(request, socket, head, url).catch((error: unknown) => {
      log.error({ err: error }, 'opening a developer channel failed');
      refuseUpgrade(socket, 'internal_server_error');
    });
  };
  server.on('upgrade', onUpgrade);
  return {
    close: async () => {
      server.off('upgrade', onUpgrade);
      await closeWebSockets(sockets, 1001, 'the server is stopping');
    },
  };
}
