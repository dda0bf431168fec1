import { configIssues } from '../../contracts/device/config';
import { validateReport } from '../../contracts/hub/reports';
import { createDriver } from '../drivers';
import { MapDriver } from '../drivers/maps/driver';
import { ModbusLinkPool } from '../modbus/link-pool';
import { startRealFamilySite, type DemoSite } from './sites';

const noon = Date.parse('2026-06-21T11:00:00Z');

describe('the real-family demo site', () => {
  let site: DemoSite;
  let pool: ModbusLinkPool;

  beforeAll(async () => {
    site = await startRealFamilySite({ start: noon, realTime: false });
  });
  afterAll(async () => {
    await site.close();
  });
  beforeEach(() => {
    pool = new ModbusLinkPool();
  });
  afterEach(async () => {
    await pool.close();
  });

  it('gives a config of a Janitza meter, a Huawei inverter and an SMA Sunny Island that passes deviceConfigSchema', () => {
    expect(configIssues(site.config)).toEqual([]);
    expect(site.config.assets.map((asset) => asset.type)).toEqual(['janitza', 'huawei-inverter', 'sma-sunny-island']);
    expect(site.config.activeControl.map((loop) => loop.type)).toEqual(['proportionalPeakShaver']);
  });

  it('a gateway reads every asset through its map, and the battery setpoint reaches the plant and the meter', async () => {
    const drivers = site.config.assets.map((asset, index) => createDriver(index, asset, { links: pool, log: () => undefined }));
    expect(drivers.every((driver) => driver instanceof MapDriver)).toBe(true);
    const [meter, inverter, battery] = drivers;
    site.site.advance(60, 0.5);
    const before = await meter?.poll();
    expect(before?.readable).toBe(true);
    expect(before?.activePower).toBe(Number(Math.fround(site.site.meter.activePower).toPrecision(7)));
    expect((await inverter?.poll())?.activePower).toBe(
      Math.round(site.site.assets.find((asset) => asset.constructor.name === 'SolarPlant')?.activePower ?? NaN),
    );
    expect((await battery?.poll())?.stateOfCharge).toBe(60);
    expect(await battery?.writeSetpoint(3000)).toBe(true);
    site.site.advance(10, 0.1);
    expect((await battery?.poll())?.activePower).toBe(3000);
    expect((await battery?.poll())?.confirmedSetpoint).toBe(3000);
    const after = await meter?.poll();
    expect(after?.activePower).toBe(Number(Math.fround(site.site.meter.activePower).toPrecision(7)));
    for (const driver of drivers) {
      const report = driver?.buildReport(new Date(site.site.now), undefined, false);
      expect(validateReport(report)).toEqual({ ok: true, report });
    }
    expect(await inverter?.metadata()).toEqual({ manufacturer: 'Huawei', model: 'SUN2000-15KTL-M2', serialNumber: 'SIM-HUAWEI-2' });
  });
});
