import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import knex from 'knex';
import { createSigner } from 'fast-jwt';
import { databaseAnswers } from './database';
import { testApp, testSecrets, type TestApp } from '../test-support/app';
import { sessionCookieName } from '../graph/identity/services/session.service';

describe('the HTTP server', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testApp({
      register: (app) => {
        app.get('/test/explode', async () => {
          throw new Error('connection string postgres://secret@db');
        });
      },
    });
  });

  afterAll(async () => {
    await t.close();
  });

  describe('health', () => {
    it('answers 204 on /v1/health and 200 on /v1/elb while the database answers', async () => {
      const health = await t.app.inject({ method: 'GET', url: '/v1/health' });
      expect(health.statusCode).toBe(204);
      expect(health.body).toBe('');
      const elb = await t.app.inject({ method: 'GET', url: '/v1/elb' });
      expect(elb.statusCode).toBe(200);
      expect(elb.json()).toEqual({ status: 'ok' });
    });

    it('answers 503 service_unavailable when the database does not answer', async () => {
      const quiet = () => undefined;
      const unreachable = knex({
        client: 'pg',
        connection: 'postgresql://postgres@127.0.0.1:9/none',
        pool: { min: 0, max: 1 },
        acquireConnectionTimeout: 1000,
        log: { warn: quiet, error: quiet, debug: quiet, deprecate: quiet },
      });
      const down = await testApp({ databaseAnswers: () => databaseAnswers(unreachable, 1500) });
      try {
        for (const url of ['/v1/health', '/v1/elb']) {
          const response = await down.app.inject({ method: 'GET', url });
          expect(response.statusCode).toBe(503);
          expect(response.json()).toEqual({ key: 'service_unavailable', details: { service: 'database' } });
        }
      } finally {
        await down.close();
        await unreachable.destroy();
      }
    });
  });

  describe('errors', () => {
    it('answers an unknown route with 404 not_found', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/v1/nothing-here?x=1' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ key: 'not_found', details: { method: 'GET', url: '/v1/nothing-here' } });
    });

    it('answers a body that is not JSON with 400 payload_not_json', async () => {
      const cookie = await t.signIn(['gridport.ops']);
      const cases = [
        { payload: '{"name": ', contentType: 'application/json' },
        { payload: '', contentType: 'application/json' },
        { payload: 'name=x', contentType: 'text/plain' },
      ];
      for (const { payload, contentType } of cases) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/console-admin/v1/organization',
          headers: { cookie, 'content-type': contentType },
          payload,
        });
        expect(response.statusCode).toBe(400);
        expect({ contentType, payload, key: response.json().key }).toEqual({ contentType, payload, key: 'payload_not_json' });
      }
    });

    it('answers a compressed body it cannot read with 400 payload_not_readable', async () => {
      const cookie = await t.signIn(['gridport.ops']);
      const response = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/organization',
        headers: { cookie, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ key: 'payload_not_readable', details: { reason: 'content-encoding gzip is not supported' } });
    });

    it('answers a body over 25 MB with 413 payload_too_large', async () => {
      const cookie = await t.signIn(['gridport.ops']);
      const response = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/organization',
        headers: { cookie, 'content-type': 'application/json' },
        payload: `{"name":"${'x'.repeat(25 * 1024 * 1024)}"}`,
      });
      expect(response.statusCode).toBe(413);
      expect(response.json().key).toBe('payload_too_large');
    });

    it('answers a streamed body without a length with 413 payload_too_large once it passes 25 MB', async () => {
      const cookie = await t.signIn(['gridport.ops']);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const answered413 = () => t.logs.lines.filter((line) => (line.res as { statusCode?: number } | undefined)?.statusCode === 413).length;
      const before = answered413();
      // A raw socket, so the test stops writing as soon as the answer starts to arrive. The
      // server answers and closes while the body is still coming; the client may then see a
      // reset before it reads the answer, so the server's own log is the witness too.
      const answer = await new Promise<{ status: number; body: string }>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        let received = '';
        const finish = () => {
          const [head = '', body = ''] = received.split('\r\n\r\n');
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
          const chunked = /transfer-encoding: chunked/i.test(head);
          resolve({
            status,
            body: chunked
              ? body
                  .split('\r\n')
                  .filter((_, i) => i % 2 === 1)
                  .join('')
              : body,
          });
        };
        socket.on('data', (chunk: Buffer) => {
          received += chunk.toString('utf8');
        });
        socket.on('error', () => undefined);
        socket.on('close', finish);
        socket.write(
          `POST /console-admin/v1/organization HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        );
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
        let sent = 0;
        const pump = () => {
          if (received || socket.destroyed || sent >= 30) {
            return;
          }
          sent += 1;
          socket.write(frame, () => setImmediate(pump));
        };
        pump();
      });
      expect(answered413()).toBe(before + 1);
      if (answer.status !== 0) {
        expect(answer.status).toBe(413);
        expect(JSON.parse(answer.body).key).toBe('payload_too_large');
      }
    });

    it('logs a client that hangs up mid-request as 499 client_closed_request', async () => {
      const cookie = await t.signIn(['gridport.ops']);
      await t.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
      const { port } = t.app.server.address() as AddressInfo;
      await new Promise<void>((resolve) => {
        const request = http.request({
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/console-admin/v1/organization',
          headers: { cookie, 'content-type': 'application/json', 'content-length': '1000' },
        });
        request.on('error', () => resolve());
        request.write('{"name": "half');
        setTimeout(() => {
          request.destroy();
          resolve();
        }, 100);
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(t.logs.lines).toContainEqual(expect.objectContaining({ statusCode: 499, key: 'client_closed_request' }));
    });

    it('answers an unexpected error with 500 internal_server_error, logs it, and shows no internals', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/test/explode' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ key: 'internal_server_error' });
      expect(response.body).not.toContain('secret');
      expect(t.logs.lines).toContainEqual(
        expect.objectContaining({ msg: 'unexpected error', err: expect.objectContaining({ message: 'connection string postgres://secret@db' }) }),
      );
    });
  });

  describe('validation', () => {
    it('answers a body that breaks its schema with 400 payload_invalid and each issue', async () => {
      const cookie = await t.signIn(['gridport.ops']);
      const response = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/organization',
        headers: { cookie },
        payload: { name: 'x'.repeat(101), type: 'utility', invoiceFrequency: 'weekly' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        key: 'payload_invalid',
        details: expect.arrayContaining([
          { path: 'name', message: 'name must be at most 100 characters' },
          { path: 'type', message: expect.stringContaining('type must be one of the following values') },
          { path: 'invoiceFrequency', message: expect.stringContaining('invoiceFrequency must be one of the following values') },
        ]),
      });
    });

    it('answers a query that breaks its schema with 400 query_invalid', async () => {
      const cookie = await t.signIn(['gridport.employee']);
      const response = await t.app.inject({ method: 'GET', url: '/console-admin/v1/organization?rowsPerPage=501', headers: { cookie } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ key: 'query_invalid', details: [{ path: 'rowsPerPage', message: 'rowsPerPage must be less than or equal to 500' }] });
    });

    it('answers path parameters that break their schema with 400 params_invalid', async () => {
      const cookie = await t.signIn(['gridport.employee']);
      const response = await t.app.inject({ method: 'GET', url: `/console-admin/v1/organization/${'a'.repeat(65)}`, headers: { cookie } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ key: 'params_invalid', details: [{ path: 'hashId', message: 'hashId must be at most 64 characters' }] });
    });
  });

  describe('authentication', () => {
    it('answers a protected route without a session with 401 unauthorized, before reading the body', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/organization',
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ key: 'unauthorized' });
    });

    it('answers a forged session token with 401 unauthorized', async () => {
      const forged = createSigner({ key: 'another-secret-0123456789abcdef0123456789', algorithm: 'HS256' })({ sid: 1, sub: 'x' });
      const response = await t.app.inject({
        method: 'GET',
        url: '/console-shared/v1/authentication/whoami',
        headers: { cookie: `${sessionCookieName}=${forged}` },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ key: 'unauthorized' });
    });

    it('answers a lapsed session token with 401 jwt_expired', async () => {
      const lapsed = createSigner({ key: testSecrets.sessionSecret, algorithm: 'HS256', expiresIn: 1000, clockTimestamp: Date.now() - 60_000 })({
        sid: 1,
        sub: 'x',
      });
      const response = await t.app.inject({
        method: 'GET',
        url: '/console-shared/v1/authentication/whoami',
        headers: { cookie: `${sessionCookieName}=${lapsed}` },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ key: 'jwt_expired' });
    });

    it('answers a session whose row has lapsed with 401 jwt_expired', async () => {
      const cookie = await t.signIn(['gridport.employee']);
      await t.database.db('sessions').update({ expires_at: new Date(Date.now() - 1000) });
      const response = await t.app.inject({ method: 'GET', url: '/console-shared/v1/authentication/whoami', headers: { cookie } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ key: 'jwt_expired' });
    });

    it('tells who is signed in, and signs out for good', async () => {
      const cookie = await t.signIn(['gridport.ops']);
      const whoami = await t.app.inject({ method: 'GET', url: '/console-shared/v1/authentication/whoami', headers: { cookie } });
      expect(whoami.statusCode).toBe(200);
      expect(whoami.json()).toMatchObject({ user: { rights: ['gridport.ops'] }, organization: { name: 'Gridport', isProvider: true, type: null } });

      const logout = await t.app.inject({ method: 'DELETE', url: '/console-shared/v1/authentication/session', headers: { cookie } });
      expect(logout.statusCode).toBe(204);
      expect(logout.headers['set-cookie']).toEqual(expect.stringContaining(`${sessionCookieName}=;`));

      const after = await t.app.inject({ method: 'GET', url: '/console-shared/v1/authentication/whoami', headers: { cookie } });
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual({ key: 'unauthorized' });
    });
  });

  describe('organisations', () => {
    it('are created, read, listed and updated by staff', async () => {
      const cookie = await t.signIn(['gridport.sales']);
      const created = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/organization',
        headers: { cookie },
        payload: { name: '  Noordzee Energie ', type: 'energy-trader', subscriptionDefaults: { chargePeriod: 1, runtime: 36 } },
      });
      expect(created.statusCode).toBe(201);
      const { organizationHashId } = created.json() as { organizationHashId: string };

      const read = await t.app.inject({ method: 'GET', url: `/console-admin/v1/organization/${organizationHashId}`, headers: { cookie } });
      expect(read.json()).toMatchObject({
        hashId: organizationHashId,
        name: 'Noordzee Energie',
        type: 'energy-trader',
        isProvider: false,
        pricing: null,
        invoiceFrequency: 'monthly',
        requireLegalEntityPerDevice: false,
        requireCustomerReferencePerDevice: false,
        subscriptionDefaults: { chargePeriod: 1, runtime: 36 },
      });

      const updated = await t.app.inject({
        method: 'PUT',
        url: `/console-admin/v1/organization/${organizationHashId}`,
        headers: { cookie },
        payload: { invoiceFrequency: 'daily', pricing: { type: 'usage', tiers: [{ volume: 10, discount: 0 }], rates: { 'asset.solar': 20 } } },
      });
      expect(updated.statusCode).toBe(204);

      const list = await t.app.inject({ method: 'GET', url: '/console-admin/v1/organization?filter=noordzee', headers: { cookie } });
      expect(list.json()).toEqual({
        rows: [
          expect.objectContaining({
            hashId: organizationHashId,
            invoiceFrequency: 'daily',
            pricing: { type: 'usage', tiers: [{ volume: 10, discount: 0 }], rates: { 'asset.solar': 20 } },
          }),
        ],
        nextPageOffset: null,
      });
    });

    it('refuses pricing with a tier of no volume, with the issue path', async () => {
      const cookie = await t.signIn(['gridport.ops']);
      const response = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/organization',
        headers: { cookie },
        payload: { name: 'Tiered', type: 'installer', pricing: { type: 'usage', tiers: [{ volume: 0, discount: -1 }] } },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        key: 'payload_invalid',
        details: [
          { path: 'pricing.tiers[0].volume', message: 'Tier volume must be positive' },
          { path: 'pricing.tiers[0].discount', message: 'Tier discount must not be negative' },
        ],
      });
    });

    it('are refused to a customer with 403 forbidden', async () => {
      const owner = await t.services.organizations.create(
        { kind: 'system', userId: null, apiKeyId: null, organizationId: 1, rights: ['gridport.admin'], name: 'test' },
        {
          name: 'Customer BV',
          type: 'asset-owner',
          pricing: null,
          invoiceCustomerReference: null,
          invoiceFrequency: 'monthly',
          requireLegalEntityPerDevice: false,
          requireCustomerReferencePerDevice: false,
          subscriptionDefaults: null,
        },
      );
      const cookie = await t.signIn(['customer.write'], owner.hashId);
      const response = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/organization',
        headers: { cookie },
        payload: { name: 'Mine', type: 'installer' },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().key).toBe('forbidden');
    });

    it('refuse a customer type for the provider organisation with 403 forbidden_organization', async () => {
      const cookie = await t.signIn(['gridport.ops']);
      const provider = await t.services.organizations.provider();
      const response = await t.app.inject({
        method: 'PUT',
        url: `/console-admin/v1/organization/${provider.hashId}`,
        headers: { cookie },
        payload: { type: 'installer' },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ key: 'forbidden_organization', details: { reason: 'the provider organisation has no customer type' } });
    });

    it('answers the hash id of another entity type with 404 not_found', async () => {
      const cookie = await t.signIn(['gridport.employee']);
      const userHashId = t.hashIds.encode('user', 1);
      const response = await t.app.inject({ method: 'GET', url: `/console-admin/v1/organization/${userHashId}`, headers: { cookie } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ key: 'not_found', details: { organizationHashId: userHashId } });
    });
  });

  describe('audit log', () => {
    it('records each write with a typed diff, filtered by object and transaction, page by page', async () => {
      const cookie = await t.signIn(['gridport.ops']);
      const created = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/organization',
        headers: { cookie },
        payload: { name: 'Audited', type: 'data-receiver' },
      });
      const { organizationHashId } = created.json() as { organizationHashId: string };
      await t.app.inject({
        method: 'PUT',
        url: `/console-admin/v1/organization/${organizationHashId}`,
        headers: { cookie },
        payload: { name: 'Audited BV', requireLegalEntityPerDevice: true },
      });

      const firstPage = await t.app.inject({
        method: 'GET',
        url: `/console-admin/v1/audit-log?objectType=organizations&objectHashId=${organizationHashId}&rowsPerPage=1`,
        headers: { cookie },
      });
      expect(firstPage.statusCode).toBe(200);
      const first = firstPage.json() as {
        rows: { changeType: string; diff: unknown[]; transactionIdentifier: string; user: { name: string } | null }[];
        nextPageOffset: string;
      };
      expect(first.rows).toEqual([
        expect.objectContaining({
          objectHashId: organizationHashId,
          objectType: 'organizations',
          changeType: 'controllerUpdate',
          diff: [
            { type: 'string', name: 'name', oldValue: 'Audited', newValue: 'Audited BV' },
            { type: 'boolean', name: 'requireLegalEntityPerDevice', oldValue: false, newValue: true },
          ],
          user: { hashId: expect.any(String), name: expect.stringMatching(/^User \d+$/) },
        }),
      ]);
      expect(first.nextPageOffset).toEqual(expect.any(String));

      const secondPage = await t.app.inject({
        method: 'GET',
        url: `/console-admin/v1/audit-log?objectType=organizations&objectHashId=${organizationHashId}&rowsPerPage=1&offset=${first.nextPageOffset}`,
        headers: { cookie },
      });
      const second = secondPage.json() as {
        rows: { changeType: string; diff: { name: string; type: string }[]; transactionIdentifier: string }[];
        nextPageOffset: string | null;
      };
      expect(second.rows).toHaveLength(1);
      expect(second.rows[0]?.changeType).toBe('controllerCreate');
      expect(second.rows[0]?.diff).toContainEqual({ type: 'string', name: 'name', oldValue: null, newValue: 'Audited' });
      expect(second.nextPageOffset).toBeNull();

      const byTransaction = await t.app.inject({
        method: 'GET',
        url: `/console-admin/v1/audit-log?transactionIdentifier=${second.rows[0]?.transactionIdentifier}`,
        headers: { cookie },
      });
      expect((byTransaction.json() as { rows: unknown[] }).rows).toHaveLength(1);
    });

    it('answers an offset that does not decode with 400 invalid_offset', async () => {
      const cookie = await t.signIn(['gridport.employee']);
      for (const offset of ['not-a-cursor', Buffer.from('{"v":1,"k":["x"]}').toString('base64url')]) {
        const response = await t.app.inject({ method: 'GET', url: `/console-admin/v1/audit-log?offset=${offset}`, headers: { cookie } });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ key: 'invalid_offset', details: { offset } });
      }
    });

    it('answers an object hash id without its type with 400 query_invalid', async () => {
      const cookie = await t.signIn(['gridport.employee']);
      const response = await t.app.inject({ method: 'GET', url: '/console-admin/v1/audit-log?objectHashId=abc', headers: { cookie } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ key: 'query_invalid', details: [{ path: 'objectHashId', message: 'objectHashId needs objectType' }] });
    });

    it('is refused to customers with 403 forbidden', async () => {
      const organization = await t.services.organizations.provider();
      expect(organization.isProvider).toBe(true);
      const customer = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/organization',
        headers: { cookie: await t.signIn(['gridport.ops']) },
        payload: { name: 'Reader', type: 'installer' },
      });
      const cookie = await t.signIn(['customer.read'], (customer.json() as { organizationHashId: string }).organizationHashId);
      const response = await t.app.inject({ method: 'GET', url: '/console-admin/v1/audit-log', headers: { cookie } });
      expect(response.statusCode).toBe(403);
      expect(response.json().key).toBe('forbidden');
    });
  });

  describe('OpenAPI', () => {
    it('documents every route with the schemas that validate it', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
      expect(response.statusCode).toBe(200);
      const document = response.json() as {
        openapi: string;
        paths: Record<
          string,
          Record<
            string,
            {
              requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> };
              parameters?: { name: string; in: string }[];
            }
          >
        >;
      };
      expect(document.openapi).toBe('3.0.3');
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          '/v1/health',
          '/v1/elb',
          '/console-admin/v1/organization',
          '/console-admin/v1/organization/{hashId}',
          '/console-admin/v1/audit-log',
          '/console-shared/v1/authentication/whoami',
          '/console-shared/v1/authentication/session',
        ]),
      );
      const create = document.paths['/console-admin/v1/organization']?.post;
      const body = create?.requestBody?.content['application/json']?.schema;
      expect(body?.properties.name).toEqual({ type: 'string', maxLength: 100, minLength: 1 });
      expect(body?.required).toEqual(expect.arrayContaining(['name', 'type']));
      const list = document.paths['/console-admin/v1/audit-log']?.get;
      expect(list?.parameters?.map((parameter) => parameter.name)).toEqual(
        expect.arrayContaining(['offset', 'rowsPerPage', 'objectType', 'objectHashId', 'transactionIdentifier']),
      );
    });

    it('describes what the converter cannot type as any value, never with an empty type list (invalid OpenAPI 3.0)', async () => {
      const text = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).body;
      expect(text).not.toContain('"type":[]');
      const document = JSON.parse(text) as {
        paths: Record<
          string,
          Record<
            string,
            {
              requestBody?: {
                content: Record<
                  string,
                  { schema: { properties: Record<string, { description?: string; items?: { properties: Record<string, { description?: string }> } }> } }
                >;
              };
            }
          >
        >;
      };
      const schedule = document.paths['/v2/schedule']?.put?.requestBody?.content['application/json']?.schema;
      expect(schedule?.properties.schedule?.items?.properties.command?.description).toMatch(/^Any JSON value/);
    });
  });
});
