import { systemActor } from '../../graph/common/context';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, buildSession, buildUser, providerHashId } from '../../test-support/factories';

describe('users', () => {
  let t: TestApp;
  let northHashId: string;
  let southHashId: string;

  beforeAll(async () => {
    t = await testApp();
    northHashId = (await anOrganization(t.services, { name: 'North', type: 'installer' })).hashId;
    southHashId = (await anOrganization(t.services, { name: 'South', type: 'installer' })).hashId;
    for (const [organizationHashId, name] of [
      [northHashId, 'Noor Jansen'],
      [northHashId, 'Daan de Vries'],
      [southHashId, 'Sanne Bakker'],
    ] as const) {
      await t.services.users.create(systemActor('test'), {
        organizationHashId,
        name,
        email: `${name.split(' ')[0]?.toLowerCase()}@example.com`,
        rights: ['customer.read'],
      });
    }
  });

  afterAll(async () => {
    await t.close();
  });

  type Page = { rows: { name: string; email: string; organization: { hashId: string } }[]; nextPageOffset: string | null };

  it('are listed to staff across organisations, by organisation and by text, page by page', async () => {
    const cookie = await t.signIn(['gridport.employee']);
    const north = await t.app.inject({ method: 'GET', url: `/console-admin/v1/user?organizationHashId=${northHashId}`, headers: { cookie } });
    expect((north.json() as Page).rows.map((row) => row.name)).toEqual(['Daan de Vries', 'Noor Jansen']);
    const text = await t.app.inject({ method: 'GET', url: '/console-admin/v1/user?filter=SANNE', headers: { cookie } });
    expect((text.json() as Page).rows.map((row) => row.email)).toEqual(['sanne@example.com']);
    const first = (await t.app.inject({ method: 'GET', url: '/console-admin/v1/user?rowsPerPage=2', headers: { cookie } })).json() as Page;
    expect(first.rows).toHaveLength(2);
    const second = (
      await t.app.inject({ method: 'GET', url: `/console-admin/v1/user?rowsPerPage=2&offset=${first.nextPageOffset}`, headers: { cookie } })
    ).json() as Page;
    expect(second.rows.map((row) => row.name)).not.toContain(first.rows[0]?.name);
  });

  it('are listed to a customer only within their own organisation', async () => {
    const cookie = await t.signIn(['customer.write'], southHashId);
    const response = await t.app.inject({ method: 'GET', url: '/console/v1/user', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const rows = (response.json() as Page).rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.organization.hashId === southHashId)).toBe(true);
    expect(rows.map((row) => row.name)).toContain('Sanne Bakker');
    const sneaky = await t.app.inject({ method: 'GET', url: `/console/v1/user?organizationHashId=${northHashId}`, headers: { cookie } });
    expect(sneaky.statusCode).toBe(400);
    expect(sneaky.json().key).toBe('query_invalid');
  });

  it('of another organisation are not_found to a customer, and the admin list is forbidden', async () => {
    const cookie = await t.signIn(['customer.read'], southHashId);
    const admin = await t.app.inject({ method: 'GET', url: '/console-admin/v1/user', headers: { cookie } });
    expect(admin.statusCode).toBe(403);
    const actor = await t.services.sessions.authenticate(cookie.split('=')[1] ?? '');
    const northUsers = await t.services.users.list(systemActor('test'), { rowsPerPage: 50, filter: '', organizationHashId: northHashId });
    const someone = northUsers.rows[0]?.hashId ?? '';
    await expect(t.services.users.get(actor, someone)).rejects.toMatchObject({ key: 'not_found' });
  });

  it('are read one at a time by staff, and a hash id of another type is not_found', async () => {
    const cookie = await t.signIn(['gridport.employee']);
    const list = (
      await t.app.inject({ method: 'GET', url: `/console-admin/v1/user?organizationHashId=${southHashId}&filter=sanne`, headers: { cookie } })
    ).json() as Page & { rows: { hashId: string }[] };
    const hashId = list.rows[0]?.hashId ?? '';
    const one = await t.app.inject({ method: 'GET', url: `/console-admin/v1/user/${hashId}`, headers: { cookie } });
    expect(one.json()).toMatchObject({ hashId, name: 'Sanne Bakker', organization: { hashId: southHashId, name: 'South' } });
    const wrong = await t.app.inject({ method: 'GET', url: `/console-admin/v1/user/${southHashId}`, headers: { cookie } });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toEqual({ key: 'not_found', details: { userHashId: southHashId } });
  });

  it('are read by hash id in one request, a hash id naming nobody left out; a customer gets only their own, and over 100 is query_invalid', async () => {
    const all = await t.services.users.list(systemActor('test'), { rowsPerPage: 500, filter: '' });
    const hashIdOf = (name: string) => all.rows.find((row) => row.name === name)?.hashId ?? '';
    const named = ['Noor Jansen', 'Sanne Bakker'].map(hashIdOf);
    const unknown = t.services.hashIds.encode('user', 999_999);
    const search = [...named, unknown, 'hostile%27--'].map((hashId) => `hashIds=${hashId}`).join('&');

    const staff = await t.signIn(['gridport.employee']);
    const admin = await t.app.inject({ method: 'GET', url: `/console-admin/v1/user?${search}`, headers: { cookie: staff } });
    expect(admin.statusCode).toBe(200);
    expect((admin.json() as Page).rows.map((row) => row.name).sort()).toEqual(['Noor Jansen', 'Sanne Bakker']);

    const customer = await t.signIn(['customer.read'], southHashId);
    const own = await t.app.inject({ method: 'GET', url: `/console/v1/user?${search}`, headers: { cookie: customer } });
    expect(own.statusCode).toBe(200);
    expect((own.json() as Page).rows.map((row) => row.name)).toEqual(['Sanne Bakker']);

    const one = await t.app.inject({ method: 'GET', url: `/console/v1/user?hashIds=${hashIdOf('Sanne Bakker')}`, headers: { cookie: customer } });
    expect((one.json() as Page).rows.map((row) => row.name)).toEqual(['Sanne Bakker']);

    const tooMany = Array.from({ length: 101 }, (_, index) => `hashIds=u${index}`).join('&');
    const refused = await t.app.inject({ method: 'GET', url: `/console-admin/v1/user?${tooMany}`, headers: { cookie: staff } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      key: 'query_invalid',
      details: [{ path: 'hashIds', message: 'hashIds field must have less than or equal to 100 items' }],
    });
  });

  describe('changed with PUT /console-admin/v1/user/{hashId}', () => {
    async function aCustomerUser(email: string): Promise<string> {
      return (await t.services.users.create(systemActor('test'), { organizationHashId: northHashId, name: 'Changed', email, rights: ['customer.read'] }))
        .hashId;
    }

    it('by Ops: name, email, rights and organisation, answered as the user now is', async () => {
      const hashId = await aCustomerUser('change.me@example.com');
      const ops = await t.signIn(['gridport.ops']);
      const response = await t.call('PUT', `/console-admin/v1/user/${hashId}`, ops, {
        name: 'Changed Twice',
        email: ' changed.twice@example.com ',
        rights: ['customer.read', 'customer.write'],
        organizationHashId: southHashId,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        hashId,
        name: 'Changed Twice',
        email: 'changed.twice@example.com',
        rights: ['customer.read', 'customer.write'],
        organization: { hashId: southHashId, name: 'South' },
      });
    });

    it('refuses a bad name, email or right with payload_invalid naming each', async () => {
      const hashId = await aCustomerUser('invalid.body@example.com');
      const ops = await t.signIn(['gridport.ops']);
      const response = await t.call('PUT', `/console-admin/v1/user/${hashId}`, ops, { name: '', email: 'not an email', rights: ['root'] });
      expect(response.statusCode).toBe(400);
      const { key, details } = response.json() as { key: string; details: { path: string; message: string }[] };
      expect(key).toBe('payload_invalid');
      expect(details.map((issue) => issue.path).sort()).toEqual(['email', 'name', 'rights[0]']);
      expect(details.find((issue) => issue.path === 'email')?.message).toBe('Invalid email (RFC 5322)');
    });

    it("refuses another user's email with user_exists", async () => {
      const hashId = await aCustomerUser('first.owner@example.com');
      const ops = await t.signIn(['gridport.ops']);
      const response = await t.call('PUT', `/console-admin/v1/user/${hashId}`, ops, { email: 'noor@example.com' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ key: 'user_exists', details: { email: 'noor@example.com' } });
    });

    it('is forbidden to an employee, to Ops granting a staff right or changing a staff user, and to anyone on their own rights', async () => {
      const hashId = await aCustomerUser('forbidden.cases@example.com');
      const employee = await t.signIn(['gridport.employee']);
      const byEmployee = await t.call('PUT', `/console-admin/v1/user/${hashId}`, employee, { name: 'Nope' });
      expect(byEmployee.statusCode).toBe(403);
      expect(byEmployee.json()).toEqual({ key: 'forbidden', details: { required: ['gridport.ops'] } });

      const ops = await t.signIn(['gridport.ops']);
      const toProvider = await t.call('PUT', `/console-admin/v1/user/${hashId}`, ops, {
        organizationHashId: providerHashId(t.services),
        rights: ['gridport.employee'],
      });
      expect(toProvider.statusCode).toBe(403);
      expect(toProvider.json()).toEqual({ key: 'forbidden', details: { reason: 'granting or removing a staff right needs the admin right' } });

      const staffUser = (await buildUser(t.services, { rights: ['gridport.employee'] })).hashId;
      const staffChange = await t.call('PUT', `/console-admin/v1/user/${staffUser}`, ops, { name: 'Renamed' });
      expect(staffChange.json()).toEqual({ key: 'forbidden', details: { reason: 'changing a staff user needs the admin right' } });

      const session = await buildSession(t.services, { rights: ['gridport.admin'] });
      const own = await t.call('PUT', `/console-admin/v1/user/${session.user.hashId}`, session.cookie, { rights: ['gridport.ops'] });
      expect(own.statusCode).toBe(403);
      expect(own.json()).toEqual({ key: 'forbidden', details: { reason: 'nobody changes their own rights' } });
    });
  });
});
