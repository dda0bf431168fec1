import net from 'node:net';
import WebSocket, { type RawData } from 'ws';
import { tunnelHeaders, tunnelPath } from '../../contracts/hub/protocol';
import { signChallenge, type GatewayIdentity } from './provision';

export interface OpenTunnelOptions {
  /** The cloud's base URL, http(s)://host:port (as GatewayClient's). */
  baseUrl: string;
  identity: Pick<GatewayIdentity, 'certificatePem' | 'privateKey'>;
  /** From the openTunnel message. */
  tunnelId: string;
  /** host:port on the site's network, from the openTunnel message. */
  destination: string;
  log: (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;
  /** How long reaching the destination may take. */
  connectTimeoutMs?: number;
}

/** Connects to host:port, or says why it could not. */
function connectDestination(destination: string, timeoutMs: number): Promise<net.Socket> {
  const separator = destination.lastIndexOf(':');
  const host = destination.slice(0, separator);
  const port = Number(destination.slice(separator + 1));
  return new Promise((resolve, reject) => {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      reject(new Error(`${destination} has no valid port`));
      return;
    }
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${destination} did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new Error(`${destination}: ${error.code ?? error.message}`));
    });
  });
}

/** Opens the websocket back to the hub for this tunnel (or, with `error`, tells the hub why there is none). */
async function dialBack(options: OpenTunnelOptions, error?: string): Promise<WebSocket> {
  const url = new URL(tunnelPath, options.baseUrl.replace(/^http/, 'ws'));
  url.searchParams.set('tunnelId', options.tunnelId);
  if (error !== undefined) {
    url.searchParams.set('error', error);
  }
  const signature = await signChallenge(options.identity.privateKey, Buffer.from(options.tunnelId, 'utf8').toString('base64'));
  return new WebSocket(url, {
    headers: { [tunnelHeaders.certificate]: Buffer.from(options.identity.certificatePem, 'utf8').toString('base64'), [tunnelHeaders.signature]: signature },
  });
}

/**
 * Carries out openTunnel (device-model.md 3.10; device-hub/tunnels.ts): connects to the
 * destination on the site's network, dials back to the hub proving the device with its key, and
 * relays bytes both ways until either side closes. Resolves once the tunnel is set up; rejects
 * with the reason when the destination cannot be reached (the hub hears it too, so the
 * developer gets the reason at once) or the hub refuses the tunnel.
 */
export async function openTunnel(options: OpenTunnelOptions): Promise<void> {
  let destination: net.Socket;
  try {
    destination = await connectDestination(options.destination, options.connectTimeoutMs ?? 10_000);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const told = await dialBack(options, reason);
    told.on('error', () => undefined);
    told.on('unexpected-response', () => told.terminate());
    throw new Error(reason);
  }
  const hub = await dialBack(options);
  await new Promise<void>((resolve, reject) => {
    hub.once('open', () => resolve());
    hub.once('unexpected-response', (_request, response) => {
      destination.destroy();
      hub.terminate();
      reject(new Error(`the hub refused the tunnel: ${response.statusCode ?? 'no status'}`));
    });
    hub.once('error', (error) => {
      destination.destroy();
      reject(error);
    });
  });
  options.log('info', 'tunnel open', { destination: options.destination });
  hub.on('message', (data: RawData) => destination.write(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)));
  destination.on('data', (data) => {
    if (hub.readyState === WebSocket.OPEN) {
      hub.send(data, { binary: true });
    }
  });
  const end = () => {
    destination.destroy();
    if (hub.readyState === WebSocket.OPEN || hub.readyState === WebSocket.CONNECTING) {
      hub.close(1000, 'tunnel closed');
    }
  };
  hub.on('close', end);
  hub.on('error', end);
  destination.on('close', () => {
    options.log('info', 'tunnel closed', { destination: options.destination });
    end();
  });
  destination.on('error', end);
}
