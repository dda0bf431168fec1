import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import * as yup from 'yup';
import { cloudToDeviceCommandSchemas, cloudToDeviceMessageSchema } from '../contracts/device';
import { GridportError, errorCatalogue } from '../contracts/errors';
import { hubLimits } from '../contracts/hub/protocol';
import { issuesOf } from '../contracts/validation';
import { watchDevice } from '../graph/common/live';
import { awaitDeviceTunnel, newTunnelId, relay } from '../device-hub/tunnels';
import type { DeviceModel } from '../graph/fleet/models/device.model';
import { authorize, type Actor } from '../graph/common/context';
import type { Services } from '../graph/services';
import { authenticator, clientAddress } from './auth';
import { closeWebSockets, refuseUpgrade } from '../device-hub/upgrade';

/** The developer channel's path and its TCP tunnel's (api.md section 7; spec README "Developer access"). */
export const developerChannelPath = '/v1/device/web-socket';
export const developerTunnelPath = `${developerChannelPath}/tunnel`;

/** A frame a developer sends: a cloud-to-device message for the device. */
const developerFrameSchema = yup
  .object({
    type: yup
      .string()
      .oneOf(['message'] as const)
      .required(),
    message: cloudToDeviceMessageSchema,
  })
  .exact();

/**
 * `/v1/device/web-socket?deviceId=<hash id>`: a live channel to one device for a developer (an
 * API key with the developer right). It carries what the device reports and its presence, as
 * `{ type: 'report', deviceHashId, report }` and `{ type: 'presence', deviceHashId, online, networkInterface }` frames, and takes `{ type: 'message', message }` frames
 * that queue a cloud-to-device message (answered `{ type: 'queued', messageId }` or an error
 * frame). A plain request to the path, without the upgrade, is `400 upgrade_failed`
 * (server/rest/device-live.routes.ts).
 */
export function attachDeveloperChannel(
  server: Server,
  {
    services,
    log,
    trustedProxies,
    tunnelOpenTimeoutMs = hubLimits.tunnelOpenTimeoutMs,
  }: { services: Services; log: Logger; trustedProxies: readonly string[]; tunnelOpenTimeoutMs?: number },
): { close(): Promise<void> } {
  const authenticate = authenticator(services);
  const sockets = new WebSocketServer({ noServer: true, maxPayload: hubLimits.maxFrameBytes });

  /** The developer and device of an upgrade request; null when refused (the answer is sent). */
  const developerAndDevice = async (
    request: IncomingMessage,
    socket: Duplex,
    url: URL,
  ): Promise<{ actor: Actor; hashId: string; device: DeviceModel } | null> => {
    const actor: Actor = await authenticate({ headers: request.headers, clientAddress: clientAddress(request as never, trustedProxies) } as Parameters<
      typeof authenticate
    >[0]);
    try {
      authorize(actor, 'device.developerChannel');
    } catch (error) {
      refuseUpgrade(socket, error instanceof GridportError ? error.key : 'unauthorized', error instanceof GridportError ? error.details : undefined);
      return null;
    }
    const hashId = url.searchParams.get('deviceId') ?? '';
    try {
      return { actor, hashId, device: await services.devices.find(actor, hashId) };
    } catch (error) {
      refuseUpgrade(socket, error instanceof GridportError ? error.key : 'not_found', { deviceId: hashId });
      return null;
    }
  };

  const open = async (request: IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void> => {
    const found = await developerAndDevice(request, socket, url);
    if (!found) {
      return;
    }
    const { actor, hashId, device } = found;
    const deviceId = device.id;
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

  /**
   * `/v1/device/web-socket/tunnel?deviceId=&destination=host:port`: holds the upgrade until the
   * device has dialled back (device-hub/tunnels.ts), then relays binary frames both ways.
   */
  const openTunnel = async (request: IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void> => {
    const destination = url.searchParams.get('destination') ?? '';
    const issues = issuesOf(cloudToDeviceCommandSchemas.openTunnel, { type: 'openTunnel', tunnelId: 'check', destination });
    if (issues.length > 0) {
      refuseUpgrade(socket, 'query_invalid', issues);
      return;
    }
    const found = await developerAndDevice(request, socket, url);
    if (!found) {
      return;
    }
    const { actor, hashId, device } = found;
    if (!device.online) {
      refuseUpgrade(socket, 'device_tunnel_timeout', { reason: 'the device is offline' });
      return;
    }
    const tunnelId = newTunnelId();
    const waiting = awaitDeviceTunnel(services.pubsub, tunnelId, device.id, tunnelOpenTimeoutMs);
    // The developer may give up while the device is being asked.
    socket.once('close', waiting.cancel);
    try {
      await services.deviceMessages.send(actor, hashId, { type: 'openTunnel', tunnelId, destination });
    } catch (error) {
      waiting.cancel();
      refuseUpgrade(socket, error instanceof GridportError ? error.key : 'internal_server_error', error instanceof GridportError ? error.details : undefined);
      if (!(error instanceof GridportError)) {
        log.error({ err: error }, 'queueing openTunnel failed');
      }
      return;
    }
    const outcome = await waiting.outcome;
    socket.off('close', waiting.cancel);
    if (!outcome.ok) {
      if (outcome.reason !== 'cancelled') {
        refuseUpgrade(socket, 'device_tunnel_timeout', { reason: outcome.reason });
      }
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      log.info({ deviceHashId: hashId, destination }, 'developer tunnel open');
      relay(ws, outcome.link);
    });
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(request.url ?? '/', 'http://gridport');
    const handler = url.pathname === developerChannelPath ? open : url.pathname === developerTunnelPath ? openTunnel : null;
    if (!handler) {
      return;
    }
    handler(request, socket, head, url).catch((error: unknown) => {
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
