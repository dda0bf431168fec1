import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BalenaDevice, BalenaRelease, BalenaSettings } from '../graph/fleet/services/balena.client';

/** A release as the fake keeps it: Balena's fields and the fleet and build status it filters on. */
export interface FakeRelease extends BalenaRelease {
  belongs_to__application: number;
  status: 'success' | 'failed' | 'running';
  /** A release withdrawn in the dashboard: never offered for pinning. */
  is_invalidated: boolean;
}

export interface FakeDevice extends BalenaDevice {
  is_pinned_on__release: number | null;
}

/** One request the fake received. */
export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export interface FakeBalena {
  url: string;
  token: string;
  fleetId: number;
  devices: FakeDevice[];
  releases: FakeRelease[];
  requests: FakeRequest[];
  /** `ok` answers; `fail` answers 500; `hang` never answers. */
  mode: 'ok' | 'fail' | 'hang';
  /** Settings for a client of this fake. */
  settings(overrides?: Partial<BalenaSettings>): BalenaSettings;
  close(): Promise<void>;
}

/**
 * A local stand-in for Balena Cloud's v7 resource API that speaks the part Gridport uses:
 * GET /v7/device with `$filter=uuid eq '…'`, GET /v7/release with
 * `$filter=belongs_to__application eq N and status eq '…'` (`$orderby=created_at desc`),
 * and PATCH /v7/device(<id>) with `is_pinned_on__release`. Every call needs the Bearer token.
 */
export async function fakeBalena({ token = 'balena-test-token', fleetId = 1234 }: { token?: string; fleetId?: number } = {}): Promise<FakeBalena> {
  const hanging = new Set<ServerResponse>();
  const fake: Omit<FakeBalena, 'url' | 'settings' | 'close'> = { token, fleetId, devices: [], releases: [], requests: [], mode: 'ok' };

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const select = (row: object, fields: string | undefined) =>
    fields ? Object.fromEntries(fields.split(',').map((field) => [field, (row as Record<string, unknown>)[field] ?? null])) : row;

  const handle = (request: IncomingMessage, response: ServerResponse, text: string) => {
    const url = new URL(request.url ?? '/', 'http://fake-balena');
    const query = Object.fromEntries(url.searchParams.entries());
    const method = request.method ?? 'GET';
    let body: unknown = null;
    try {
      body = text === '' ? null : (JSON.parse(text) as unknown);
    } catch {
      send(response, 400, { error: 'body is not JSON' });
      return;
    }
    fake.requests.push({ method, path: url.pathname, query, body });
    if (fake.mode === 'hang') {
      hanging.add(response);
      return;
    }
    if (fake.mode === 'fail') {
      send(response, 500, { error: 'internal' });
      return;
    }
    if (request.headers.authorization !== `Bearer ${token}`) {
      response.writeHead(401, { 'content-type': 'text/plain' });
      response.end('Unauthorized');
      return;
    }
    const filter = query.$filter ?? '';
    if (method === 'GET' && url.pathname === '/v7/device') {
      const uuid = /^uuid eq '((?:[^']|'')*)'$/.exec(filter)?.[1]?.replace(/''/g, "'");
      if (uuid === undefined) {
        send(response, 400, { error: `unsupported $filter: ${filter}` });
        return;
      }
      const rows = fake.devices
        .filter((device) => device.uuid === uuid)
        .map((device) => ({
          ...device,
          is_running__release: device.is_running__release === null ? null : { __id: device.is_running__release.__id },
        }));
      send(response, 200, { d: rows.map((row) => select(row, query.$select)) });
      return;
    }
    if (method === 'GET' && url.pathname === '/v7/release') {
      const match = /^belongs_to__application eq (\d+) and status eq '(\w+)' and is_invalidated eq (true|false)$/.exec(filter);
      if (!match) {
        send(response, 400, { error: `unsupported $filter: ${filter}` });
        return;
      }
      const rows = fake.releases.filter(
        (release) => release.belongs_to__application === Number(match[1]) && release.status === match[2] && String(release.is_invalidated) === match[3],
      );
      if (query.$orderby === 'created_at desc') {
        rows.sort((a, b) => b.created_at.localeCompare(a.created_at));
      }
      send(response, 200, { d: rows.map((row) => select(row, query.$select)) });
      return;
    }
    const patched = /^\/v7\/device\((\d+)\)$/.exec(url.pathname);
    if (method === 'PATCH' && patched) {
      const device = fake.devices.find((row) => row.id === Number(patched[1]));
      const releaseId = (body as { is_pinned_on__release?: unknown } | null)?.is_pinned_on__release;
      if (!device) {
        send(response, 404, { error: 'no such device' });
        return;
      }
      if (releaseId !== null && !fake.releases.some((release) => release.id === releaseId)) {
        send(response, 400, { error: 'no such release' });
        return;
      }
      device.is_pinned_on__release = releaseId as number | null;
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('OK');
      return;
    }
    send(response, 404, { error: 'not found' });
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handle(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return Object.assign(fake, {
    url,
    settings: (overrides: Partial<BalenaSettings> = {}) => ({ apiUrl: url, apiToken: token, fleetId, ...overrides }),
    close: async () => {
      for (const response of hanging) {
        response.destroy();
      }
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  });
}

/** A successful release of the fake's fleet. */
export function aRelease(fake: Pick<FakeBalena, 'fleetId' | 'releases'>, semver: string, createdAt: string, overrides: Partial<FakeRelease> = {}): FakeRelease {
  const release: FakeRelease = {
    id: 1000 + fake.releases.length,
    commit: `c0ffee${fake.releases.length}`.padEnd(32, '0'),
    semver,
    raw_version: semver,
    created_at: createdAt,
    belongs_to__application: fake.fleetId,
    status: 'success',
    is_invalidated: false,
    ...overrides,
  };
  fake.releases.push(release);
  return release;
}
