import { promises as fs } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ForwardedMessage } from '../../contracts/forwarding';
import type { CaSignedCertificate } from './http-and-files-support';
import { receivedOf, type ForwardingPeer, type PeerStarter } from './peer';

/** One line Loki keeps: its stream's labels, its time in nanoseconds (a decimal string) and its text. */
export interface LokiEntry {
  labels: Record<string, string>;
  timestamp: string;
  line: string;
}

export interface LokiPeer extends ForwardingPeer {
  entries: LokiEntry[];
}

type PushBody = { streams: { stream: Record<string, string>; values: [string, string][] }[] };

/** Loki's checks of a JSON push (its /loki/api/v1/push reference): a stream's labels are strings, each value a [nanoseconds, line] pair of strings. */
function pushProblem(body: unknown): string | null {
  const streams = (body as { streams?: unknown } | null)?.streams;
  if (!Array.isArray(streams)) {
    return 'streams must be an array';
  }
  for (const entry of streams as { stream?: unknown; values?: unknown }[]) {
    const labels = entry.stream;
    if (typeof labels !== 'object' || labels === null || Object.keys(labels).length === 0 || Object.values(labels).some((value) => typeof value !== 'string')) {
      return 'error at least one label pair is required per stream';
    }
    if (!Array.isArray(entry.values)) {
      return 'values must be an array';
    }
    for (const value of entry.values as unknown[]) {
      if (!Array.isArray(value) || value.length < 2 || typeof value[0] !== 'string' || !/^\d+$/.test(value[0]) || typeof value[1] !== 'string') {
        return 'each value must be a [string nanoseconds, string line] pair';
      }
    }
  }
  return null;
}

/**
 * The grafana-loki peer: no Loki server is packaged for Debian, so a local fake of Loki's push
 * API (POST /loki/api/v1/push, JSON) that checks the body as Loki does (400 on a malformed push),
 * needs the tenant (X-Scope-OrgID) and basic credentials of its settings, drops a line pushed
 * again with the same labels, time and text as Loki does, and while broken stops listening.
 * With `tls` it serves https with that certificate, and the settings name
 * `https://localhost:<port>` and the CA to trust.
 */
export interface LokiPeerStarter extends PeerStarter {
  start(options?: { tls?: CaSignedCertificate }): Promise<LokiPeer>;
}

export const grafanaLokiPeer: LokiPeerStarter = {
  kind: 'grafana-loki',
  missing: () => null,
  async start(options = {}) {
    const { tls } = options;
    const tenantId = 'tenant-17';
    const authorization = `Basic ${Buffer.from('loki-writer:s3cret-loki').toString('base64')}`;
    const entries: LokiEntry[] = [];
    const seen = new Set<string>();
    const handle: http.RequestListener = (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const answer = (status: number, text = '') => response.writeHead(status, { 'content-type': 'text/plain' }).end(text);
        if (request.method !== 'POST' || request.url !== '/loki/api/v1/push') {
          answer(404, '404 page not found\n');
          return;
        }
        if (request.headers.authorization !== authorization) {
          answer(401, 'authentication failed\n');
          return;
        }
        if (request.headers['x-scope-orgid'] !== tenantId) {
          answer(401, 'no org id\n');
          return;
        }
        if (!/^application\/json/.test(request.headers['content-type'] ?? '')) {
          answer(415, 'unsupported content type\n');
          return;
        }
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch (error) {
          answer(400, `loghttp.PushRequest.Streams: ${(error as Error).message}\n`);
          return;
        }
        const problem = pushProblem(body);
        if (problem) {
          answer(400, `${problem}\n`);
          return;
        }
        for (const { stream, values } of (body as PushBody).streams) {
          const labelKey = JSON.stringify(Object.entries(stream).sort());
          for (const [timestamp, line] of values) {
            const key = `${labelKey}\n${timestamp}\n${line}`;
            if (!seen.has(key)) {
              seen.add(key);
              entries.push({ labels: stream, timestamp, line });
            }
          }
        }
        answer(204);
      });
    };
    const server = tls ? https.createServer({ cert: await fs.readFile(tls.certFile), key: await fs.readFile(tls.keyFile) }, handle) : http.createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      kind: 'grafana-loki',
      settings: {
        url: tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`,
        tenantId,
        username: 'loki-writer',
        password: 's3cret-loki',
        ...(tls ? { tlsCaCertificate: tls.caCertificate } : {}),
      },
      entries,
      received: () => Promise.resolve(entries.map(({ line }) => receivedOf(JSON.parse(line) as ForwardedMessage))),
      break: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
      heal: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
      stop: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          if (!server.listening) {
            resolve();
            return;
          }
          server.close(() => resolve());
        }),
    };
  },
};
