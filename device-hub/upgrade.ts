import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import { errorCatalogue, type ErrorKey } from '../contracts/errors';

/** Answers a websocket upgrade refused before any websocket exists: the catalogue's status and `{ key, details }` body, and `headers` (Retry-After). */
export function refuseUpgrade(socket: Duplex, key: ErrorKey, details?: unknown, headers: Record<string, string> = {}): void {
  const { status, message } = errorCatalogue[key];
  const body = JSON.stringify(details === undefined ? { key } : { key, details });
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${message}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}

/** Closes every client of a websocket server with `code`, then the server itself. */
export async function closeWebSockets(sockets: WebSocketServer, code: number, reason: string): Promise<void> {
  for (const client of sockets.clients) {
    client.close(code, reason);
  }
  await new Promise<void>((resolve) => sockets.close(() => resolve()));
}
