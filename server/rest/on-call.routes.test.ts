import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, buildSession, buildUser } from '../../test-support/factories';
import { fakeGrafanaOnCall, type FakeGrafanaOnCall } from '../../test-support/fake-grafana-oncall';

const opsPath = '/console-admin/v1/on-call/ops';
const grafanaPath = '/console-admin/v1/on-call/grafana';

describe('the on-call ops user', () => {
  let t: TestApp;
  let ops: string;

  beforeAll(async () => {
    t = await testApp();
    ops = await t.signIn(['gridport.ops']);
  });

  afterAll(async () => {
    await t.close();
  });

  const set = (cookie: string, userHashId: string | null) => t.app.inject({ method: 'POST', url: opsPath, headers: { cookie }, payload: { userHashId } });
  const get = async (cookie: string) => (await t.app.inject({ method: 'GET', url: opsPath, headers: { cookie } })).json() as unknown;

  it('is nobody at first, is set and cleared by Ops, read by any staff, and each change is audited', async () => {
    const employee = await t.signIn(['gridport.employee']);
    expect(await get(employee)).toEqual({ user: null });

    const engineer = await buildUser(t.services, { name: 'Night Engineer', email: 'night.engineer@example.com', rights: ['gridport.ops'] });
    const setting = await set(ops, engineer.hashId);
    expect({ status: setting.statusCode, body: setting.json() as unknown }).toEqual({
      status: 200,
      body: { user: { hashId: engineer.hashId, name: 'Night Engineer', email: 'night.engineer@example.com' } },
    });
    expect(await get(employee)).toEqual({ user: { hashId: engineer.hashId, name: 'Night Engineer', email: 'night.engineer@example.com' } });

    const cleared = await set(ops, null);
    expect(cleared.json()).toEqual({ user: null });
    expect(await get(employee)).toEqual({ user: null });

    const audit = (
      await t.app.inject({ method: 'GET', url: `/console-admin/v1/audit-log?objectType=users&objectHashId=${engineer.hashId}`, headers: { cookie: employee } })
    ).json() as {
      rows: { changeType: string; diff: unknown[] }[];
    };
    expect(audit.rows.filter((row) => row.diff.some((entry) => (entry as { name: string }).name === 'onCallOps')).map((row) => row.diff)).toEqual(
      expect.arrayContaining([
        [{ type: 'link', name: 'onCallOps', objectType: 'users', oldHashId: null, newHashId: engineer.hashId }],
        [{ type: 'link', name: 'onCallOps', objectType: 'users', oldHashId: engineer.hashId, newHashId: null }],
      ]),
    );
  });

  it('may be changed by Ops (and Admin) only', async () => {
    const engineer = await buildUser(t.services, { rights: ['gridport.ops'] });
    for (const rights of [['gridport.developer'], ['gridport.sales'], ['gridport.employee']] as const) {
      const response = await set(await t.signIn([...rights]), engineer.hashId);
      expect({ rights, status: response.statusCode, body: response.json() as unknown }).toEqual({
        rights,
        status: 403,
        body: { key: 'forbidden', details: { required: ['gridport.ops'] } },
      });
    }
    const customer = await t.signIn(['customer.write'], (await anOrganization(t.services)).hashId);
    expect((await set(customer, engineer.hashId)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: opsPath, headers: { cookie: customer } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: opsPath })).json()).toEqual({ key: 'unauthorized' });
    expect((await set(await t.signIn(['gridport.admin']), engineer.hashId)).statusCode).toBe(200);
  });

  it('must be a staff user of the provider organisation', async () => {
    const organization = await anOrganization(t.services);
    const customer = await buildUser(t.services, { organizationHashId: organization.hashId, rights: ['customer.write'] });
    const refused = await set(ops, customer.hashId);
    expect({ status: refused.statusCode, body: refused.json() as unknown }).toEqual({
      status: 400,
      body: { key: 'payload_invalid', details: [{ path: 'userHashId', message: 'the on-call ops user must be a staff user of the provider organisation' }] },
    });
    const unknown = await set(ops, t.hashIds.encode('user', 999_999));
    expect({ status: unknown.statusCode, key: (unknown.json() as { key: string }).key }).toEqual({ status: 404, key: 'not_found' });
    const wrongType = await set(ops, t.hashIds.encode('device', 1));
    expect(wrongType.statusCode).toBe(404);
    const missing = await t.app.inject({ method: 'POST', url: opsPath, headers: { cookie: ops }, payload: {} });
    expect({ status: missing.statusCode, key: (missing.json() as { key: string }).key }).toEqual({ status: 400, key: 'payload_invalid' });
  });
});

describe('who Grafana OnCall has on call', () => {
  let grafana: FakeGrafanaOnCall;

  beforeAll(async () => {
    grafana = await fakeGrafanaOnCall();
    grafana.users.push(
      { id: 'U4DNY931HHJS5', email: 'Night.Engineer@example.com', username: 'night', role: 'admin' },
      { id: 'UZZ2Q7PDKLM3X', email: 'contractor@elsewhere.example', username: 'contractor', role: 'user' },
    );
    grafana.schedules.push(
      { id: 'SBM7DV7BKFUYU', name: 'Gridport primary', type: 'web', team_id: null, time_zone: 'UTC', on_call_now: ['U4DNY931HHJS5', 'UZZ2Q7PDKLM3X'] },
      { id: 'SEMPTY0000000', name: 'Quiet', type: 'web', team_id: null, time_zone: 'UTC', on_call_now: [] },
    );
  });

  afterAll(async () => {
    await grafana.close();
  });

  it('answers the users on call now with the Gridport user of the same email, asking with the API token', async () => {
    const t = await testApp({}, { grafanaOnCall: grafana.settings({ scheduleId: 'SBM7DV7BKFUYU' }) });
    try {
      const engineer = await buildUser(t.services, { name: 'Night Engineer', email: 'night.engineer@example.com', rights: ['gridport.ops'] });
      const employee = await buildSession(t.services, { rights: ['gridport.employee'] });
      const response = await t.app.inject({ method: 'GET', url: grafanaPath, headers: { cookie: employee.cookie } });
      expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({
        status: 200,
        body: {
          scheduleId: 'SBM7DV7BKFUYU',
          scheduleName: 'Gridport primary',
          onCall: [
            {
              grafanaUserId: 'U4DNY931HHJS5',
              email: 'Night.Engineer@example.com',
              username: 'night',
              user: { hashId: engineer.hashId, name: 'Night Engineer', email: 'night.engineer@example.com' },
            },
            { grafanaUserId: 'UZZ2Q7PDKLM3X', email: 'contractor@elsewhere.example', username: 'contractor', user: null },
          ],
        },
      });
      expect(grafana.requests.slice(-3)).toEqual([
        { method: 'GET', path: '/api/v1/schedules/SBM7DV7BKFUYU/', authorization: grafana.token },
        expect.objectContaining({ path: '/api/v1/users/U4DNY931HHJS5/' }),
        expect.objectContaining({ path: '/api/v1/users/UZZ2Q7PDKLM3X/' }),
      ]);
      const customer = await t.signIn(['customer.read'], (await anOrganization(t.services)).hashId);
      expect((await t.app.inject({ method: 'GET', url: grafanaPath, headers: { cookie: customer } })).statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });

  it('answers no_team_members when the schedule has nobody on call', async () => {
    const t = await testApp({}, { grafanaOnCall: grafana.settings({ scheduleId: 'SEMPTY0000000' }) });
    try {
      const response = await t.app.inject({ method: 'GET', url: grafanaPath, headers: { cookie: await t.signIn(['gridport.employee']) } });
      expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({
        status: 400,
        body: { key: 'no_team_members', details: { scheduleId: 'SEMPTY0000000', reason: 'nobody is on call in the schedule now' } },
      });
    } finally {
      await t.close();
    }
  });

  it('answers service_unavailable without configuration, with a refused token, and for a schedule Grafana does not have', async () => {
    const cases = [
      [undefined, 'Grafana OnCall is not configured (GRAFANA_ONCALL_URL, GRAFANA_ONCALL_TOKEN, GRAFANA_ONCALL_SCHEDULE)'],
      [grafana.settings({ token: 'wrong' }), 'Grafana OnCall refused the token (GRAFANA_ONCALL_TOKEN)'],
      [grafana.settings({ scheduleId: 'SUNKNOWN00000' }), 'Grafana OnCall has no /api/v1/schedules/SUNKNOWN00000/'],
      [grafana.settings({ url: 'http://127.0.0.1:1' }), 'Grafana OnCall could not be reached'],
    ] as const;
    for (const [settings, reason] of cases) {
      const t = await testApp({}, settings ? { grafanaOnCall: settings } : {});
      try {
        const response = await t.app.inject({ method: 'GET', url: grafanaPath, headers: { cookie: await t.signIn(['gridport.ops']) } });
        expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({
          status: 503,
          body: { key: 'service_unavailable', details: { reason } },
        });
      } finally {
        await t.close();
      }
    }
  });
});
