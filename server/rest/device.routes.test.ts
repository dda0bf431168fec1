import { createHash } from 'node:crypto';
import { exampleDeviceConfig } from '../../contracts/device';
import { identifierPlaceholder } from '../../contracts/fleet';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, buildDevice, buildDeviceGroup, buildPartnership, buildUser } from '../../test-support/factories';

type Json = Record<string, unknown>;

/** A deep copy of the example config, changed by `change`. */
function exampleConfig(change: (config: Json & { assets: Json[] }) => void = () => undefined): Json {
  const config = structuredClone(exampleDeviceConfig) as unknown as Json & { assets: Json[] };
  change(config);
  return config;
}

describe('devices', () => {
  let t: TestApp;
  let ownerHashId: string;
  let otherHashId: string;
  let ops: string;
  let employee: string;
  let sales: string;
  let owner: string;
  let stranger: string;

  beforeAll(async () => {
    t = await testApp();
    ownerHashId = (await anOrganization(t.services, { name: 'Devices Owner BV' })).hashId;
    otherHashId = (await anOrganization(t.services, { name: 'Devices Other BV' })).hashId;
    [ops, employee, sales, owner, stranger] = await Promise.all([
      t.signIn(['gridport.ops']),
      t.signIn(['gridport.employee']),
      t.signIn(['gridport.sales']),
      t.signIn(['customer.write'], ownerHashId),
      t.signIn(['customer.write'], otherHashId),
    ]);
  });

  afterAll(async () => {
    await t.close();
  });

  async function ship(organizationHashId = ownerHashId): Promise<string> {
    return (await buildDevice(t.services, { organizationHashId })).hashId;
  }

  function put(cookie: string, hashId: string, payload: Json) {
    return t.call('PUT', `/console-admin/v1/device/${hashId}`, cookie, payload);
  }

  /** A device with the example config, exposed to its customers. */
  async function exposedDevice(organizationHashId = ownerHashId): Promise<string> {
    return (await buildDevice(t.services, { organizationHashId, config: exampleConfig(), isExposedToCustomer: true })).hashId;
  }

  it('ships a device open for provisioning; its identifier is a placeholder until it connects', async () => {
    const hashId = await ship();
    const response = await t.call('GET', `/console-admin/v1/device/${hashId}`, employee);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      hashId,
      identifier: identifierPlaceholder,
      organizationHashId: ownerHashId,
      organizationName: 'Devices Owner BV',
      openForProvisioning: true,
      cloudApi: 'READ',
      isExposedToCustomer: false,
      inProduction: false,
      config: null,
      assets: [],
      activeSession: null,
    });
    const audit = await t.database
      .db('audit_log')
      .where({ object_type: 'devices', object_id: t.hashIds.decode('device', hashId) })
      .first();
    expect(audit).toMatchObject({ change_type: 'controllerDeviceShipped' });
    expect(JSON.stringify(audit.diff)).not.toContain('provisioningTokenHash":"');
  });

  it('stores a valid config with its defaults, lists its assets and controllers, and queues it for the device', async () => {
    const hashId = await ship();
    const response = await put(ops, hashId, { config: exampleConfig() });
    expect(response.statusCode).toBe(200);
    const device = response.json() as {
      config: { assets: Json[] };
      assets: Json[];
      controllers: Json[];
      reportingInterval: number;
      nominalActivePowerSum: number;
    };
    expect(device.config.assets[0]).toMatchObject({ identifier: 'pv-roof', timeout: 500 });
    expect(device.assets[0]).toEqual({
      index: 0,
      category: 'solar',
      type: 'sma-sunny-tripower',
      identifier: 'pv-roof',
      nominalActivePower: 100000,
      schedule: [],
    });
    expect(device.assets).toHaveLength(exampleDeviceConfig.assets.length);
    expect(device.controllers).toHaveLength(exampleDeviceConfig.activeControl.length);
    expect(device.reportingInterval).toBe(60);
    expect(device.nominalActivePowerSum).toBeGreaterThan(0);

    const id = t.hashIds.decode('device', hashId) ?? 0;
    const pending = await t.services.deviceOutbox.pending(id);
    expect(pending.map((message) => message.type)).toEqual(['setConfig']);
    expect((pending[0]?.payload.config as Json).reportingIntervalInSec).toBe(60);

    // The same config again changes nothing and queues nothing.
    await put(ops, hashId, { config: exampleConfig() });
    expect(await t.services.deviceOutbox.pending(id)).toHaveLength(1);
    const audit = await t.database.db('audit_log').where({ object_type: 'devices', object_id: id, change_type: 'controllerUpdate' });
    expect(audit).toHaveLength(1);
    expect((audit[0].diff as { name: string }[]).map((entry) => entry.name)).toEqual(['config']);
  });

  it('refuses an invalid config with invalid_config and every issue as key and details', async () => {
    const hashId = await ship();
    const response = await put(ops, hashId, {
      config: exampleConfig((config) => {
        config.reportingIntervalInSec = 1;
        config.maintenanceWindow = { start: '23:00', end: '01:00' };
      }),
    });
    expect(response.statusCode).toBe(400);
    const body = response.json() as { key: string; details: { issues: { key: string; details: string }[] } };
    expect(body.key).toBe('invalid_config');
    expect(body.details.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'reportingIntervalInSec' }),
        { key: 'maintenanceWindow.end', details: 'Invalid time window: Start time must be earlier than end time, overnight schedules are not allowed.' },
      ]),
    );
    expect(await t.services.deviceOutbox.pending(t.hashIds.decode('device', hashId) ?? 0)).toEqual([]);
  });

  it('exposes a device only with a valid config whose assets all have unique identifiers', async () => {
    const hashId = await ship();
    const bare = await put(ops, hashId, { isExposedToCustomer: true });
    expect(bare.json()).toEqual({ key: 'no_valid_config' });

    const unnamed = await put(ops, hashId, { isExposedToCustomer: true, config: exampleConfig((config) => void delete config.assets[1]?.identifier) });
    expect(unnamed.json()).toEqual({ key: 'not_all_assets_have_identifier', details: { assetIndices: [1] } });

    const twice = await put(ops, hashId, {
      isExposedToCustomer: true,
      config: exampleConfig((config) => {
        (config.assets[1] as Json).identifier = 'pv-roof';
      }),
    });
    expect(twice.json()).toEqual({ key: 'asset_identifiers_are_not_unique', details: { offendingIdentifier: 'pv-roof' } });

    expect((await put(ops, hashId, { isExposedToCustomer: true, config: exampleConfig() })).statusCode).toBe(200);
    // Once exposed, a config that breaks the rule is refused too.
    const broken = await put(ops, hashId, { config: exampleConfig((config) => void delete config.assets[0]?.identifier) });
    expect(broken.json()).toMatchObject({ key: 'not_all_assets_have_identifier' });
  });

  it('keeps the locked properties of a device in production until it is taken out of production', async () => {
    const hashId = await ship();
    expect((await put(ops, hashId, { inProduction: true })).statusCode).toBe(200);
    const moved = await put(ops, hashId, { organizationHashId: otherHashId, cloudApi: 'READ_WRITE' });
    expect(moved.statusCode).toBe(403);
    expect(moved.json()).toEqual({ key: 'in_production', details: { fields: ['organizationHashId', 'cloudApi'] } });
    expect((await put(ops, hashId, { name: 'Renamed in production' })).statusCode).toBe(200);
    const out = await put(ops, hashId, { inProduction: false, organizationHashId: otherHashId });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ organizationHashId: otherHashId, inProduction: false, name: 'Renamed in production' });
  });

  it('opens a device for provisioning again with a new one-time token, but not in production', async () => {
    const hashId = await ship();
    const url = `/console-admin/v1/device/${hashId}/provisioning-token`;
    expect((await t.call('POST', url, employee)).statusCode).toBe(403);
    const reopened = await t.call('POST', url, ops);
    expect(reopened.statusCode).toBe(201);
    const { provisioningToken } = reopened.json() as { provisioningToken: string };
    const row = (await t.database.db('devices').where('id', t.hashIds.decode('device', hashId)).first()) as {
      provisioning_token_hash: string;
      open_for_provisioning: boolean;
    };
    expect(row.open_for_provisioning).toBe(true);
    expect(row.provisioning_token_hash).toBe(createHash('sha256').update(provisioningToken).digest('hex'));
    await put(ops, hashId, { inProduction: true });
    expect((await t.call('POST', url, ops)).json()).toEqual({
      key: 'in_production',
      details: { fields: ['openForProvisioning'] },
    });
  });

  it('lets only Ops and Developer update a device, and Ops and Sales its invoice details', async () => {
    const hashId = await ship();
    expect((await put(employee, hashId, { name: 'x' })).json()).toMatchObject({ key: 'forbidden' });
    expect((await put(sales, hashId, { name: 'x' })).json()).toMatchObject({ key: 'forbidden' });
    const invoice = await t.call('PUT', `/console-admin/v1/device/${hashId}/invoice-details`, sales, {
      invoiceCustomerReference: 'PO-1234',
      subscription: { usage: true, chargePeriod: 1, runtime: 36, startAt: '2026-12-01T00:00:00Z' },
    });
    expect(invoice.statusCode).toBe(200);
    expect(invoice.json()).toMatchObject({
      invoiceCustomerReference: 'PO-1234',
      subscription: { usage: true, chargePeriod: 1, runtime: 36, afterExpiration: null },
    });
    const missing = await put(ops, 'doesNotExist', { name: 'x' });
    expect(missing.statusCode).toBe(404);
  });

  it('filters the admin list by hash id, organisation, group any or none, asset and control type and identifier, iccid and imsi', async () => {
    const a = await ship(otherHashId);
    const b = await ship(otherHashId);
    await put(ops, a, { config: exampleConfig(), iccid: '8931000000000000001', imsi: '204080000000001' });
    await buildDeviceGroup(t.services, { organizationHashId: otherHashId, name: 'Group for filters' });
    const list = async (query: string) => {
      const response = await t.call('GET', `/console-admin/v1/device?organizationHashId=${otherHashId}&${query}`, employee);
      expect(response.statusCode).toBe(200);
      return (response.json() as { rows: { hashId: string }[] }).rows.map((row) => row.hashId);
    };
    expect(await list('')).toEqual(expect.arrayContaining([a, b]));
    expect(await list(`hashId=${a}`)).toEqual([a]);
    expect(await list('assetType=sma-sunny-tripower')).toEqual([a]);
    expect(await list('assetIdentifier=pv-roof')).toEqual([a]);
    expect(await list('activeControlType=optimizer')).toEqual([a]);
    expect(await list('activeControlType=nothing-like-it')).toEqual([]);
    expect(await list('iccid=8931000000000000001')).toEqual([a]);
    expect(await list('imsi=204080000000001')).toEqual([a]);
    expect(await list('deviceGroupHashId=any')).toEqual([]);
    expect(await list('deviceGroupHashId=none')).toEqual(expect.arrayContaining([a, b]));
    const bad = await t.call('GET', '/console-admin/v1/device?rowsPerPage=501', employee);
    expect(bad.json()).toMatchObject({ key: 'query_invalid' });
    const cursor = await t.call('GET', '/console-admin/v1/device?offset=nonsense', employee);
    expect(cursor.json()).toMatchObject({ key: 'invalid_offset' });
  });

  it('shows customers only their exposed devices and those shared with them, with counts', async () => {
    const hidden = await ship();
    const exposed = await exposedDevice();
    const theirs = await exposedDevice(otherHashId);
    const seen = await t.call('GET', '/console/v1/device', owner);
    const body = seen.json() as { rows: { hashId: string; config: { vpn: { credentials: unknown } } }[]; count: number };
    const hashIds = body.rows.map((row) => row.hashId);
    expect(hashIds).toContain(exposed);
    expect(hashIds).not.toContain(hidden);
    expect(hashIds).not.toContain(theirs);
    expect(body.count).toBe(body.rows.length);
    expect(body.rows[0]?.config.vpn.credentials).toBeNull();

    expect((await t.call('GET', `/console/v1/device/${theirs}`, owner)).statusCode).toBe(404);
    expect((await t.call('GET', `/console/v1/device/${hidden}`, owner)).statusCode).toBe(404);
    const counts = await t.call('GET', '/console/v1/device/count', owner);
    expect(counts.json()).toEqual({ totalCount: body.count, operationalCount: 0, operationalWithIssuesCount: 0, inactiveCount: body.count });
    const operational = await t.call('GET', '/console/v1/device?status=operational', owner);
    expect((operational.json() as { count: number }).count).toBe(0);

    // A partnership of the other organisation with the owner, listing one device, shares exactly that one.
    const partnership = await buildPartnership(t.services, {
      ownerOrganizationHashId: otherHashId,
      partnerOrganizationHashId: ownerHashId,
      deviceHashIds: [theirs],
    });
    const shared = await t.call('GET', `/console/v1/device/${theirs}`, owner);
    expect(shared.statusCode).toBe(200);
    expect(shared.json()).toMatchObject({ partnerships: [{ role: 'viewer', owner: { name: 'Devices Other BV' }, partner: { name: 'Devices Owner BV' } }] });
    const another = await exposedDevice(otherHashId);
    expect((await t.call('GET', `/console/v1/device/${another}`, owner)).statusCode).toBe(404);
    await t.database.db('partnerships').where('id', partnership.id).update({ all_devices: true });
    expect((await t.call('GET', `/console/v1/device/${another}`, owner)).statusCode).toBe(200);
    await t.database.db('partnerships').where('id', partnership.id).delete();
  });

  it('lets a customer add and remove outage contacts who can see the device, and no one else', async () => {
    const hashId = await exposedDevice();
    const colleague = await buildUser(t.services, { organizationHashId: ownerHashId, name: 'Colleague', rights: ['customer.read'] });
    const outsider = await buildUser(t.services, { organizationHashId: otherHashId, name: 'Outsider', rights: ['customer.read'] });
    const url = `/console/v1/device/${hashId}`;
    const refused = await t.call('PUT', url, owner, { outageUsersHashIds: [colleague.hashId, outsider.hashId] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ key: 'user_has_no_access', details: { hashIds: [outsider.hashId] } });

    const added = await t.call('PUT', url, owner, { outageUsersHashIds: [colleague.hashId], outageEmails: ['control-room@example.com'] });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ outageEmails: ['control-room@example.com'], outageUsers: [{ hashId: colleague.hashId, name: 'Colleague' }] });
    const removed = await t.call('PUT', url, owner, { removedOutageUsersHashIds: [colleague.hashId], removedOutageEmails: ['Control-Room@example.com'] });
    expect(removed.json()).toMatchObject({ outageEmails: [], outageUsers: [] });

    const strangers = await t.call('PUT', url, stranger, { outageEmails: ['x@example.com'] });
    expect(strangers.statusCode).toBe(404);
  });
});
