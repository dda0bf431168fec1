import { exampleDeviceConfig } from '../../contracts/device';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, buildApiKey, buildDevice, buildUser } from '../../test-support/factories';

type Json = Record<string, unknown>;

interface GroupView {
  hashId: string;
  name: string;
  organizationHashId: string;
  organization: { hashId: string; name: string };
  deviceOutageEmails: string[];
  deviceOutageUsers: { hashId: string; name: string; email: string }[];
  deviceCount: number;
  apiKeys: { hashId: string; name: string }[];
}

const base = '/console-admin/v1/device-group';

describe('device groups', () => {
  let t: TestApp;
  let ownerHashId: string;
  let otherHashId: string;
  let ops: string;
  let developer: string;
  let employee: string;
  let customer: string;
  let groups = 0;

  beforeAll(async () => {
    t = await testApp();
    ownerHashId = (await anOrganization(t.services, { name: 'Groups Owner BV' })).hashId;
    otherHashId = (await anOrganization(t.services, { name: 'Groups Other BV' })).hashId;
    [ops, developer, employee, customer] = await Promise.all([
      t.signIn(['gridport.ops']),
      t.signIn(['gridport.developer']),
      t.signIn(['gridport.employee']),
      t.signIn(['customer.write'], ownerHashId),
    ]);
  });

  afterAll(async () => {
    await t.close();
  });

  async function createGroup(payload: Json = {}): Promise<GroupView> {
    groups += 1;
    const response = await t.call('POST', base, ops, { name: `Group ${groups}`, organizationHashId: ownerHashId, ...payload });
    expect(response.statusCode).toBe(201);
    return response.json() as GroupView;
  }

  async function userOf(organizationHashId: string, rights: ('gridport.ops' | 'customer.read')[]): Promise<string> {
    return (await buildUser(t.services, { organizationHashId, rights })).hashId;
  }

  async function anApiKey(organizationHashId = ownerHashId): Promise<{ hashId: string; apiKey: string }> {
    return buildApiKey(t.services, { organizationHashId });
  }

  /** A device (of the owner by default) with the example config, exposed to customers, in `deviceGroupHashId` (or none). */
  async function exposedDevice(deviceGroupHashId: string | null, organizationHashId = ownerHashId): Promise<string> {
    const device = await buildDevice(t.services, {
      organizationHashId,
      ...(deviceGroupHashId === null ? {} : { deviceGroupHashId }),
      config: exampleDeviceConfig,
      isExposedToCustomer: true,
    });
    return device.hashId;
  }

  function auditRows(hashId: string) {
    return t.database
      .db('audit_log')
      .where({ object_type: 'device_groups', object_id: t.hashIds.decode('deviceGroup', hashId) ?? -1 })
      .orderBy('id');
  }

  it('creates a group with outage contacts, gets it with its organisation, and audits the creation', async () => {
    const staffUser = await userOf(t.hashIds.encode('organization', 1), ['gridport.ops']);
    const ownUser = await userOf(ownerHashId, ['customer.read']);
    const created = await createGroup({
      name: '  North sites ',
      deviceOutageEmails: ['noc@example.com', 'NOC@example.com', 'field@example.com'],
      deviceOutageUsersHashIds: [staffUser, ownUser],
    });
    expect(created).toMatchObject({
      name: 'North sites',
      organizationHashId: ownerHashId,
      organization: { hashId: ownerHashId, name: 'Groups Owner BV' },
      deviceOutageEmails: ['noc@example.com', 'field@example.com'],
      deviceCount: 0,
      apiKeys: [],
    });
    expect(created.deviceOutageUsers.map((user) => user.hashId)).toEqual([staffUser, ownUser]);
    expect(created.deviceOutageUsers[0]).toEqual({
      hashId: staffUser,
      name: expect.any(String) as string,
      email: expect.stringContaining('@example.com') as string,
    });

    const response = await t.call('GET', `${base}/${created.hashId}`, employee);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(created);

    const audit = await auditRows(created.hashId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ change_type: 'controllerCreate' });
    expect(audit[0].diff).toEqual(
      expect.arrayContaining([
        { type: 'string', name: 'name', oldValue: null, newValue: 'North sites' },
        { type: 'json', name: 'deviceOutageEmails', oldValue: null, newValue: ['noc@example.com', 'field@example.com'] },
      ]),
    );
  });

  it('refuses outage users who cannot see the group with user_has_no_access and their hash ids', async () => {
    const ownUser = await userOf(ownerHashId, ['customer.read']);
    const foreignUser = await userOf(otherHashId, ['customer.read']);
    const unknown = t.hashIds.encode('user', 999_999);
    const response = await t.call('POST', base, ops, {
      name: 'Contacts',
      organizationHashId: ownerHashId,
      deviceOutageUsersHashIds: [ownUser, foreignUser, unknown],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ key: 'user_has_no_access', details: { hashIds: [foreignUser, unknown] } });

    const group = await createGroup();
    const update = await t.call('PUT', `${base}/${group.hashId}`, ops, { deviceOutageUsersHashIds: [foreignUser] });
    expect(update.statusCode).toBe(400);
    expect(update.json()).toEqual({ key: 'user_has_no_access', details: { hashIds: [foreignUser] } });
  });

  it('refuses a 256-character name and an unknown field with payload_invalid, and accepts 255 characters', async () => {
    const long = await t.call('POST', base, ops, { name: 'x'.repeat(256), organizationHashId: ownerHashId });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ key: 'payload_invalid', details: [expect.objectContaining({ path: 'name' })] });
    const empty = await t.call('POST', base, ops, { name: '', organizationHashId: ownerHashId });
    expect(empty.json()).toMatchObject({ key: 'payload_invalid' });
    const missing = await t.call('POST', base, ops, { name: 'No organisation' });
    expect(missing.json()).toMatchObject({ key: 'payload_invalid', details: [expect.objectContaining({ path: 'organizationHashId' })] });
    const tooMany = await t.call('POST', base, ops, {
      name: 'Many',
      organizationHashId: ownerHashId,
      deviceOutageEmails: Array.from({ length: 51 }, (_, i) => `a${i}@example.com`),
    });
    expect(tooMany.json()).toMatchObject({ key: 'payload_invalid', details: [expect.objectContaining({ path: 'deviceOutageEmails' })] });
    const badEmail = await t.call('POST', base, ops, { name: 'Bad', organizationHashId: ownerHashId, deviceOutageEmails: ['not an email'] });
    expect(badEmail.json()).toMatchObject({ key: 'payload_invalid', details: [{ path: 'deviceOutageEmails[0]', message: 'Invalid email (RFC 5322)' }] });

    const group = await createGroup({ name: 'x'.repeat(255) });
    expect(group.name).toHaveLength(255);
    // The organisation is the group's for good.
    const move = await t.call('PUT', `${base}/${group.hashId}`, ops, { organizationHashId: otherHashId });
    expect(move.statusCode).toBe(400);
    expect(move.json()).toMatchObject({ key: 'payload_invalid' });
    const tooLong = await t.call('PUT', `${base}/${group.hashId}`, ops, { name: 'y'.repeat(256) });
    expect(tooLong.json()).toMatchObject({ key: 'payload_invalid', details: [expect.objectContaining({ path: 'name' })] });
  });

  it('answers not_found for an unknown organisation, an unknown group and a hash id of another type', async () => {
    const organization = await t.call('POST', base, ops, { name: 'Nowhere', organizationHashId: t.hashIds.encode('organization', 999_999) });
    expect(organization.statusCode).toBe(404);
    expect(organization.json()).toMatchObject({ key: 'not_found' });

    const group = await createGroup();
    const id = t.hashIds.decode('deviceGroup', group.hashId) ?? 0;
    const unknown = t.hashIds.encode('deviceGroup', 999_999);
    const otherType = t.hashIds.encode('device', id);
    for (const hashId of [unknown, otherType]) {
      for (const [method, payload] of [
        ['GET', undefined],
        ['PUT', { name: 'Renamed' }],
        ['DELETE', undefined],
      ] as const) {
        const response = await t.call(method, `${base}/${hashId}`, ops, payload);
        expect({ method, hashId, status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({
          method,
          hashId,
          status: 404,
          key: 'not_found',
        });
      }
    }
  });

  it('lets employees read but not write: forbidden for an employee writing, and customers never reach the routes', async () => {
    const group = await createGroup();
    const key = await anApiKey();
    const writes = [
      t.call('POST', base, employee, { name: 'By an employee', organizationHashId: ownerHashId }),
      t.call('PUT', `${base}/${group.hashId}`, employee, { name: 'By an employee' }),
      t.call('DELETE', `${base}/${group.hashId}`, employee),
      t.call('POST', `${base}/api-key`, employee, { deviceGroupHashId: group.hashId, apiKeyHashId: key.hashId }),
      t.call('DELETE', `${base}/api-key`, employee, { deviceGroupHashId: group.hashId, apiKeyHashId: key.hashId }),
    ];
    for (const response of await Promise.all(writes)) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ key: 'forbidden' });
    }
    for (const url of [base, `${base}/${group.hashId}`]) {
      const response = await t.call('GET', url, customer);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ key: 'forbidden' });
    }
    const anonymous = await t.call('GET', base);
    expect(anonymous.statusCode).toBe(401);

    // The service holds the same line without the route.
    const customerActor = {
      kind: 'user' as const,
      userId: null,
      apiKeyId: null,
      organizationId: t.hashIds.decode('organization', ownerHashId),
      rights: ['customer.write' as const],
      name: 'customer',
    };
    await expect(t.services.deviceGroups.list(customerActor, { filter: '', rowsPerPage: 50 })).rejects.toMatchObject({ key: 'forbidden' });
    const employeeActor = { ...customerActor, organizationId: 1, rights: ['gridport.employee' as const] };
    await expect(t.services.deviceGroups.update(employeeActor, group.hashId, { name: 'No' })).rejects.toMatchObject({ key: 'forbidden' });
    expect((await t.call('PUT', `${base}/${group.hashId}`, developer, { name: 'By a developer' })).statusCode).toBe(200);
  });

  it('updates only the fields given, audits the typed diff, and audits nothing when nothing changes', async () => {
    const group = await createGroup({ deviceOutageEmails: ['a@example.com'] });
    const response = await t.call('PUT', `${base}/${group.hashId}`, developer, { name: 'Renamed group' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      hashId: group.hashId,
      name: 'Renamed group',
      deviceOutageEmails: ['a@example.com'],
      organizationHashId: ownerHashId,
    });

    const emails = await t.call('PUT', `${base}/${group.hashId}`, ops, { deviceOutageEmails: ['b@example.com'] });
    expect(emails.json()).toMatchObject({ name: 'Renamed group', deviceOutageEmails: ['b@example.com'] });
    await t.call('PUT', `${base}/${group.hashId}`, ops, { name: 'Renamed group' });

    const audit = await auditRows(group.hashId);
    expect(audit.map((row: { change_type: string }) => row.change_type)).toEqual(['controllerCreate', 'controllerUpdate', 'controllerUpdate']);
    expect(audit[1].diff).toEqual([{ type: 'string', name: 'name', oldValue: group.name, newValue: 'Renamed group' }]);
    expect(audit[2].diff).toEqual([{ type: 'json', name: 'deviceOutageEmails', oldValue: ['a@example.com'], newValue: ['b@example.com'] }]);
  });

  it('lists groups newest first by name (any case) and organisation, page by page with opaque cursors', async () => {
    const organization = (await anOrganization(t.services, { name: 'Groups List BV' })).hashId;
    const created: GroupView[] = [];
    for (const name of ['Alpha 100%', 'beta', 'ALPHA two', 'Gamma']) {
      const response = await t.call('POST', base, ops, { name, organizationHashId: organization });
      created.push(response.json() as GroupView);
    }
    const list = async (query: string) => {
      const response = await t.call('GET', `${base}?${query}`, employee);
      expect(response.statusCode).toBe(200);
      return response.json() as { rows: GroupView[]; nextPageOffset: string | null };
    };
    const all = await list(`organizationHashId=${organization}`);
    expect(all.rows.map((row) => row.name)).toEqual(['Gamma', 'ALPHA two', 'beta', 'Alpha 100%']);
    expect(all.nextPageOffset).toBeNull();
    expect((await list(`organizationHashId=${organization}&filter=alpha`)).rows.map((row) => row.name)).toEqual(['ALPHA two', 'Alpha 100%']);
    expect((await list(`organizationHashId=${organization}&filter=${encodeURIComponent('100%')}`)).rows.map((row) => row.name)).toEqual(['Alpha 100%']);
    expect((await list(`organizationHashId=${organization}&filter=${encodeURIComponent('_')}`)).rows).toEqual([]);

    const first = await list(`organizationHashId=${organization}&rowsPerPage=3`);
    expect(first.rows.map((row) => row.name)).toEqual(['Gamma', 'ALPHA two', 'beta']);
    expect(first.nextPageOffset).toEqual(expect.any(String));
    const second = await list(`organizationHashId=${organization}&rowsPerPage=3&offset=${first.nextPageOffset ?? ''}`);
    expect(second.rows.map((row) => row.name)).toEqual(['Alpha 100%']);
    expect(second.nextPageOffset).toBeNull();

    const badOffset = await t.call('GET', `${base}?offset=nonsense`, employee);
    expect(badOffset.statusCode).toBe(400);
    expect(badOffset.json()).toMatchObject({ key: 'invalid_offset' });
    const badOrganization = await t.call('GET', `${base}?organizationHashId=${t.hashIds.encode('device', 1)}`, employee);
    expect(badOrganization.statusCode).toBe(404);
    const tooMany = await t.call('GET', `${base}?rowsPerPage=501`, employee);
    expect(tooMany.json()).toMatchObject({ key: 'query_invalid' });
  });

  it('costs a fixed number of queries per page, however many groups, users, keys and devices it holds', async () => {
    const small = (await anOrganization(t.services, { name: 'Groups Small BV' })).hashId;
    const large = (await anOrganization(t.services, { name: 'Groups Large BV' })).hashId;
    const only = (
      await t.call('POST', base, ops, { name: 'Only', organizationHashId: small, deviceOutageUsersHashIds: [await userOf(small, ['customer.read'])] })
    ).json() as GroupView;
    await t.call('POST', `${base}/api-key`, ops, { deviceGroupHashId: only.hashId, apiKeyHashId: (await anApiKey(small)).hashId });
    await exposedDevice(only.hashId, small);
    for (let index = 0; index < 5; index += 1) {
      const users = [await userOf(large, ['customer.read']), await userOf(large, ['customer.read'])];
      const response = await t.call('POST', base, ops, { name: `Many ${index}`, organizationHashId: large, deviceOutageUsersHashIds: users });
      const group = response.json() as GroupView;
      const key = await anApiKey(large);
      expect((await t.call('POST', `${base}/api-key`, ops, { deviceGroupHashId: group.hashId, apiKeyHashId: key.hashId })).statusCode).toBe(204);
      await exposedDevice(group.hashId, large);
    }
    const queriesFor = async (organizationHashId: string) => {
      let count = 0;
      const count1 = () => {
        count += 1;
      };
      t.database.db.on('query', count1);
      try {
        const response = await t.call('GET', `${base}?organizationHashId=${organizationHashId}`, employee);
        expect(response.statusCode).toBe(200);
        const rows = (response.json() as { rows: GroupView[] }).rows;
        return {
          count,
          rows: rows.length,
          users: rows.reduce((sum, row) => sum + row.deviceOutageUsers.length, 0),
          keys: rows.reduce((sum, row) => sum + row.apiKeys.length, 0),
          devices: rows.reduce((sum, row) => sum + row.deviceCount, 0),
        };
      } finally {
        t.database.db.removeListener('query', count1);
      }
    };
    const one = await queriesFor(small);
    const five = await queriesFor(large);
    expect(five).toMatchObject({ rows: 5, users: 10, keys: 5, devices: 5 });
    expect(one).toMatchObject({ rows: 1, users: 1, keys: 1, devices: 1 });
    expect(five.count).toBe(one.count);
  });

  it('deletes an empty group, refuses one with devices (not_empty with the count) or with linked API keys (has_access with their hash ids), and audits the deletion', async () => {
    const group = await createGroup();
    await exposedDevice(group.hashId);
    await exposedDevice(group.hashId);
    const got = await t.call('GET', `${base}/${group.hashId}`, employee);
    expect(got.json()).toMatchObject({ deviceCount: 2 });

    const refused = await t.call('DELETE', `${base}/${group.hashId}`, ops);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ key: 'not_empty', details: { deviceCount: 2 } });

    const empty = await createGroup();
    const key = await anApiKey();
    await t.call('POST', `${base}/api-key`, ops, { deviceGroupHashId: empty.hashId, apiKeyHashId: key.hashId });
    // Deleting the group would widen the linked key to every device of the organisation: unlink first.
    const keyed = await t.call('DELETE', `${base}/${empty.hashId}`, developer);
    expect(keyed.statusCode).toBe(409);
    expect(keyed.json()).toEqual({ key: 'has_access', details: { apiKeyHashIds: [key.hashId] } });
    await t.call('DELETE', `${base}/api-key`, ops, { deviceGroupHashId: empty.hashId, apiKeyHashId: key.hashId });
    const deleted = await t.call('DELETE', `${base}/${empty.hashId}`, developer);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await t.call('GET', `${base}/${empty.hashId}`, employee)).statusCode).toBe(404);
    expect(await t.database.db('device_group_api_keys').where({ device_group_id: t.hashIds.decode('deviceGroup', empty.hashId) ?? -1 })).toEqual([]);
    const audit = await auditRows(empty.hashId);
    expect(audit.map((row: { change_type: string }) => row.change_type)).toEqual([
      'controllerCreate',
      'controllerUpdate',
      'controllerUpdate',
      'controllerDelete',
    ]);
    expect(audit[3].diff).toEqual(expect.arrayContaining([{ type: 'string', name: 'name', oldValue: empty.name, newValue: null }]));
  });

  it('links and unlinks API keys: already_configured when linked twice, forbidden_organization for another organisation, not_found when not linked', async () => {
    const group = await createGroup();
    const key = await anApiKey();
    const foreign = await anApiKey(otherHashId);
    const link = (cookie: string, apiKeyHashId: string, method: 'POST' | 'DELETE' = 'POST', deviceGroupHashId = group.hashId) =>
      t.call(method, `${base}/api-key`, cookie, { deviceGroupHashId, apiKeyHashId });

    const linked = await link(ops, key.hashId);
    expect(linked.statusCode).toBe(204);
    expect((await t.call('GET', `${base}/${group.hashId}`, employee)).json()).toMatchObject({
      apiKeys: [{ hashId: key.hashId, name: expect.stringMatching(/^Key /) as string }],
    });

    const twice = await link(developer, key.hashId);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ key: 'already_configured' });

    const other = await link(ops, foreign.hashId);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ key: 'forbidden_organization' });

    const noKey = await link(ops, t.hashIds.encode('apiKey', 999_999));
    expect(noKey.statusCode).toBe(404);
    expect(noKey.json()).toMatchObject({ key: 'not_found' });
    const noGroup = await link(ops, key.hashId, 'POST', t.hashIds.encode('apiKey', t.hashIds.decode('deviceGroup', group.hashId) ?? 0));
    expect(noGroup.statusCode).toBe(404);
    const missing = await t.call('POST', `${base}/api-key`, ops, { deviceGroupHashId: group.hashId });
    expect(missing.json()).toMatchObject({ key: 'payload_invalid', details: [expect.objectContaining({ path: 'apiKeyHashId' })] });

    const unlinked = await link(developer, key.hashId, 'DELETE');
    expect(unlinked.statusCode).toBe(204);
    expect((await t.call('GET', `${base}/${group.hashId}`, employee)).json()).toMatchObject({ apiKeys: [] });
    const again = await link(ops, key.hashId, 'DELETE');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ key: 'not_found' });

    const audit = await auditRows(group.hashId);
    expect(audit.map((row: { change_type: string; diff: unknown }) => [row.change_type, row.diff])).toEqual([
      ['controllerCreate', expect.anything()],
      ['controllerUpdate', [{ type: 'link-many', name: 'apiKeys', objectType: 'api_keys', addedHashIds: [key.hashId], removedHashIds: [] }]],
      ['controllerUpdate', [{ type: 'link-many', name: 'apiKeys', objectType: 'api_keys', addedHashIds: [], removedHashIds: [key.hashId] }]],
    ]);
  });

  it('limits a linked API key to the devices of its groups; without links it sees all of its organisation', async () => {
    const group = await createGroup();
    const inGroup = await exposedDevice(group.hashId);
    const outside = await exposedDevice(null);
    const key = await anApiKey();
    const keyActor = await t.services.apiKeys.authenticate(key.apiKey, '127.0.0.1');
    expect(keyActor.kind).toBe('apiKey');
    const seen = async () => (await t.services.steering.list(keyActor, { rowsPerPage: 50 })).devices.map((device) => device.hashId);

    expect(await seen()).toEqual(expect.arrayContaining([inGroup, outside]));
    expect((await t.call('POST', `${base}/api-key`, ops, { deviceGroupHashId: group.hashId, apiKeyHashId: key.hashId })).statusCode).toBe(204);
    expect(await seen()).toEqual([inGroup]);
    expect((await t.call('DELETE', `${base}/api-key`, ops, { deviceGroupHashId: group.hashId, apiKeyHashId: key.hashId })).statusCode).toBe(204);
    expect(await seen()).toEqual(expect.arrayContaining([inGroup, outside]));
  });

  it('are described in the OpenAPI document from the same schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const paths = (response.json() as { paths: Record<string, Record<string, unknown>> }).paths;
    expect(Object.keys(paths[base] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths[`${base}/api-key`] ?? {}).sort()).toEqual(['delete', 'post']);
    expect(Object.keys(paths[`${base}/{hashId}`] ?? {}).sort()).toEqual(['delete', 'get', 'put']);
  });
});
