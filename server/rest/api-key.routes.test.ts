import { generateKeyPairSync } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import { organizationCreateSchema } from '../../contracts/organization';
import { validate } from '../../contracts/validation';
import { systemActor } from '../../graph/common/context';
import { testApp, type TestApp } from '../../test-support/app';

const base = '/v1/api-key';

describe('API keys over HTTP', () => {
  let t: TestApp;
  let ops: string;
  let developer: string;
  let employee: string;
  let customerHashId: string;
  let providerHashId: string;

  beforeAll(async () => {
    t = await testApp();
    ops = await t.signIn(['gridport.ops']);
    developer = await t.signIn(['gridport.developer']);
    employee = await t.signIn(['gridport.employee']);
    providerHashId = t.hashIds.encode('organization', 1);
    const customer = await t.services.organizations.create(
      systemActor('test'),
      validate(organizationCreateSchema, { name: 'Windpark Noord', type: 'asset-owner' }, 'payload_invalid'),
    );
    customerHashId = customer.hashId;
  });

  afterAll(async () => {
    await t.close();
  });

  async function whoami(cookie: string): Promise<{ hashId: string; email: string; name: string }> {
    const response = await t.app.inject({ method: 'GET', url: '/console-shared/v1/authentication/whoami', headers: { cookie } });
    const { hashId, email, name } = response.json().user as { hashId: string; email: string; name: string };
    return { hashId, email, name };
  }

  async function createKey(cookie: string, body: Record<string, unknown>): Promise<{ hashId: string; apiKey: string }> {
    const response = await t.app.inject({ method: 'POST', url: base, headers: { cookie }, payload: body });
    expect(response.statusCode).toBe(201);
    return response.json() as { hashId: string; apiKey: string };
  }

  /** A call any key may make: the key's own view of itself is not a route, so use a route that needs an API key. */
  function asKey(apiKey: string, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) {
    return t.app.inject({ method: 'GET', url: '/v1/contact', headers: { authorization: `Bearer ${apiKey}`, ...headers }, remoteAddress });
  }

  describe('create, get and list', () => {
    it('create a customer key answering 201 with its secret once, carrying customer rights and its creator', async () => {
      const created = await createKey(ops, { organizationHashId: customerHashId, name: 'Trader integration', ipRanges: ['203.0.113.0/24'] });
      expect(created.apiKey).toMatch(new RegExp(`^gp_${created.hashId}_[A-Za-z0-9_-]{43}$`));

      const got = await t.app.inject({ method: 'GET', url: `${base}/${created.hashId}`, headers: { cookie: employee } });
      expect(got.statusCode).toBe(200);
      expect(got.json()).toEqual({
        hashId: created.hashId,
        name: 'Trader integration',
        ipRanges: ['203.0.113.0/24'],
        rights: ['customer.read', 'customer.write'],
        user: await whoami(ops),
      });
      expect(got.body).not.toContain(created.apiKey.slice(-43));
    });

    it('give a provider key the staff rights of the user who creates it', async () => {
      const created = await createKey(developer, { organizationHashId: providerHashId, name: 'Developer tools' });
      const got = await t.app.inject({ method: 'GET', url: `${base}/${created.hashId}`, headers: { cookie: employee } });
      expect(got.json()).toMatchObject({ rights: ['gridport.developer'], ipRanges: [] });
    });

    it('keep only a SHA-256 hash of the secret in the database', async () => {
      const created = await createKey(ops, { organizationHashId: customerHashId, name: 'Hashed' });
      const row = await t.database.db('api_keys').where('id', t.hashIds.decode('apiKey', created.hashId)).first();
      const secret = created.apiKey.slice(-43);
      expect(JSON.stringify(row)).not.toContain(secret);
      expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
      const audit = await t.database.db('audit_log').where({ object_type: 'api_keys', object_id: row.id });
      expect(audit).toHaveLength(1);
      expect(JSON.stringify(audit)).not.toContain(secret);
      expect(audit[0].diff).toContainEqual({ type: 'hidden', name: 'secretHash' });
    });

    it('list keys with their organisation and creator, never a secret, filtered and paged', async () => {
      const first = await createKey(ops, { organizationHashId: customerHashId, name: 'Listed alpha' });
      const second = await createKey(ops, { organizationHashId: customerHashId, name: 'Listed beta' });
      const page = await t.app.inject({ method: 'GET', url: `${base}?filter=Listed&rowsPerPage=1`, headers: { cookie: employee } });
      expect(page.statusCode).toBe(200);
      expect(page.json()).toEqual({
        rows: [
          {
            hashId: second.hashId,
            name: 'Listed beta',
            ipRanges: [],
            rights: ['customer.read', 'customer.write'],
            organizationHashId: customerHashId,
            organizationName: 'Windpark Noord',
            user: await whoami(ops),
          },
        ],
        nextPageOffset: expect.any(String),
      });
      expect(page.body).not.toContain(second.apiKey.slice(-43));
      const next = await t.app.inject({
        method: 'GET',
        url: `${base}?filter=Listed&rowsPerPage=1&offset=${page.json().nextPageOffset}`,
        headers: { cookie: employee },
      });
      expect(next.json().rows.map((row: { hashId: string }) => row.hashId)).toEqual([first.hashId]);
      expect(next.json().nextPageOffset).toBeNull();
    });

    it('filter by organisation: gridport, customer, or one organisation', async () => {
      const names = async (query: string) =>
        (
          (await t.app.inject({ method: 'GET', url: `${base}?rowsPerPage=500&${query}`, headers: { cookie: employee } })).json().rows as {
            organizationHashId: string;
          }[]
        ).map((row) => row.organizationHashId);
      expect(new Set(await names('organization=gridport'))).toEqual(new Set([providerHashId]));
      expect(new Set(await names('organization=customer'))).toEqual(new Set([customerHashId]));
      expect(new Set(await names(`organizationHashId=${customerHashId}`))).toEqual(new Set([customerHashId]));
    });

    it('accept device group filters for a group id with no group behind it: nothing in it, every key outside it', async () => {
      const groupHashId = t.hashIds.encode('deviceGroup', 1);
      const included = await t.app.inject({ method: 'GET', url: `${base}?deviceGroupHashId=${groupHashId}`, headers: { cookie: employee } });
      expect(included.json()).toEqual({ rows: [], nextPageOffset: null });
      const excluded = await t.app.inject({ method: 'GET', url: `${base}?excludeDeviceGroupHashId=${groupHashId}`, headers: { cookie: employee } });
      expect(excluded.json().rows.length).toBeGreaterThan(0);
    });
  });

  describe('refusals', () => {
    it('answer 401 unauthorized without a session', async () => {
      const response = await t.app.inject({ method: 'GET', url: base });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ key: 'unauthorized' });
    });

    it('answer 403 forbidden to an employee who creates, resets, updates or deletes', async () => {
      const created = await createKey(ops, { organizationHashId: customerHashId, name: 'Guarded' });
      const calls = [
        { method: 'POST' as const, url: base, payload: { organizationHashId: customerHashId, name: 'x' } },
        { method: 'POST' as const, url: `${base}/reset/${created.hashId}` },
        { method: 'PUT' as const, url: `${base}/${created.hashId}`, payload: { name: 'y' } },
        { method: 'DELETE' as const, url: `${base}/${created.hashId}` },
      ];
      for (const call of calls) {
        const response = await t.app.inject({ ...call, headers: { cookie: employee } });
        expect({ url: call.url, status: response.statusCode, body: response.json() }).toEqual({
          url: call.url,
          status: 403,
          body: { key: 'forbidden', details: { required: ['gridport.ops', 'gridport.developer'] } },
        });
      }
    });

    it('answer 403 forbidden to a customer user', async () => {
      const customer = await t.signIn(['customer.write'], customerHashId);
      const response = await t.app.inject({ method: 'GET', url: base, headers: { cookie: customer } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ key: 'forbidden', details: { required: ['gridport.employee'] } });
    });

    it('answer 403 forbidden to an API key, even one with staff rights: these routes need a console session', async () => {
      const created = await createKey(developer, { organizationHashId: providerHashId, name: 'Not for keys' });
      const response = await t.app.inject({ method: 'GET', url: base, headers: { authorization: `Bearer ${created.apiKey}` } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ key: 'forbidden', details: { reason: 'this route needs a console session' } });
    });

    it('answer an API key on a console route with 403 forbidden too', async () => {
      const created = await createKey(developer, { organizationHashId: providerHashId, name: 'Not for the console' });
      const response = await t.app.inject({ method: 'GET', url: '/console-admin/v1/organization', headers: { authorization: `Bearer ${created.apiKey}` } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ key: 'forbidden', details: { reason: 'this route needs a console session' } });
    });

    it('answer 404 not_found for a key that does not exist, a hash id of another type, and an unknown organisation', async () => {
      for (const hashId of [t.hashIds.encode('apiKey', 999999), t.hashIds.encode('organization', 1)]) {
        const response = await t.app.inject({ method: 'GET', url: `${base}/${hashId}`, headers: { cookie: employee } });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ key: 'not_found', details: { apiKeyHashId: hashId } });
      }
      const unknownOrganization = t.hashIds.encode('organization', 999999);
      const response = await t.app.inject({
        method: 'POST',
        url: base,
        headers: { cookie: ops },
        payload: { organizationHashId: unknownOrganization, name: 'x' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ key: 'not_found', details: { organizationHashId: unknownOrganization } });
    });

    it("let staff reach every organisation's keys, and check rights in the service as well as at the route", async () => {
      const created = await createKey(ops, { organizationHashId: customerHashId, name: 'Foreign' });
      const staff = { kind: 'user' as const, userId: null, apiKeyId: null, organizationId: 1, rights: ['gridport.employee' as const], name: 'Staff' };
      await expect(t.services.apiKeys.get(staff, created.hashId)).resolves.toMatchObject({ hashId: created.hashId });
      const customer = { ...staff, organizationId: t.hashIds.decode('organization', customerHashId), rights: ['customer.write' as const] };
      await expect(t.services.apiKeys.get(customer, created.hashId)).rejects.toMatchObject({ key: 'forbidden' });
      await expect(t.services.apiKeys.delete(staff, created.hashId)).rejects.toMatchObject({ key: 'forbidden' });
    });

    it('answer a body that breaks its schema with 400 payload_invalid and each issue', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: base,
        headers: { cookie: ops },
        payload: { organizationHashId: customerHashId, name: 'x'.repeat(101), ipRanges: ['10.0.0.0/33', '300.1.1.1/8', '10.0.0.1'], extra: 1 },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        key: 'payload_invalid',
        details: expect.arrayContaining([
          { path: 'name', message: 'name must be at most 100 characters' },
          { path: 'ipRanges[0]', message: 'ipRanges[0] must be an IPv4 CIDR range such as 203.0.113.0/24' },
          { path: 'ipRanges[1]', message: 'ipRanges[1] must be an IPv4 CIDR range such as 203.0.113.0/24' },
          { path: 'ipRanges[2]', message: 'ipRanges[2] must be an IPv4 CIDR range such as 203.0.113.0/24' },
        ]),
      });
      const tooMany = await t.app.inject({
        method: 'POST',
        url: base,
        headers: { cookie: ops },
        payload: { organizationHashId: customerHashId, name: 'x', ipRanges: Array.from({ length: 51 }, (_, i) => `10.0.${i}.0/24`) },
      });
      expect(tooMany.json()).toEqual({
        key: 'payload_invalid',
        details: [{ path: 'ipRanges', message: 'ipRanges field must have less than or equal to 50 items' }],
      });
    });

    it('answer a bad query with 400 query_invalid, a bad cursor with invalid_offset, and bad params with params_invalid', async () => {
      const query = await t.app.inject({ method: 'GET', url: `${base}?filter=${'x'.repeat(256)}&organization=partner`, headers: { cookie: employee } });
      expect(query.statusCode).toBe(400);
      expect(query.json()).toEqual({
        key: 'query_invalid',
        details: [
          { path: 'filter', message: 'filter must be at most 255 characters' },
          { path: 'organization', message: 'organization must be one of the following values: gridport, customer' },
        ],
      });
      const offset = await t.app.inject({ method: 'GET', url: `${base}?offset=not-a-cursor`, headers: { cookie: employee } });
      expect(offset.statusCode).toBe(400);
      expect(offset.json()).toEqual({ key: 'invalid_offset', details: { offset: 'not-a-cursor' } });
      const params = await t.app.inject({ method: 'GET', url: `${base}/${'a'.repeat(65)}`, headers: { cookie: employee } });
      expect(params.statusCode).toBe(400);
      expect(params.json()).toEqual({ key: 'params_invalid', details: [{ path: 'hashId', message: 'hashId must be at most 64 characters' }] });
    });
  });

  describe('reset, update and delete', () => {
    it('reset gives a new secret and the old one stops working', async () => {
      const created = await createKey(developer, { organizationHashId: providerHashId, name: 'Rotated' });
      expect((await asKey(created.apiKey)).statusCode).toBe(200);
      const reset = await t.app.inject({ method: 'POST', url: `${base}/reset/${created.hashId}`, headers: { cookie: ops } });
      expect(reset.statusCode).toBe(200);
      const { apiKey } = reset.json() as { apiKey: string };
      expect(Object.keys(reset.json())).toEqual(['apiKey']);
      expect(apiKey).not.toBe(created.apiKey);
      const old = await asKey(created.apiKey);
      expect(old.statusCode).toBe(401);
      expect(old.json()).toEqual({ key: 'unauthorized' });
      expect((await asKey(apiKey)).statusCode).toBe(200);
    });

    it('update changes the name and ranges and answers 204; delete answers 204 and ends access', async () => {
      const created = await createKey(developer, { organizationHashId: providerHashId, name: 'Short-lived' });
      const update = await t.app.inject({
        method: 'PUT',
        url: `${base}/${created.hashId}`,
        headers: { cookie: ops },
        payload: { name: 'Renamed', ipRanges: ['127.0.0.0/8'] },
      });
      expect(update.statusCode).toBe(204);
      expect(update.body).toBe('');
      const got = await t.app.inject({ method: 'GET', url: `${base}/${created.hashId}`, headers: { cookie: employee } });
      expect(got.json()).toMatchObject({ name: 'Renamed', ipRanges: ['127.0.0.0/8'] });
      expect((await asKey(created.apiKey)).statusCode).toBe(200);

      const deleted = await t.app.inject({ method: 'DELETE', url: `${base}/${created.hashId}`, headers: { cookie: ops } });
      expect(deleted.statusCode).toBe(204);
      const after = await asKey(created.apiKey);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual({ key: 'unauthorized' });
      const gone = await t.app.inject({ method: 'GET', url: `${base}/${created.hashId}`, headers: { cookie: employee } });
      expect(gone.statusCode).toBe(404);
      const audit = await t.database
        .db('audit_log')
        .where({ object_type: 'api_keys', object_id: t.hashIds.decode('apiKey', created.hashId) })
        .orderBy('id');
      expect(audit.map((row: { change_type: string }) => row.change_type)).toEqual(['controllerCreate', 'controllerUpdate', 'controllerDelete']);
    });
  });

  describe('keys made on the command line (no user)', () => {
    it('carry the staff rights given for the provider, and refuse customer rights or none', async () => {
      const cli = systemActor('gridport command line');
      const created = await t.services.apiKeys.create(cli, { organizationHashId: providerHashId, name: 'Scripts', ipRanges: [], publicKey: null }, [
        'gridport.ops',
      ]);
      await expect(t.services.apiKeys.get(cli, created.hashId)).resolves.toMatchObject({ rights: ['gridport.ops'], user: null });
      await expect(
        t.services.apiKeys.create(cli, { organizationHashId: providerHashId, name: 'x', ipRanges: [], publicKey: null }, ['customer.write']),
      ).rejects.toMatchObject({
        key: 'payload_invalid',
        details: [{ path: 'rights', message: 'Keys of the provider organisation carry staff rights only, not customer.write' }],
      });
      await expect(t.services.apiKeys.create(cli, { organizationHashId: providerHashId, name: 'x', ipRanges: [], publicKey: null })).rejects.toMatchObject({
        key: 'payload_invalid',
        details: [{ path: 'rights', message: 'A key of the provider organisation needs staff rights' }],
      });
    });

    it('give a customer key customer rights and refuse staff rights for it', async () => {
      const cli = systemActor('gridport command line');
      const created = await t.services.apiKeys.create(cli, { organizationHashId: customerHashId, name: 'Customer scripts', ipRanges: [], publicKey: null });
      await expect(t.services.apiKeys.get(cli, created.hashId)).resolves.toMatchObject({ rights: ['customer.read', 'customer.write'] });
      await expect(
        t.services.apiKeys.create(cli, { organizationHashId: customerHashId, name: 'x', ipRanges: [], publicKey: null }, ['gridport.admin']),
      ).rejects.toMatchObject({
        key: 'payload_invalid',
      });
    });
  });

  describe('authentication with a key', () => {
    it('refuse a malformed bearer, a wrong secret and an unknown key with 401 unauthorized', async () => {
      const created = await createKey(developer, { organizationHashId: providerHashId, name: 'Checked' });
      const wrongSecret = `${created.apiKey.slice(0, -43)}${'A'.repeat(43)}`;
      for (const apiKey of ['nonsense', wrongSecret, `gp_${t.hashIds.encode('apiKey', 999999)}_${'A'.repeat(43)}`]) {
        const response = await asKey(apiKey);
        expect({ apiKey, status: response.statusCode, body: response.json() }).toEqual({ apiKey, status: 401, body: { key: 'unauthorized' } });
      }
      const basic = await t.app.inject({ method: 'GET', url: '/v1/contact', headers: { authorization: 'Basic abc' } });
      expect(basic.json()).toEqual({ key: 'unauthorized' });
    });

    it('still answer public routes when a credential is refused', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/v1/health', headers: { authorization: 'Bearer nonsense' } });
      expect(response.statusCode).toBe(204);
    });

    it("refuse a client outside the key's IP ranges with 401 invalid_ip", async () => {
      const created = await createKey(developer, { organizationHashId: providerHashId, name: 'Office only', ipRanges: ['198.51.100.0/24', '203.0.113.7/32'] });
      expect((await asKey(created.apiKey, '198.51.100.20')).statusCode).toBe(200);
      expect((await asKey(created.apiKey, '203.0.113.7')).statusCode).toBe(200);
      expect((await asKey(created.apiKey, '::ffff:198.51.100.21')).statusCode).toBe(200);
      for (const address of ['203.0.113.8', '127.0.0.1', '2001:db8::1']) {
        const response = await asKey(created.apiKey, address);
        expect({ address, status: response.statusCode, body: response.json() }).toEqual({ address, status: 401, body: { key: 'invalid_ip' } });
      }
      // Without a trusted proxy, X-Forwarded-For is the client's own say and is ignored.
      const spoofed = await asKey(created.apiKey, '127.0.0.1', { 'x-forwarded-for': '198.51.100.20' });
      expect(spoofed.statusCode).toBe(401);
      expect(spoofed.json()).toEqual({ key: 'invalid_ip' });
    });

    it('believe X-Forwarded-For only from a trusted proxy, taking the right-most untrusted entry', async () => {
      const proxied = await testApp({ trustedProxies: ['10.0.0.0/8', '192.0.2.1'] });
      try {
        const cookie = await proxied.signIn(['gridport.developer']);
        const response = await proxied.app.inject({
          method: 'POST',
          url: base,
          headers: { cookie },
          payload: { organizationHashId: providerHashId, name: 'Behind a proxy', ipRanges: ['198.51.100.0/24'] },
        });
        const { apiKey } = response.json() as { apiKey: string };
        const call = (remoteAddress: string, forwarded: string) =>
          proxied.app.inject({
            method: 'GET',
            url: '/v1/contact',
            headers: { authorization: `Bearer ${apiKey}`, 'x-forwarded-for': forwarded },
            remoteAddress,
          });
        expect((await call('10.1.2.3', '198.51.100.20')).statusCode).toBe(200);
        // Two trusted hops: the client is the entry left of the inner proxy.
        expect((await call('10.1.2.3', '198.51.100.20, 192.0.2.1')).statusCode).toBe(200);
        // A client cannot smuggle an allowed address left of its own.
        const smuggled = await call('10.1.2.3', '198.51.100.20, 203.0.113.9');
        expect(smuggled.statusCode).toBe(401);
        expect(smuggled.json()).toEqual({ key: 'invalid_ip' });
        // A socket that is not a trusted proxy is the client, whatever it forwards.
        const direct = await call('203.0.113.9', '198.51.100.20');
        expect(direct.statusCode).toBe(401);
        expect(direct.json()).toEqual({ key: 'invalid_ip' });
      } finally {
        await proxied.close();
      }
    });

    it("accept a short-lived JWT signed by the key's private key, and refuse others", async () => {
      const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
      const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const created = await createKey(developer, { organizationHashId: providerHashId, name: 'Signed', publicKey: publicPem });
      const sign = (options: Record<string, unknown>, payload: Record<string, unknown> = {}) =>
        (createSigner({ key: privatePem, algorithm: 'ES256', ...options }) as (payload: Record<string, unknown>) => string)(payload);

      expect((await asKey(sign({ kid: created.hashId, expiresIn: 60_000 }))).statusCode).toBe(200);
      expect((await asKey(sign({ sub: created.hashId, expiresIn: 60_000 }))).statusCode).toBe(200);

      const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const forged = (createSigner({ key: other, algorithm: 'ES256', kid: created.hashId, expiresIn: 60_000 }) as (payload: Record<string, unknown>) => string)(
        {},
      );
      const refusals = [
        { name: 'forged', token: forged, key: 'unauthorized' },
        { name: 'too long-lived', token: sign({ kid: created.hashId, expiresIn: 2 * 60 * 60 * 1000 }), key: 'unauthorized' },
        { name: 'without expiry', token: sign({ kid: created.hashId }), key: 'unauthorized' },
        {
          name: 'expired',
          token: sign({ kid: created.hashId }, { iat: Math.floor(Date.now() / 1000) - 120, exp: Math.floor(Date.now() / 1000) - 60 }),
          key: 'jwt_expired',
        },
      ];
      for (const refusal of refusals) {
        const response = await asKey(refusal.token);
        expect({ name: refusal.name, status: response.statusCode, body: response.json() }).toEqual({
          name: refusal.name,
          status: 401,
          body: { key: refusal.key },
        });
      }

      const plain = await createKey(developer, { organizationHashId: providerHashId, name: 'No public key' });
      const withoutPublicKey = await asKey(sign({ kid: plain.hashId, expiresIn: 60_000 }));
      expect(withoutPublicKey.statusCode).toBe(400);
      expect(withoutPublicKey.json()).toEqual({ key: 'public_key_not_defined' });
    });

    it("check a signed JWT's iat, nbf and exp against the clock, allowing 60 seconds of skew", async () => {
      const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      const created = await createKey(developer, {
        organizationHashId: providerHashId,
        name: 'Signed with times',
        publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      });
      const sign = createSigner({ key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), algorithm: 'ES256', kid: created.hashId }) as (
        payload: Record<string, unknown>,
      ) => string;
      const now = Math.floor(Date.now() / 1000);
      const tenYears = 10 * 365 * 24 * 60 * 60;
      const cases = [
        {
          name: 'issued ten years ahead, lasting 3000 s (the probe)',
          claims: { iat: now + tenYears, exp: now + tenYears + 3000 },
          status: 401,
          key: 'unauthorized',
        },
        { name: 'issued 5 minutes ahead', claims: { iat: now + 300, exp: now + 600 }, status: 401, key: 'unauthorized' },
        { name: 'not before 5 minutes ahead', claims: { iat: now, nbf: now + 300, exp: now + 600 }, status: 401, key: 'unauthorized' },
        { name: 'expired 5 minutes ago', claims: { iat: now - 600, exp: now - 300 }, status: 401, key: 'jwt_expired' },
        { name: 'issued 30 s ahead (within the skew)', claims: { iat: now + 30, exp: now + 600 }, status: 200 },
        { name: 'not before 30 s ahead (within the skew)', claims: { iat: now, nbf: now + 30, exp: now + 600 }, status: 200 },
        { name: 'expired 30 s ago (within the skew)', claims: { iat: now - 600, exp: now - 30 }, status: 200 },
        { name: 'issued an hour ago, valid for one more minute', claims: { iat: now - 3540, exp: now + 60 }, status: 200 },
      ];
      for (const { name, claims, status, key } of cases) {
        const response = await asKey(sign(claims));
        expect({ name, status: response.statusCode, key: status === 200 ? undefined : response.json().key }).toEqual({ name, status, key });
      }
    });

    it('refuse a public key that is not RSA or EC P-256 with 400 payload_invalid', async () => {
      const { publicKey } = generateKeyPairSync('ed25519');
      const response = await t.app.inject({
        method: 'POST',
        url: base,
        headers: { cookie: developer },
        payload: { organizationHashId: providerHashId, name: 'Ed', publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        key: 'payload_invalid',
        details: [{ path: 'publicKey', message: 'publicKey must be an RSA key (RS256) or an EC P-256 key (ES256)' }],
      });
    });
  });

  describe('device group filters', () => {
    it('list the keys linked to a device group, and with excludeDeviceGroupHashId the keys not linked to it', async () => {
      const group = await t.services.deviceGroups.create(systemActor('test'), {
        name: 'Roof PV',
        organizationHashId: customerHashId,
        deviceOutageEmails: [],
        deviceOutageUsersHashIds: [],
      });
      const linked = await createKey(ops, { organizationHashId: customerHashId, name: 'Group filter linked' });
      const other = await createKey(ops, { organizationHashId: customerHashId, name: 'Group filter other' });
      await t.services.deviceGroups.linkApiKey(systemActor('test'), { deviceGroupHashId: group.hashId, apiKeyHashId: linked.hashId });
      const hashIds = async (query: string) => {
        const response = await t.app.inject({ method: 'GET', url: `${base}?rowsPerPage=500&filter=Group%20filter&${query}`, headers: { cookie: employee } });
        expect(response.statusCode).toBe(200);
        return (response.json().rows as { hashId: string }[]).map((row) => row.hashId);
      };
      expect(await hashIds(`deviceGroupHashId=${group.hashId}`)).toEqual([linked.hashId]);
      expect(await hashIds(`excludeDeviceGroupHashId=${group.hashId}`)).toEqual([other.hashId]);
      expect(await hashIds(`deviceGroupHashId=${group.hashId}&excludeDeviceGroupHashId=${group.hashId}`)).toEqual([]);
    });

    it('refuse a device group hash id that does not decode with 404 not_found', async () => {
      for (const name of ['deviceGroupHashId', 'excludeDeviceGroupHashId']) {
        const response = await t.app.inject({ method: 'GET', url: `${base}?${name}=notAHashId`, headers: { cookie: employee } });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ key: 'not_found', details: { deviceGroupHashId: 'notAHashId' } });
      }
    });
  });
});
