import { validateReport } from '../../contracts/hub/reports';
import type { AssetConfig } from '../../contracts/device/assets';
import { Battery, EvCharger, Generator, Load, Relay, Site, SolarPlant } from './plant';
import { PlantDriver, plantDriverFactory } from './plant-drivers';

const noon = Date.parse('2026-06-21T11:00:00Z');
const tcp = { type: 'tcp', ip: '127.0.0.1', port: 502 } as const;

function config(type: string, extra: Record<string, unknown> = {}): AssetConfig {
  return { type, communication: tcp, readOnly: false, timeout: 500, ...extra } as unknown as AssetConfig;
}

describe('plant drivers', () => {
  it('a battery driver reads the plant, clamps its setpoint to the hardware range and reports a valid batteryPower', async () => {
    const site = new Site({ seed: 7, start: noon });
    const battery = site.add(new Battery({ capacityWh: 10_000, stateOfCharge: 50, maxChargePower: 5000, maxDischargePower: 4000, powerResponseMs: 0 }));
    const driver = new PlantDriver(1, config('demo-battery'), battery, site);
    expect(await driver.writeSetpoint(9000)).toBe(true);
    expect(battery.setpoint).toBe(4000);
    site.step(1);
    const state = await driver.poll();
    expect(state.readable).toBe(true);
    expect(state.activePower).toBe(4000);
    expect(state.confirmedSetpoint).toBe(4000);
    expect(state.controllableRange).toEqual({ min: -5000, max: 4000 });
    const report = driver.buildReport(new Date(site.now), { confirmed: null, desired: { activeControl: 4000 }, effective: 4000 }, false);
    expect(validateReport(report)).toMatchObject({ ok: true });
    expect(report).toMatchObject({
      type: 'batteryPower',
      asset: 1,
      observations: { activePower: 4000, setpoints: { confirmed: 4000, effective: 4000 }, connectionStatistics: { success: 2, timeout: 0 } },
    });
    const flash = driver.buildReport(new Date(site.now), undefined, true);
    expect(validateReport(flash)).toMatchObject({ ok: true });
    expect(flash).toMatchObject({ type: 'batteryPower.flash', observations: { activePower: 4000 } });
  });

  it('a readOnly asset is never written', async () => {
    const site = new Site({ seed: 7, start: noon });
    const solar = site.add(new SolarPlant({ nominalPower: 10_000 }));
    const driver = new PlantDriver(0, config('demo-solar', { readOnly: true }), solar, site);
    expect(await driver.writeSetpoint(1000)).toBe(false);
    expect(solar.setpoint).toBeNull();
    expect(await driver.metadata()).toEqual({ manufacturer: 'Gridport', model: 'demo-solar', serialNumber: 'PLANT-0', firmwareVersion: null });
  });

  it('a link taken down gives readable false, null values and counted timeouts', async () => {
    const site = new Site({ seed: 7, start: noon });
    site.add(new Load({ base: 1000 }));
    const link = { down: false };
    const factory = plantDriverFactory(site, [site.meter], { links: [link] });
    const driver = factory(0, config('demo-meter'), {
      links: {
        unit: () => {
          throw new Error('unused');
        },
        close: async () => undefined,
      },
      log: () => undefined,
    });
    expect(driver).not.toBeNull();
    await driver?.poll();
    expect(driver?.state.activePower).toBe(1000);
    link.down = true;
    const state = await driver?.poll();
    expect(state).toEqual({ readable: false, at: noon, activePower: null, phaseCurrent: { l1: null, l2: null, l3: null }, frequency: null });
    const report = driver?.buildReport(new Date(noon), undefined, false);
    expect(validateReport(report)).toMatchObject({ ok: true });
    expect(report).toMatchObject({ observations: { activePower: null, energyImport: null, connectionStatistics: { success: 1, timeout: 1 } } });
  });

  it('relay and generator commands go through execute; other kinds refuse them', async () => {
    const site = new Site({ seed: 7, start: noon });
    const relay = site.add(new Relay({ channels: 2, channelLoads: [1000, 500] }));
    const generator = site.add(new Generator({ nominalPower: 20_000, startDelayS: 0, powerResponseMs: 0 }));
    const relayDriver = new PlantDriver(0, config('demo-relay', { relays: [{}, {}] }), relay, site);
    const generatorDriver = new PlantDriver(1, config('demo-generator'), generator, site);
    expect(await relayDriver.execute({ kind: 'relays', channels: ['on', 'off'] })).toBe(true);
    expect(await relayDriver.execute({ kind: 'generator', run: true })).toBe(false);
    expect(await generatorDriver.execute({ kind: 'generator', run: true })).toBe(true);
    site.step(1);
    expect(relay.channels).toEqual(['on', 'off']);
    expect(generator.status).toBe('running');
    expect(site.meter.activePower).toBeCloseTo(1000 - 20_000, 6);
  });

  it('an EV driver reports every charge point', async () => {
    const site = new Site({ seed: 7, start: noon });
    const ev = site.add(new EvCharger({ pointCount: 8, arrivalsPerHour: 0, powerResponseMs: 0 }));
    ev.arrive(2, { energyWanted: 10_000, phases: 3, vehicleCurrent: 16 }, site.now);
    site.step(1);
    const driver = new PlantDriver(0, config('demo-ev', { pointCount: 8 }), ev, site);
    await driver.poll();
    const report = driver.buildReport(new Date(site.now), undefined, false);
    expect(validateReport(report)).toMatchObject({ ok: true });
    expect(report).toMatchObject({ type: 'evPower', observations: { activePower: -3 * 230 * 16 } });
    const points = report?.type === 'evPower' ? report.observations.points : undefined;
    expect(points?.length).toBe(8);
    expect(points?.[2]).toEqual({
      point: 2,
      status: 'charging',
      activePower: -11_040,
      phaseCurrent: { l1: 16, l2: 16, l3: 16 },
      sessionEnergy: 11_040 / 3600,
      vehicleStateOfCharge: 30 + (11_040 / 3600 / 60_000) * 100,
    });
  });
});
