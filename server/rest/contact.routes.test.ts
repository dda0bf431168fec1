import { testApp, type TestApp } from '../../test-support/app';

const base = '/v1/contact';

describe('contacts over HTTP', () => {
  let t: TestApp;
  let developerKey: string;
  let opsKey: string;
  let developerCookie: string;

  async function keyOf(rights: Parameters<TestApp['signIn']>[0]): Promise<{ cookie: string; apiKey: string }> {
    const cookie = await t.signIn(rights);
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/api-key',
      headers: { cookie },
      payload: { organizationHashId: t.hashIds.encode('organization', 1), name: `Key of ${rights.join(' ')}` },
    });
    return { cookie, apiKey: `Bearer ${(response.json() as { apiKey: string }).apiKey}` };
  }

  beforeAll(async () => {
    t = await testApp();
    const developer = await keyOf(['gridport.developer']);
    developerKey = developer.apiKey;
    developerCookie = developer.cookie;
    opsKey = (await keyOf(['gridport.ops'])).apiKey;
  });

  afterAll(async () => {
    await t.close();
  });

  const contact = { roles: ['irt'], organizationId: 1, name: 'Noor de Vries', email: 'noor@example.com', phone: '+31201234567' };

  it('create a contact (201 with its id), list it, update it (204) and delete it (204)', async () => {
    const created = await t.app.inject({ method: 'POST', url: base, headers: { authorization: developerKey }, payload: contact });
    expect(created.statusCode).toBe(201);
    const { contactId } = created.json() as { contactId: number };
    expect(typeof contactId).toBe('number');

    const listed = await t.app.inject({ method: 'GET', url: base, headers: { authorization: developerKey } });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ contacts: [{ id: contactId, ...contact }] });

    const updated = await t.app.inject({
      method: 'PUT',
      url: `${base}/${contactId}`,
      headers: { authorization: developerKey },
      payload: { roles: ['irt', 'continuous.support'], phone: null, organizationId: null },
    });
    expect(updated.statusCode).toBe(204);
    expect(updated.body).toBe('');
    const after = await t.app.inject({ method: 'GET', url: base, headers: { authorization: developerKey } });
    expect(after.json()).toEqual({ contacts: [{ id: contactId, ...contact, roles: ['irt', 'continuous.support'], phone: null, organizationId: null }] });

    const deleted = await t.app.inject({ method: 'DELETE', url: `${base}/${contactId}`, headers: { authorization: developerKey } });
    expect(deleted.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: base, headers: { authorization: developerKey } })).json()).toEqual({ contacts: [] });

    const audit = await t.database.db('audit_log').where({ object_type: 'contacts', object_id: contactId }).orderBy('id');
    expect(audit.map((row: { change_type: string; actor_kind: string }) => [row.change_type, row.actor_kind])).toEqual([
      ['controllerCreate', 'apiKey'],
      ['controllerUpdate', 'apiKey'],
      ['controllerDelete', 'apiKey'],
    ]);
  });

  it('refuse a second contact with the same email, in any case, with 400 contact_email_already_exists', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: base,
      headers: { authorization: developerKey },
      payload: { ...contact, email: 'dup@example.com' },
    });
    expect(first.statusCode).toBe(201);
    const second = await t.app.inject({
      method: 'POST',
      url: base,
      headers: { authorization: developerKey },
      payload: { ...contact, email: 'DUP@example.com' },
    });
    expect(second.statusCode).toBe(400);
    expect(second.json()).toEqual({ key: 'contact_email_already_exists', details: { email: 'DUP@example.com' } });

    const other = await t.app.inject({
      method: 'POST',
      url: base,
      headers: { authorization: developerKey },
      payload: { ...contact, email: 'other@example.com' },
    });
    const { contactId } = other.json() as { contactId: number };
    const clash = await t.app.inject({
      method: 'PUT',
      url: `${base}/${contactId}`,
      headers: { authorization: developerKey },
      payload: { email: 'dup@example.com' },
    });
    expect(clash.statusCode).toBe(400);
    expect(clash.json()).toEqual({ key: 'contact_email_already_exists', details: { email: 'dup@example.com' } });
    const same = await t.app.inject({
      method: 'PUT',
      url: `${base}/${contactId}`,
      headers: { authorization: developerKey },
      payload: { email: 'other@example.com' },
    });
    expect(same.statusCode).toBe(204);
  });

  it('refuse a body that breaks the rules of api.md section 5 with 400 payload_invalid and each issue', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: base,
      headers: { authorization: developerKey },
      payload: { roles: ['irt', 'sales'], name: 'x'.repeat(256), email: 'not an email', phone: '+0123' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      key: 'payload_invalid',
      details: expect.arrayContaining([
        { path: 'roles[1]', message: 'roles[1] must be one of the following values: irt, continuous.support' },
        { path: 'name', message: 'name must be at most 255 characters' },
        { path: 'email', message: 'Invalid email (RFC 5322)' },
        { path: 'phone', message: 'phone must be an E.164 number such as +31201234567' },
      ]),
    });
    expect(response.json().details).toHaveLength(4);
  });

  it('convert contactId and deviceId to numbers, refusing what is not one with params_invalid and query_invalid', async () => {
    const params = await t.app.inject({ method: 'DELETE', url: `${base}/abc`, headers: { authorization: developerKey } });
    expect(params.statusCode).toBe(400);
    expect(params.json()).toEqual({
      key: 'params_invalid',
      details: [{ path: 'contactId', message: expect.stringContaining('contactId must be a `number` type') }],
    });
    const query = await t.app.inject({ method: 'GET', url: `${base}?deviceId=x`, headers: { authorization: developerKey } });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toEqual({
      key: 'query_invalid',
      details: [{ path: 'deviceId', message: expect.stringContaining('deviceId must be a `number` type') }],
    });
    const accepted = await t.app.inject({ method: 'GET', url: `${base}?deviceId=12&destination=noc`, headers: { authorization: developerKey } });
    expect(accepted.statusCode).toBe(200);
  });

  it('answer 404 not_found for a contact that does not exist or an organisation that does not', async () => {
    const missing = await t.app.inject({ method: 'DELETE', url: `${base}/999999`, headers: { authorization: developerKey } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ key: 'not_found', details: { contactId: 999999 } });
    const organization = await t.app.inject({
      method: 'POST',
      url: base,
      headers: { authorization: developerKey },
      payload: { ...contact, email: 'nowhere@example.com', organizationId: 999999 },
    });
    expect(organization.statusCode).toBe(404);
    expect(organization.json()).toEqual({ key: 'not_found', details: { organizationId: 999999 } });
  });

  it('answer 401 unauthorized without a key, 403 forbidden to a key without the developer right, and 403 forbidden to a console session', async () => {
    const none = await t.app.inject({ method: 'GET', url: base });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ key: 'unauthorized' });
    const ops = await t.app.inject({ method: 'GET', url: base, headers: { authorization: opsKey } });
    expect(ops.statusCode).toBe(403);
    expect(ops.json()).toEqual({ key: 'forbidden', details: { required: ['gridport.developer'] } });
    const session = await t.app.inject({ method: 'GET', url: base, headers: { cookie: developerCookie } });
    expect(session.statusCode).toBe(403);
    expect(session.json()).toEqual({ key: 'forbidden', details: { reason: 'this route needs an API key' } });
  });
});
