import { connect } from 'node:net';
import { runHostCommand, type HostCommandOptions } from './commands';

/** The host and port the agent's websocket goes to, from the cloud's base URL. */
export function cloudEndpoint(baseUrl: string): { host: string; port: number } {
  const url = new URL(baseUrl);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { host: url.hostname, port };
}

/**
 * Whether a TCP connection to host:port opens within `timeoutMs`: the check that the cloud is
 * reachable after a network change. With a prefix (a test's namespace) the connection is
 * opened there, by bash's /dev/tcp.
 */
export async function tcpReachable(host: string, port: number, timeoutMs: number, options: HostCommandOptions = {}): Promise<boolean> {
  if ((options.prefix ?? []).length > 0) {
    const seconds = String(Math.max(1, Math.ceil(timeoutMs / 1000)));
    return runHostCommand(['timeout', seconds, 'bash', '-c', 'exec 3<>"/dev/tcp/$0/$1"', host, String(port)], options, timeoutMs + 2000).then(
      () => true,
      () => false,
    );
  }
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
