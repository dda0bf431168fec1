import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import { hubLimits, tunnelHeaders, tunnelPath } from '../contracts/hub/protocol';
import { closeWebSockets, refuseUpgrade } from './upgrade';
import type { CertifiedDevice } from './gateway-server';
import { verifyDeviceSignature } from '../graph/fleet/services/certificate-authority';
import type { PubSub } from '../graph/common/pubsub';

/**
 * TCP tunnels through a device (api.md section 7, spec README "Developer access"):
 *
 *   developer ──ws──▶ node A (/v1/device/web-socket/tunnel) ─┐
 *                                                            │ pub/sub, one channel each way
 *   device    ──ws──▶ node B (/v1/device/connect/tunnel)   ◀─┘      ──tcp──▶ host:port on site
 *
 * Node A makes a tunnel id (a secret), queues `openTunnel { tunnelId, destination }` for the
 * device and holds the developer's upgrade request until the device dials back, proving itself
 * with its certificate and a signature over the tunnel id. Both sides may be on different nodes:
 * the bytes travel over the pub/sub (in process, or Redis across nodes), in order. A device that
 * does not dial back in time, or cannot reach the destination, gives the developer
 * `400 device_tunnel_timeout` with the reason.
 */

/** Signals between the two ends of a tunnel. */
type TunnelSignal =
  | { kind: 'open'; deviceId: number }
  | { kind: 'failed'; deviceId: number; reason: string }
  | { kind: 'accepted' }
  | { kind: 'data'; data: string }
  | { kind: 'close'; reason: string };

const tunnelChannels = {
  /** What the device's end sends to the developer's end. */
  toDeveloper: (tunnelId: string) => `tunnel:${tunnelId}:developer`,
  /** What the developer's end sends to the device's end. */
  toDevice: (tunnelId: string) => `tunnel:${tunnelId}:device`,
};

/** A tunnel id: 24 random bytes, base64url (32 characters). */
const tunnelIdPattern = /^[A-Za-z0-9_-]{32}$/;

export function newTunnelId(): string {
  return randomBytes(24).toString('base64url');
}

/** One end of a tunnel, once both are there: bytes out, bytes in, and the end of it. */
export interface TunnelLink {
  send(data: Buffer): void;
  onData(handler: (data: Buffer) => void): void;
  onClose(handler: (reason: string) => void): void;
  close(reason: string): void;
}

function link(pubsub: PubSub, outbound: string, inbound: string): TunnelLink {
  let dataHandler: (data: Buffer) => void = () => undefined;
  let closeHandler: (reason: string) => void = () => undefined;
  let closed = false;
  let dataHandlerSet = false;
  const buffered: Buffer[] = [];
  const finish = (reason: string) => {
    if (!closed) {
      closed = true;
      stop();
      closeHandler(reason);
    }
  };
  const stop = pubsub.subscribe(inbound, (message) => {
    const signal = message as TunnelSignal;
    if (signal.kind === 'data') {
      const bytes = Buffer.from(signal.data, 'base64');
      if (dataHandlerSet) {
        dataHandler(bytes);
      } else {
        buffered.push(bytes);
      }
    } else if (signal.kind === 'close') {
      finish(signal.reason);
    }
  });
  return {
    send: (data) => {
      if (!closed) {
        pubsub.publish(outbound, { kind: 'data', data: data.toString('base64') } satisfies TunnelSignal);
      }
    },
    onData: (handler) => {
      dataHandler = handler;
      dataHandlerSet = true;
      for (const bytes of buffered.splice(0)) {
        handler(bytes);
      }
    },
    onClose: (handler) => {
      closeHandler = handler;
    },
    close: (reason) => {
      if (!closed) {
        pubsub.publish(outbound, { kind: 'close', reason } satisfies TunnelSignal);
        finish(reason);
      }
    },
  };
}

export type TunnelOutcome = { ok: true; link: TunnelLink } | { ok: false; reason: string };

/**
 * The developer's end: waits for device `deviceId` to dial back for `tunnelId` (subscribe before
 * queueing openTunnel). Resolves with the link, or with why there is none; `cancel` gives up
 * (the developer went away).
 */
export function awaitDeviceTunnel(
  pubsub: PubSub,
  tunnelId: string,
  deviceId: number,
  timeoutMs: number = hubLimits.tunnelOpenTimeoutMs,
): { outcome: Promise<TunnelOutcome>; cancel(): void } {
  let settle: (outcome: TunnelOutcome) => void = () => undefined;
  const outcome = new Promise<TunnelOutcome>((resolve) => {
    settle = resolve;
  });
  let settled = false;
  const done = (result: TunnelOutcome) => {
    if (!settled) {
      settled = true;
      clearTimeout(timer);
      stop();
      settle(result);
    }
  };
  const stop = pubsub.subscribe(tunnelChannels.toDeveloper(tunnelId), (message) => {
    const signal = message as TunnelSignal;
    if (signal.kind === 'open' && signal.deviceId === deviceId) {
      // Subscribe for the device's bytes before telling it to go on, so none is missed.
      const developerEnd = link(pubsub, tunnelChannels.toDevice(tunnelId), tunnelChannels.toDeveloper(tunnelId));
      pubsub.publish(tunnelChannels.toDevice(tunnelId), { kind: 'accepted' } satisfies TunnelSignal);
      done({ ok: true, link: developerEnd });
    } else if (signal.kind === 'failed' && signal.deviceId === deviceId) {
      done({ ok: false, reason: signal.reason });
    }
  });
  const timer = setTimeout(() => done({ ok: false, reason: `the device did not set up the tunnel within ${timeoutMs / 1000} s` }), timeoutMs);
  return {
    outcome,
    cancel: () => done({ ok: false, reason: 'cancelled' }),
  };
}

/** Relays a websocket and a tunnel link into each other until either ends. */
export function relay(ws: WebSocket, end: TunnelLink): void {
  end.onData((data) => {
    if (ws.readyState === WebSocket.OPEN) {
      ws.send(data, { binary: true });
    }
  });
  end.onClose((reason) => {
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) {
      ws.close(1000, reason.slice(0, 120));
    }
  });
  ws.on('message', (data: RawData) => end.send(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)));
  ws.on('close', () => end.close('the other side closed'));
  ws.on('error', () => end.close('the other side failed'));
}

export interface TunnelServerOptions {
  pubsub: PubSub;
  log: Logger;
  verifyCertificate(pem: string): Promise<CertifiedDevice | null>;
  /** How long the device's end waits for the developer's to accept it. */
  acceptWithinMs?: number;
}

/**
 * The device's end: `/v1/device/connect/tunnel?tunnelId=` (and `&error=` when the device could
 * not reach the destination), with the certificate and the signature over the tunnel id in the
 * headers of contracts/hub/protocol.ts `tunnelHeaders`.
 */
export class TunnelServer {
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: hubLimits.maxFrameBytes });
  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(request.url ?? '/', 'http://hub');
    if (url.pathname !== tunnelPath) {
      return;
    }
    this.open(request, socket, head, url).catch((error: unknown) => {
      this.options.log.error({ err: error }, 'opening the device end of a tunnel failed');
      refuseUpgrade(socket, 'internal_server_error');
    });
  };

  constructor(private readonly options: TunnelServerOptions) {}

  attach(server: Server): void {
    server.on('upgrade', this.onUpgrade);
  }

  private async device(request: IncomingMessage, tunnelId: string): Promise<CertifiedDevice | null> {
    const certificate = request.headers[tunnelHeaders.certificate];
    const signature = request.headers[tunnelHeaders.signature];
    if (typeof certificate !== 'string' || typeof signature !== 'string') {
      return null;
    }
    const device = await this.options.verifyCertificate(Buffer.from(certificate, 'base64').toString('utf8')).catch(() => null);
    if (!device) {
      return null;
    }
    const verified = verifyDeviceSignature(device.publicKey, Buffer.from(tunnelId, 'utf8'), Buffer.from(signature, 'base64'));
    return verified ? device : null;
  }

  private async open(request: IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void> {
    const tunnelId = url.searchParams.get('tunnelId') ?? '';
    if (!tunnelIdPattern.test(tunnelId)) {
      refuseUpgrade(socket, 'query_invalid', [{ path: 'tunnelId', message: 'tunnelId must be the id openTunnel gave' }]);
      return;
    }
    const device = await this.device(request, tunnelId);
    if (!device) {
      this.options.log.warn({ tunnelId: `${tunnelId.slice(0, 4)}…` }, 'a tunnel dial-back did not prove a provisioned device');
      refuseUpgrade(socket, 'unauthorized');
      return;
    }
    const { pubsub } = this.options;
    const failure = url.searchParams.get('error');
    if (failure !== null) {
      pubsub.publish(tunnelChannels.toDeveloper(tunnelId), {
        kind: 'failed',
        deviceId: device.deviceId,
        reason: `the device could not open the tunnel: ${failure.slice(0, 500)}`,
      } satisfies TunnelSignal);
      socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n');
      return;
    }
    const deviceEnd = link(pubsub, tunnelChannels.toDeveloper(tunnelId), tunnelChannels.toDevice(tunnelId));
    const accepted = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        stop();
        resolve(false);
      }, this.options.acceptWithinMs ?? 5_000);
      const stop = pubsub.subscribe(tunnelChannels.toDevice(tunnelId), (message) => {
        if ((message as TunnelSignal).kind === 'accepted') {
          clearTimeout(timer);
          stop();
          resolve(true);
        }
      });
      pubsub.publish(tunnelChannels.toDeveloper(tunnelId), { kind: 'open', deviceId: device.deviceId } satisfies TunnelSignal);
    });
    if (!accepted) {
      deviceEnd.close('nobody waits for this tunnel');
      refuseUpgrade(socket, 'not_found', { reason: 'no developer waits for this tunnel (it timed out or was closed)' });
      return;
    }
    this.sockets.handleUpgrade(request, socket, head, (ws) => {
      this.options.log.info({ device: device.identifier }, 'tunnel open');
      relay(ws, deviceEnd);
    });
  }

  async close(): Promise<void> {
    await closeWebSockets(this.sockets, 1001, 'the server is stopping');
  }
}
