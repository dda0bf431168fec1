import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GrafanaOnCallSettings } from '../graph/operations/services/grafana-oncall.client';

/** A user as OnCall keeps them (the fields of GET /api/v1/users/<id>/). */
export interface FakeGrafanaUser {
  id: string;
  email: string;
  username: string;
  role: 'admin' | 'user' | 'observer';
}

/** A schedule as OnCall keeps it; `on_call_now` are the ids of the users on call at this moment. */
export interface FakeGrafanaSchedule {
  id: string;
  name: string;
  type: 'web' | 'calendar' | 'ical';
  team_id: string | null;
  time_zone: string;
  on_call_now: string[];
}

export interface FakeGrafanaOnCall {
  url: string;
  token: string;
  users: FakeGrafanaUser[];
  schedules: FakeGrafanaSchedule[];
  /** Each request: method, path and the Authorization header it carried. */
  requests: { method: string; path: string; authorization: string | undefined }[];
  settings(overrides?: Partial<GrafanaOnCallSettings>): GrafanaOnCallSettings;
  close(): Promise<void>;
}

/**
 * A local stand-in for Grafana OnCall's public HTTP API (v1) that speaks the part Gridport uses:
 * GET /api/v1/schedules/<id>/ (with `on_call_now`) and GET /api/v1/users/<id>/, each needing the
 * API token in the Authorization header (401 `{ "detail": ... }` otherwise, 404 for an unknown id).
 */
export async function fakeGrafanaOnCall({ token = 'grafana-oncall-test-token' }: { token?: string } = {}): Promise<FakeGrafanaOnCall> {
  const fake: Pick<FakeGrafanaOnCall, 'token' | 'users' | 'schedules' | 'requests'> = { token, users: [], schedules: [], requests: [] };
  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://fake-grafana-oncall').pathname;
    fake.requests.push({ method: request.method ?? 'GET', path, authorization: request.headers.authorization });
    if (request.headers.authorization !== token) {
      send(response, 401, { detail: 'Invalid token.' });
      return;
    }
    const schedule = /^\/api\/v1\/schedules\/([^/]+)\/$/.exec(path);
    if (request.method === 'GET' && schedule) {
      const found = fake.schedules.find((candidate) => candidate.id === schedule[1]);
      send(response, found ? 200 : 404, found ?? { detail: 'Not found.' });
      return;
    }
    const user = /^\/api\/v1\/users\/([^/]+)\/$/.exec(path);
    if (request.method === 'GET' && user) {
      const found = fake.users.find((candidate) => candidate.id === user[1]);
      send(response, found ? 200 : 404, found ? { ...found, slack: [], timezone: 'UTC', teams: [] } : { detail: 'Not found.' });
      return;
    }
    send(response, 404, { detail: 'Not found.' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...fake,
    url,
    settings: (overrides = {}) => ({ url, token, scheduleId: fake.schedules[0]?.id ?? 'SNOSCHEDULE', ...overrides }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
