import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ForwardedMessage } from '../../contracts/forwarding';
import type { ForwardingPeer, PeerStarter } from './peer';
import { receivedFromJson } from './http-and-files-support';

/** A request the http peer took. */
export interface HttpPeerRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
}

export interface HttpPeer extends ForwardingPeer {
  /** Every request, answered or refused, in order. */
  requests: HttpPeerRequest[];
}

/**
 * The http peer: a node:http server on 127.0.0.1 that takes JSON arrays of messages (any path,
 * POST or PUT) and keeps them; it needs the Authorization header of its settings, and while
 * broken answers 503.
 */
export interface HttpPeerStarter extends PeerStarter {
  start(): Promise<HttpPeer>;
}

export const httpPeer: HttpPeerStarter = {
  kind: 'http',
  missing: () => null,
  async start() {
    const token = 'Bearer peer-token-3f9a';
    const requests: HttpPeerRequest[] = [];
    const batches: string[] = [];
    let broken = false;
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let status = 200;
        if (broken) {
          status = 503;
        } else if (request.headers.authorization !== token) {
          status = 401;
        } else if (!/^application\/json/.test(request.headers['content-type'] ?? '') || !Array.isArray(safeJson(body))) {
          status = 400;
        } else {
          batches.push(body);
        }
        requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body, status });
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(status === 200 ? { ok: true } : { error: status }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      kind: 'http',
      settings: {
        url: `http://127.0.0.1:${port}/ingest/gridport?source=test`,
        method: 'POST',
        headers: [{ name: 'Authorization', value: token }],
        timeoutMs: 5000,
      },
      requests,
      received: () => Promise.resolve(batches.flatMap((body) => receivedFromJson(body))),
      break: () => {
        broken = true;
        return Promise.resolve();
      },
      heal: () => {
        broken = false;
        return Promise.resolve();
      },
      stop: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  },
};

function safeJson(text: string): ForwardedMessage[] | null {
  try {
    return JSON.parse(text) as ForwardedMessage[];
  } catch {
    return null;
  }
}
