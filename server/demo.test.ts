import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testApp, type TestApp } from '../test-support/app';
import { systemActor } from '../graph/common/context';
import { demoOrganizationName, demoSignIns, ensureDemoFleet } from './demo';
import { startDemoGateways } from './demo-gateways';

describe('the demo fleet', () => {
  let t: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    t = await testApp({}, { hub: true });
    dataDir = mkdtempSync(path.join(tmpdir(), 'gridport-demo-'));
  });

  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is made once: an organisation with four exposed, steerable devices of every asset category, found again on the next start', async () => {
    const first = await ensureDemoFleet(t.services);
    expect(first.created).toBe(true);
    expect(first.deviceHashIds).toHaveLength(4);
    const ops = await t.signIn(['gridport.ops']);
    const device = await t.app.inject({ method: 'GET', url: `/console-admin/v1/device/${first.deviceHashIds[0]}`, headers: { cookie: ops } });
    expect(device.json()).toMatchObject({ name: 'Windpark Zuid', organizationName: demoOrganizationName, isExposedToCustomer: true, cloudApi: 'READ_WRITE' });
    expect(new Set((device.json() as { assets: { category: string }[] }).assets.map((asset) => asset.category)).size).toBe(12);

    const { customer } = demoSignIns;
    const login = await t.app.inject({ method: 'POST', url: '/console-shared/v1/login', payload: { email: customer.email, password: customer.password } });
    expect(login.statusCode).toBe(200);
    expect((await t.services.users.list(systemActor('test'), { filter: demoSignIns.staff.email, rowsPerPage: 5 })).rows.map((row) => row.rights)).toEqual([
      ['gridport.ops', 'gridport.developer', 'gridport.employee'],
    ]);

    const again = await ensureDemoFleet(t.services);
    expect(again).toEqual({ created: false, organizationHashId: first.organizationHashId, deviceHashIds: first.deviceHashIds });
  });

  it('runs a real edge agent per device against its simulated site: online with live reports, and the same identity after a restart', async () => {
    const fleet = await ensureDemoFleet(t.services);
    const baseUrl = await t.listen();
    const reportTypes = async (hashId: string) =>
      new Set(
        (
          (await t.database
            .db('device_reports')
            .where('device_id', t.hashIds.decode('device', hashId) ?? 0)
            .distinct('type')) as { type: string }[]
        ).map((row) => row.type),
      );
    const until = async (check: () => Promise<boolean>, what: string) => {
      const deadline = Date.now() + 25_000;
      while (!(await check())) {
        if (Date.now() > deadline) {
          throw new Error(`${what} did not happen within 25 s`);
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };

    const gateways = await startDemoGateways({ services: t.services, deviceHashIds: fleet.deviceHashIds, baseUrl, dataDir, log: t.logs.log });
    expect(gateways.sites.map((site) => site.name)).toEqual(['wind', 'solar-battery', 'ev-charging', 'real-families']);
    const [wind, solar, ev, realFamilies] = fleet.deviceHashIds as [string, string, string, string];
    const assetReports = async (hashId: string) =>
      (await t.database
        .db('device_reports')
        .where('device_id', t.hashIds.decode('device', hashId) ?? 0)
        .whereIn('type', ['meterPower', 'solarPower', 'batteryPower'])
        .orderBy('at', 'desc')
        .select('type', 'asset_index', 'body')) as { type: string; asset_index: number; body: { observations: Record<string, unknown> } }[];
    // Flash reports come every second; asset reports and the loop status with the first reporting interval (10 s).
    await until(
      async () =>
        (await reportTypes(wind)).has('windPower.flash') &&
        (await reportTypes(solar)).has('solarPower.flash') &&
        (await reportTypes(ev)).has('meterPower.flash') &&
        (await reportTypes(realFamilies)).has('meterPower.flash') &&
        new Set((await assetReports(realFamilies)).map((report) => report.type)).size === 3,
      'live reports from every site',
    );
    // The real-family site: its Janitza meter, Huawei inverter and SMA battery, each read over Modbus by its family's map.
    const realReports = await assetReports(realFamilies);
    const latest = (type: string) => realReports.find((report) => report.type === type);
    expect(['meterPower', 'solarPower', 'batteryPower'].map((type) => latest(type)?.asset_index)).toEqual([0, 1, 2]);
    expect(latest('meterPower')?.body.observations).toMatchObject({ activePower: expect.any(Number), frequency: expect.any(Number) });
    expect(latest('solarPower')?.body.observations).toMatchObject({ activePower: expect.any(Number), energyProduced: expect.any(Number) });
    expect(latest('batteryPower')?.body.observations).toMatchObject({ activePower: expect.any(Number), stateOfCharge: expect.any(Number) });
    const devices = (await t.database
      .db('devices')
      .whereIn(
        'id',
        fleet.deviceHashIds.map((hashId) => t.hashIds.decode('device', hashId) ?? 0),
      )
      .select('online', 'config')) as { online: boolean; config: { assets: { type: string }[] } }[];
    expect(devices.every((device) => device.online)).toBe(true);
    expect(devices.map((device) => device.config.assets.map((asset) => asset.type)).sort()).toEqual([
      ['demo-meter', 'demo-ev', 'demo-relay'],
      ['demo-meter', 'demo-solar', 'demo-battery'],
      ['demo-meter', 'demo-wind'],
      ['janitza', 'huawei-inverter', 'sma-sunny-island'],
    ]);
    const certificates = (await t.database
      .db('devices')
      .whereIn(
        'id',
        fleet.deviceHashIds.map((hashId) => t.hashIds.decode('device', hashId) ?? 0),
      )
      .orderBy('id')
      .pluck('certificate_fingerprint')) as string[];
    await gateways.close();

    const configsSent = async () =>
      Number(((await t.database.db('device_outbox').where('type', 'setConfig').count({ count: '*' })) as { count: number | string }[])[0]?.count);
    const configsBefore = await configsSent();
    const restarted = await startDemoGateways({ services: t.services, deviceHashIds: fleet.deviceHashIds, baseUrl, dataDir, log: t.logs.log });
    // The simulators come back on their ports, so the configs stay as they are: nothing new for the gateways.
    expect(await configsSent()).toBe(configsBefore);
    await until(
      async () =>
        Boolean(
          (
            await t.database
              .db('devices')
              .where('id', t.hashIds.decode('device', wind) ?? 0)
              .first('online')
          )?.online,
        ),
      'the wind gateway back online',
    );
    expect(
      await t.database
        .db('devices')
        .whereIn(
          'id',
          fleet.deviceHashIds.map((hashId) => t.hashIds.decode('device', hashId) ?? 0),
        )
        .orderBy('id')
        .pluck('certificate_fingerprint'),
    ).toEqual(certificates);
    await restarted.close();
  });
});

describe('a demo fleet made before the real-family site', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('gets the device it lacks at the next start, in the same group, and keeps its three devices as they are', async () => {
    const fleet = await ensureDemoFleet(t.services);
    const [wind, solar, ev, realFamilies] = fleet.deviceHashIds as [string, string, string, string];
    // The fleet as a data folder from before the fourth site holds it: three devices, the first renamed by its owner.
    await t.database
      .db('devices')
      .where('id', t.hashIds.decode('device', realFamilies) ?? 0)
      .delete();
    await t.services.devices.update(systemActor('test'), wind, { name: 'Our wind park' });

    const again = await ensureDemoFleet(t.services);
    expect(again.created).toBe(false);
    expect(again.deviceHashIds.slice(0, 3)).toEqual([wind, solar, ev]);
    expect(again.deviceHashIds).toHaveLength(4);
    const rows = (await t.database
      .db('devices')
      .whereIn(
        'id',
        again.deviceHashIds.map((hashId) => t.hashIds.decode('device', hashId) ?? 0),
      )
      .orderBy('id')
      .select('name', 'device_group_id', 'is_exposed_to_customer')) as { name: string; device_group_id: number; is_exposed_to_customer: boolean }[];
    expect(rows.map((row) => row.name)).toEqual(['Our wind park', 'Solar Farm Noord', 'Laadplein Oost', 'Bedrijfshal West']);
    expect(new Set(rows.map((row) => row.device_group_id)).size).toBe(1);
    expect(rows.every((row) => row.is_exposed_to_customer)).toBe(true);

    expect(await ensureDemoFleet(t.services)).toEqual({ ...again, created: false });
  });
});
