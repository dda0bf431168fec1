import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MoneybirdContact, MoneybirdSettings } from '../graph/billing/services/moneybird.client';

/** A contact as Moneybird keeps it: the fields Gridport reads, and some it does not. */
export type FakeMoneybirdContact = MoneybirdContact & Record<string, unknown>;

export interface FakeMoneybird {
  /** The API's base URL, as MONEYBIRD_API_URL takes it (http://127.0.0.1:<port>/api/v2). */
  apiUrl: string;
  administrationId: string;
  token: string;
  contacts: FakeMoneybirdContact[];
  /** Each request: method, path and the Authorization header it carried. */
  requests: { method: string; path: string; authorization: string | undefined }[];
  /** Answers every request with this status from now on (503: Moneybird down); null answers normally. */
  failWith: number | null;
  settings(overrides?: Partial<MoneybirdSettings>): MoneybirdSettings;
  /** A contact with Moneybird's empty fields ("") and these overrides, kept and answered. */
  addContact(overrides: Partial<FakeMoneybirdContact> & { id: string }): FakeMoneybirdContact;
  close(): Promise<void>;
}

/**
 * A local stand-in for Moneybird's REST API v2 that speaks the part Gridport uses:
 * GET /api/v2/{administration_id}/contacts/{id}.json with `Authorization: Bearer <token>`.
 * A wrong token is 401 `{ "error": "Token is invalid" }`, another administration 404
 * (Moneybird does not show administrations a token cannot reach), an unknown contact 404
 * `{ "error": "record not found" }`.
 */
export async function fakeMoneybird({
  token = 'moneybird-test-token',
  administrationId = '123456789012345678',
}: { token?: string; administrationId?: string } = {}): Promise<FakeMoneybird> {
  const state: Pick<FakeMoneybird, 'contacts' | 'requests' | 'failWith'> = { contacts: [], requests: [], failWith: null };
  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://fake-moneybird').pathname;
    state.requests.push({ method: request.method ?? 'GET', path, authorization: request.headers.authorization });
    if (state.failWith !== null) {
      send(response, state.failWith, { error: 'Service unavailable' });
      return;
    }
    if (request.headers.authorization !== `Bearer ${token}`) {
      send(response, 401, { error: 'Token is invalid' });
      return;
    }
    const contact = /^\/api\/v2\/([^/]+)\/contacts\/([^/]+)\.json$/.exec(path);
    if (request.method !== 'GET' || !contact || contact[1] !== administrationId) {
      send(response, 404, { error: 'record not found' });
      return;
    }
    const found = state.contacts.find((candidate) => candidate.id === contact[2]);
    send(response, found ? 200 : 404, found ?? { error: 'record not found', symbolic: { id: 'not_found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`;
  const fake: FakeMoneybird = {
    apiUrl,
    administrationId,
    token,
    get contacts() {
      return state.contacts;
    },
    get requests() {
      return state.requests;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(status: number | null) {
      state.failWith = status;
    },
    settings: (overrides = {}) => ({ apiUrl, administrationId, apiToken: token, ...overrides }),
    addContact: (overrides) => {
      const contact: FakeMoneybirdContact = {
        administration_id: administrationId,
        company_name: '',
        firstname: '',
        lastname: '',
        address1: '',
        address2: '',
        zipcode: '',
        city: '',
        country: 'NL',
        phone: '',
        delivery_method: 'Email',
        customer_id: overrides.id.slice(-4),
        email: '',
        send_invoices_to_email: '',
        chamber_of_commerce: '',
        tax_number: '',
        bank_account: '',
        version: 1,
        ...overrides,
      };
      state.contacts.push(contact);
      return contact;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return fake;
}
