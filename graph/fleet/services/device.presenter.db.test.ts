import type { DeviceView } from '../../../contracts/fleet';
import { providerOrganizationId } from '../../../contracts/limits';
import { testDatabase, type TestDatabase } from '../../../test-support/database';
import { insertDeviceRow } from '../../../test-support/factories';
import { storedExampleConfig } from '../../../test-support/fleet';
import type { Actor } from '../../common/context';
import { HashIds } from '../../common/hash-ids';
import { IdentityDirectory } from '../../identity/services/directory.service';
import { DeviceModel } from '../models/device.model';
import { componentColumns, componentsOf } from './device-config';
import { DevicePresenter } from './device.presenter';

/** Devices of two owners with partnerships, components and a schedule, presented to staff, an owner and a partner. */
describe('presenting devices', () => {
  let database: TestDatabase;
  const hashIds = new HashIds('presenter-test-hash-id-secret-0123456789abcdef');
  const presenter = new DevicePresenter(hashIds, new IdentityDirectory());
  const ids = { owner: 0, otherOwner: 0, partner: 0, allSeer: 0, first: 0, second: 0, otherOwners: 0, unowned: 0, user: 0 };
  const actor = (organizationId: number, rights: Actor['rights'] = []): Actor => ({
    kind: 'user',
    userId: null,
    apiKeyId: null,
    organizationId,
    rights,
    name: 'Presented to',
  });

  async function organization(name: string): Promise<number> {
    const [row] = (await database.db('organizations').insert({ name, type: 'installer' }).returning('id')) as { id: string | number }[];
    return Number(row?.id);
  }

  async function partnership(owner: number, partner: number, allDevices: boolean, devices: number[]): Promise<void> {
    const [row] = (await database
      .db('partnerships')
      .insert({
        owner_organization_id: owner,
        partner_organization_id: partner,
        role: 'viewer',
        description: `${owner} to ${partner}`,
        all_devices: allDevices,
      })
      .returning('id')) as { id: string | number }[];
    if (devices.length > 0) {
      await database.db('partnership_devices').insert(devices.map((device) => ({ partnership_id: Number(row?.id), device_id: device })));
    }
  }

  beforeAll(async () => {
    database = await testDatabase();
    ids.owner = await organization('Owner');
    ids.otherOwner = await organization('Other owner');
    ids.partner = await organization('Partner');
    ids.allSeer = await organization('Sees all');
    const [user] = (await database.db('users').insert({ organization_id: ids.owner, name: 'On call', email: 'on-call@owner.example' }).returning('id')) as {
      id: string | number;
    }[];
    ids.user = Number(user?.id);
    const config = JSON.stringify(storedExampleConfig);
    ids.first = await insertDeviceRow(database.db, { organization_id: ids.owner, name: 'First', config, outage_user_ids: JSON.stringify([ids.user, 999999]) });
    ids.second = await insertDeviceRow(database.db, { organization_id: ids.owner, name: 'Second', online: true, network_interface: 'eth0' });
    ids.otherOwners = await insertDeviceRow(database.db, { organization_id: ids.otherOwner, name: 'Elsewhere' });
    ids.unowned = await insertDeviceRow(database.db, { name: 'Unowned' });
    await database.db('device_components').insert(componentColumns(componentsOf(ids.first, storedExampleConfig)));
    const schedule = [{ startAt: '2026-12-01T12:00:00.000Z', endAt: '2026-12-01T13:00:00.000Z', command: { type: 'limitPower', feedIn: 1000, consume: null } }];
    await database.db('device_schedules').insert({ device_id: ids.first, kind: 'asset', identifier: 'bess-1', items: JSON.stringify(schedule) });
    // The partner sees the first device by list; the other organisation every device of the owner; the other owner shares with the partner.
    // A list may still name a device that changed hands since: it is not the owner's any more.
    await partnership(ids.owner, ids.partner, false, [ids.first, ids.otherOwners]);
    await partnership(ids.owner, ids.allSeer, true, []);
    await partnership(ids.otherOwner, ids.partner, true, []);
  });

  afterAll(async () => {
    await database.close();
  });

  const rows = async () => DeviceModel.query(database.db).whereIn('id', [ids.unowned, ids.otherOwners, ids.second, ids.first]).orderBy('id', 'desc');
  const partnersOf = (view: DeviceView | undefined) =>
    (view?.partnerships ?? []).map((partnership) => `${partnership.owner.name} to ${partnership.partner.name}`).sort();

  it('answers the views in the order of the rows, each with its own components, schedule, organisation and outage users', async () => {
    const views = await presenter.present(actor(providerOrganizationId, ['gridport.ops']), await rows(), database.db);
    expect(views.map((view) => view.name)).toEqual(['Unowned', 'Elsewhere', 'Second', 'First']);
    const [unowned, elsewhere, second, first] = views;
    expect(first?.hashId).toBe(hashIds.encode('device', ids.first));
    expect(first?.organizationHashId).toBe(hashIds.encode('organization', ids.owner));
    expect(first?.organizationName).toBe('Owner');
    expect(unowned).toMatchObject({ organizationHashId: null, organizationName: null, assets: [], controllers: [], partnerships: [] });
    expect(elsewhere?.organizationName).toBe('Other owner');
    expect(second).toMatchObject({ assets: [], controllers: [], isOnline: true, activeSession: { networkInterface: 'eth0' } });

    expect(first?.assets.map((asset) => asset.index)).toEqual([...Array(16).keys()]);
    expect(first?.controllers.map((controller) => controller.index)).toEqual([...Array(18).keys()]);
    expect(first?.assets[0]).toEqual({
      index: 0,
      category: 'solar',
      type: 'sma-sunny-tripower',
      identifier: 'pv-roof',
      nominalActivePower: expect.any(Number),
      schedule: [],
    });
    const battery = first?.assets.find((asset) => asset.identifier === 'bess-1');
    expect(battery?.schedule).toEqual([
      { startAt: '2026-12-01T12:00:00.000Z', endAt: '2026-12-01T13:00:00.000Z', command: { type: 'limitPower', feedIn: 1000, consume: null } },
    ]);
    expect(first?.controllers.every((controller) => Array.isArray(controller.schedule) && controller.schedule.length === 0)).toBe(true);
    // A user who is gone is left out.
    expect(first?.outageUsers).toEqual([{ hashId: hashIds.encode('user', ids.user), name: 'On call', email: 'on-call@owner.example' }]);
  });

  it('gives each device the partnerships of its owner that take it in: every one to staff, its own to an owner', async () => {
    for (const [viewer, elsewhereSeen] of [
      [actor(providerOrganizationId, ['gridport.ops']), ['Other owner to Partner']],
      // Not a party to the other owner's partnership.
      [actor(ids.owner), []],
    ] as const) {
      const [unowned, elsewhere, second, first] = await presenter.present(viewer, await rows(), database.db);
      expect(partnersOf(first)).toEqual(['Owner to Partner', 'Owner to Sees all']);
      expect(partnersOf(second)).toEqual(['Owner to Sees all']);
      expect(partnersOf(elsewhere)).toEqual(elsewhereSeen);
      expect(partnersOf(unowned)).toEqual([]);
    }
    const [, , , first] = await presenter.present(actor(ids.owner), await rows(), database.db);
    expect(first?.partnerships.find((partnership) => partnership.partner.name === 'Partner')).toEqual({
      hashId: expect.any(String),
      role: 'viewer',
      description: `${ids.owner} to ${ids.partner}`,
      allDevices: false,
      owner: { hashId: hashIds.encode('organization', ids.owner), name: 'Owner' },
      partner: { hashId: hashIds.encode('organization', ids.partner), name: 'Partner' },
    });
  });

  it('shows a partner only its own partnerships, and a customer the config without the VPN credentials', async () => {
    const [, elsewhere, second, first] = await presenter.present(actor(ids.partner), await rows(), database.db);
    expect(partnersOf(first)).toEqual(['Owner to Partner']);
    expect(partnersOf(second)).toEqual([]);
    expect(partnersOf(elsewhere)).toEqual(['Other owner to Partner']);
    expect((first?.config?.vpn as { credentials: unknown }).credentials).toBeNull();
    expect((first?.config?.vpn as { host: unknown }).host).toBe('vpn.gridport.example');

    const [, , , staffFirst] = await presenter.present(actor(providerOrganizationId, ['gridport.ops']), await rows(), database.db);
    expect((staffFirst?.config?.vpn as { credentials: unknown }).credentials).toEqual(storedExampleConfig.vpn?.credentials);
  });

  it('reads as many queries for four devices as for one, and none for no device', async () => {
    let queries = 0;
    const count = () => {
      queries += 1;
    };
    database.db.on('query', count);
    try {
      const all = await rows();
      const one = all.filter((device) => device.id === ids.first);
      queries = 0;
      await presenter.present(actor(ids.owner), one, database.db);
      const forOne = queries;
      queries = 0;
      await presenter.present(actor(ids.owner), all, database.db);
      expect(queries).toBe(forOne);
      queries = 0;
      expect(await presenter.present(actor(ids.owner), [], database.db)).toEqual([]);
      expect(queries).toBe(0);
    } finally {
      database.db.off('query', count);
    }
  });
});
