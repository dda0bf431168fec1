import { assetSchema, type AssetConfig } from '../../../contracts/device/assets';
import { validateReport, type DeviceReport } from '../../../contracts/hub/reports';
import { ModbusLinkPool } from '../../modbus/link-pool';
import { startModbusSimulator, type ModbusSimulator } from '../../simulators/modbus-simulator';
import { Battery, EvCharger, Generator, HeatStorage, Load, Relay, Site, SolarPlant, WindTurbine } from '../../simulators/plant';
import type { AssetDriver, DriverContext } from '../driver';
import { createDriver } from '../index';
import { demoAssetTypes, type DemoAssetType } from './register-maps';

const noon = Date.parse('2026-06-21T11:00:00Z');
const slaveIds: Record<DemoAssetType, number> = {
  'demo-solar': 1,
  'demo-wind': 2,
  'demo-battery': 3,
  'demo-meter': 4,
  'demo-ev': 5,
  'demo-generator': 6,
  'demo-heat-storage': 7,
  'demo-relay': 1,
};

function assetConfig(type: DemoAssetType, simulator: ModbusSimulator, extra: Record<string, unknown> = {}): AssetConfig {
  const relays = type === 'demo-relay' ? { relays: [{ name: 'pump' }, { name: 'heater' }, {}] } : {};
  return assetSchema.validateSync({ type, communication: simulator.connection(), slaveId: slaveIds[type], timeout: 300, ...relays, ...extra }) as AssetConfig;
}

function observations(report: DeviceReport | null): Record<string, unknown> {
  expect(report).not.toBeNull();
  const validation = validateReport(report);
  expect(validation).toEqual({ ok: true, report });
  return (report as { observations: Record<string, unknown> }).observations;
}

describe('demo drivers against the Modbus simulator', () => {
  const site = new Site({ seed: 3, start: noon, weather: { cloudsPerHour: 0 } });
  const load = site.add(new Load({ base: 4000, noise: 300 }));
  const solar = site.add(new SolarPlant({ nominalPower: 12_000, powerResponseMs: 0 }));
  const wind = site.add(new WindTurbine({ nominalPower: 50_000, powerResponseMs: 0 }));
  const battery = site.add(new Battery({ capacityWh: 20_000, stateOfCharge: 61.234, maxChargePower: 6000, maxDischargePower: 5000, powerResponseMs: 0 }));
  const ev = site.add(new EvCharger({ pointCount: 8, arrivalsPerHour: 0, powerResponseMs: 0 }));
  const generator = site.add(new Generator({ nominalPower: 30_000, startDelayS: 0, powerResponseMs: 0 }));
  const heat = site.add(new HeatStorage({ heaterPower: 9000, capacityWh: 30_000, stateOfCharge: 40, powerResponseMs: 0 }));
  const relay = site.add(new Relay({ channels: 3, channelLoads: [500, 1500, 0] }));
  const targets = {
    'demo-solar': solar,
    'demo-wind': wind,
    'demo-battery': battery,
    'demo-meter': site.meter,
    'demo-ev': ev,
    'demo-generator': generator,
    'demo-heat-storage': heat,
    'demo-relay': relay,
  };
  const log: DriverContext['log'] = () => undefined;
  let main: ModbusSimulator;
  let side: ModbusSimulator;
  let pool: ModbusLinkPool;
  let context: DriverContext;

  function driverFor(type: DemoAssetType, extra: Record<string, unknown> = {}): AssetDriver {
    const simulator = type === 'demo-relay' ? side : main;
    const driver = createDriver(0, assetConfig(type, simulator, extra), context);
    if (driver === null) {
      throw new Error(`no driver for ${type}`);
    }
    return driver;
  }

  beforeAll(async () => {
    ev.arrive(0, { energyWanted: 30_000, phases: 3, vehicleCurrent: 16, vehicleStateOfCharge: 42.5 }, site.now);
    ev.arrive(5, { energyWanted: 30_000, phases: 1, vehicleCurrent: 32 }, site.now);
    site.advance(30, 0.5);
    const mainTypes = demoAssetTypes.filter((type) => type !== 'demo-relay');
    [main, side] = await Promise.all([
      startModbusSimulator(site, { units: mainTypes.map((type) => ({ slaveId: slaveIds[type], type, target: targets[type] })) }),
      startModbusSimulator(site, { units: [{ slaveId: 1, type: 'demo-relay', target: relay }] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([main.close(), side.close()]);
  });
  beforeEach(() => {
    pool = new ModbusLinkPool();
    context = { links: pool, log };
  });
  afterEach(async () => {
    await pool.close();
  });

  it('every demo type has a driver and other types have none', () => {
    for (const type of demoAssetTypes) {
      expect(driverFor(type)).not.toBeNull();
    }
    const sunspec = assetSchema.validateSync({ type: 'growatt-inverter', communication: main.connection() }) as AssetConfig;
    expect(createDriver(0, sunspec, context)).toBeNull();
  });

  it('a solar driver reads what the plant gives, in one request', async () => {
    const driver = driverFor('demo-solar');
    const readsBefore = main.reads(slaveIds['demo-solar']);
    const state = await driver.poll();
    expect(main.reads(slaveIds['demo-solar']) - readsBefore).toBe(1);
    expect(state).toEqual({
      readable: true,
      at: state.at,
      activePower: Math.round(solar.activePower),
      availablePower: Math.round(solar.availablePower),
      controllableRange: { min: 0, max: Math.round(solar.availablePower) },
      confirmedSetpoint: null,
    });
    expect(solar.activePower).toBeGreaterThan(1000);
    expect(driver.statistics.success).toBe(1);
    const report = observations(driver.buildReport(new Date(noon), undefined, false));
    expect(report).toEqual({
      activePower: Math.round(solar.activePower),
      availablePower: Math.round(solar.availablePower),
      energyProduced: Math.round(solar.energyProduced),
      connectionStatistics: { success: 1, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 },
    });
    // The counters restart after a report.
    expect(driver.statistics.success).toBe(0);
    const flash = observations(driver.buildReport(new Date(noon), { confirmed: null, desired: { activeControl: 5000 }, effective: 5000 }, true));
    // The solar plant confirms no setpoint (none written), so confirmed is the driver's null.
    expect(flash).toEqual({ activePower: Math.round(solar.activePower), setpoints: { confirmed: null, desired: { activeControl: 5000 }, effective: 5000 } });
  });

  it('a wind driver reads the turbine with wind speed and rotor speed at 0.01 resolution', async () => {
    const driver = driverFor('demo-wind');
    await driver.poll();
    const report = observations(driver.buildReport(new Date(noon), undefined, false));
    expect(report.activePower).toBe(Math.round(wind.activePower));
    expect(report.windSpeed).toBeCloseTo(wind.windSpeed, 2);
    expect(report.rotorSpeed).toBeCloseTo(wind.rotorSpeed, 2);
    expect(report.converterStatus).toBe(wind.converterStatus);
    const flash = observations(driver.buildReport(new Date(noon), undefined, true));
    expect(flash).toEqual({ activePower: Math.round(wind.activePower), windSpeed: report.windSpeed });
  });

  it('a battery driver reads the battery, and a setpoint written moves it, clamped to its range', async () => {
    const driver = driverFor('demo-battery');
    expect(await driver.writeSetpoint(2000)).toBe(false);
    const state = await driver.poll();
    expect(state.stateOfCharge).toBeCloseTo(battery.stateOfCharge, 2);
    expect(state.controllableRange).toEqual({ min: -6000, max: 5000 });
    expect(await driver.writeSetpoint(-9000)).toBe(true);
    expect(battery.setpoint).toBe(-6000);
    site.step(1);
    expect(battery.activePower).toBe(-6000);
    await driver.poll();
    expect(driver.state.activePower).toBe(-6000);
    expect(driver.state.confirmedSetpoint).toBe(-6000);
    const report = observations(driver.buildReport(new Date(noon), { confirmed: null, desired: { cloud: -9000 }, effective: -6000 }, false));
    expect(report).toMatchObject({
      activePower: -6000,
      status: 'on',
      maxChargePower: 6000,
      maxDischargePower: 5000,
      setpoints: { confirmed: -6000, desired: { cloud: -9000 }, effective: -6000 },
      connectionStatistics: { success: 3 },
    });
    expect(await driver.writeSetpoint(null)).toBe(true);
    expect(battery.setpoint).toBeNull();
    site.step(1);
  });

  it('a demo battery takes demoBattery parameters and reports each raised and cleared code once as an alarm; other types take none', async () => {
    const driver = driverFor('demo-battery');
    const at = new Date(noon);
    const alarms = () => (driver.drainAlarms?.(at) ?? []).map((report) => [observations(report), (report as { asset?: number }).asset]);
    expect(alarms()).toEqual([]);
    expect(await driver.applyParameters?.({ type: 'demoBattery', errors: ['E12', 'E7'], warnings: ['W3', 'E7'] })).toBe(true);
    expect(alarms()).toEqual([
      [{ code: 'W3', level: 'warning', active: true, description: 'Demo battery warning W3' }, 0],
      [{ code: 'E7', level: 'fault', active: true, description: 'Demo battery error E7' }, 0],
      [{ code: 'E12', level: 'fault', active: true, description: 'Demo battery error E12' }, 0],
    ]);
    expect(alarms()).toEqual([]);
    // The same codes again change nothing; E12 cleared and W3 turned into an error are reported, once.
    expect(await driver.applyParameters?.({ type: 'demoBattery', errors: ['E12', 'E7'], warnings: ['W3'] })).toBe(true);
    expect(alarms()).toEqual([]);
    expect(await driver.applyParameters?.({ type: 'demoBattery', errors: ['E7', 'W3'], warnings: [] })).toBe(true);
    expect(alarms()).toEqual([
      [{ code: 'E12', level: 'fault', active: false, description: 'Demo battery error E12 cleared' }, 0],
      [{ code: 'W3', level: 'fault', active: true, description: 'Demo battery error W3' }, 0],
    ]);
    expect(await driver.applyParameters?.({ type: 'demoBattery', errors: [], warnings: [] })).toBe(true);
    expect(alarms()).toEqual([
      [{ code: 'W3', level: 'fault', active: false, description: 'Demo battery error W3 cleared' }, 0],
      [{ code: 'E7', level: 'fault', active: false, description: 'Demo battery error E7 cleared' }, 0],
    ]);
    expect(await driver.applyParameters?.({ type: 'sagerFurnace', schedule: [] })).toBe(false);
    expect(await driverFor('demo-meter').applyParameters?.({ type: 'demoBattery', errors: ['E1'], warnings: [] })).toBe(false);
    expect(driverFor('demo-meter').drainAlarms?.(at)).toEqual([]);
  });

  it('a meter driver reads the grid meter: power, phases, energy', async () => {
    const driver = driverFor('demo-meter', { enableFlashReport: { additionalProperties: ['phaseCurrent'] } });
    await driver.poll();
    const meter = site.meter;
    const report = observations(driver.buildReport(new Date(noon), undefined, false));
    expect(report.activePower).toBe(Math.round(meter.activePower));
    expect(report.phaseCurrent).toEqual({
      l1: Math.round(meter.phaseCurrent[0] * 1000) / 1000,
      l2: Math.round(meter.phaseCurrent[1] * 1000) / 1000,
      l3: Math.round(meter.phaseCurrent[2] * 1000) / 1000,
    });
    expect(report.phaseVoltage).toEqual({ l1: 230, l2: 230, l3: 230 });
    expect(report.frequency).toBe(50);
    expect(report.energyImport).toBe(Math.round(meter.energyImport));
    expect(report.energyExport).toBe(Math.round(meter.energyExport));
    const flash = observations(driver.buildReport(new Date(noon), undefined, true));
    expect(Object.keys(flash).sort()).toEqual(['activePower', 'phaseCurrent']);
    expect(load.consumption).toBeGreaterThan(0);
  });

  it('an EV driver reads its 8 charge points, and its limit holds the charger', async () => {
    const driver = driverFor('demo-ev');
    const readsBefore = main.reads(slaveIds['demo-ev']);
    await driver.poll();
    // 8 points and the charger's own registers: 116 registers, one request.
    expect(main.reads(slaveIds['demo-ev']) - readsBefore).toBe(1);
    const report = observations(driver.buildReport(new Date(noon), undefined, false));
    const points = report.points as { point: number; status: string; activePower: number; vehicleStateOfCharge: number | null }[];
    expect(points.map((point) => point.status)).toEqual(['charging', 'available', 'available', 'available', 'available', 'charging', 'available', 'available']);
    expect(points[0]?.activePower).toBe(-11_040);
    expect(points[5]?.activePower).toBe(-7360);
    expect(points[0]?.vehicleStateOfCharge).toBeCloseTo(ev.points[0]?.vehicleStateOfCharge ?? 0, 2);
    expect(points[1]?.vehicleStateOfCharge).toBeNull();
    expect(report.activePower).toBe(-18_400);
    expect(await driver.writeSetpoint(-10_000)).toBe(true);
    expect(ev.setpoint).toBe(-10_000);
    site.step(1);
    expect(ev.activePower).toBeCloseTo(-10_000, 6);
    await driver.poll();
    expect(driver.state.activePower).toBe(-10_000);
    expect(await driver.writeSetpoint(null)).toBe(true);
    site.step(1);
  });

  it('a generator driver starts the generator through execute and sets its power', async () => {
    const driver = driverFor('demo-generator');
    await driver.poll();
    expect(driver.state.activePower).toBe(0);
    expect(await driver.execute({ kind: 'generator', run: true })).toBe(true);
    expect(await driver.execute({ kind: 'relays', channels: ['on'] })).toBe(false);
    expect(await driver.writeSetpoint(12_345)).toBe(true);
    site.step(1);
    expect(generator.status).toBe('running');
    expect(generator.activePower).toBe(12_345);
    await driver.poll();
    const report = observations(driver.buildReport(new Date(noon), undefined, false));
    expect(report).toMatchObject({ activePower: 12_345, status: 'running', availablePower: 30_000 });
    expect(await driver.execute({ kind: 'generator', run: false })).toBe(true);
    site.step(1);
    expect(generator.status).toBe('standby');
  });

  it('a heat storage driver reads temperature and charge and sets the heater', async () => {
    const driver = driverFor('demo-heat-storage');
    await driver.poll();
    const report = observations(driver.buildReport(new Date(noon), undefined, false));
    expect(report.temperature).toBeCloseTo(heat.temperature, 1);
    expect(report.stateOfCharge).toBeCloseTo(heat.stateOfCharge, 2);
    expect(await driver.writeSetpoint(-4000)).toBe(true);
    site.step(1);
    expect(heat.activePower).toBe(-4000);
    expect(await driver.writeSetpoint(null)).toBe(true);
  });

  it('a relay driver switches its channels through execute', async () => {
    const driver = driverFor('demo-relay');
    expect(await driver.execute({ kind: 'relays', channels: ['on', 'off', 'on'] })).toBe(true);
    expect(relay.channels).toEqual(['on', 'off', 'on']);
    expect(await driver.writeSetpoint(100)).toBe(false);
    await driver.poll();
    expect(driver.state.relayChannels).toEqual(['on', 'off', 'on']);
    const report = observations(driver.buildReport(new Date(noon), undefined, false));
    expect(report.channels).toEqual(['on', 'off', 'on']);
    expect(await driver.execute({ kind: 'relays', channels: ['off', 'off', 'off'] })).toBe(true);
  });

  it('readOnly assets are never written: the simulator counts no write', async () => {
    const before = Object.fromEntries(demoAssetTypes.map((type) => [type, (type === 'demo-relay' ? side : main).writes(slaveIds[type])]));
    for (const type of demoAssetTypes) {
      const driver = driverFor(type, { readOnly: true });
      await driver.poll();
      expect(driver.state.readable).toBe(true);
      expect(await driver.writeSetpoint(1000)).toBe(false);
      expect(await driver.writeSetpoint(null)).toBe(false);
      expect(await driver.execute({ kind: 'relays', channels: ['on', 'on', 'on'] })).toBe(false);
      expect(await driver.execute({ kind: 'generator', run: true })).toBe(false);
      observations(driver.buildReport(new Date(noon), undefined, false));
    }
    for (const type of demoAssetTypes) {
      expect([type, (type === 'demo-relay' ? side : main).writes(slaveIds[type])]).toEqual([type, before[type]]);
    }
    expect(relay.channels).toEqual(['off', 'off', 'off']);
  });

  it('the identity registers give the metadata', async () => {
    expect(await driverFor('demo-battery').metadata()).toEqual({
      manufacturer: 'Gridport',
      model: 'demo-battery',
      serialNumber: 'SIM-3',
      firmwareVersion: null,
    });
  });

  it('a stopped simulator gives readable false and counted failures while an asset on another simulator keeps reading', async () => {
    const stopped = await startModbusSimulator(site, { units: [{ slaveId: 9, type: 'demo-relay', target: relay }] });
    const config = assetSchema.validateSync({
      type: 'demo-relay',
      communication: stopped.connection(),
      slaveId: 9,
      timeout: 300,
      relays: [{}, {}, {}],
    }) as AssetConfig;
    await stopped.close();
    const relayDriver = createDriver(1, config, context);
    const meterDriver = driverFor('demo-meter');
    const [relayState, meterState] = await Promise.all([relayDriver?.poll(), meterDriver.poll()]);
    expect(relayState).toEqual({ readable: false, at: relayState?.at, relayChannels: [null, null, null] });
    expect(meterState.readable).toBe(true);
    const report = observations(relayDriver?.buildReport(new Date(noon), undefined, false) ?? null);
    expect(report).toEqual({
      channels: [null, null, null],
      connectionStatistics: { success: 0, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 1, timeout: 0, responseError: 0 },
    });
  });

  it('a silent simulator gives readable false with timeouts and null values while another keeps reading', async () => {
    const relayDriver = driverFor('demo-relay');
    const meterDriver = driverFor('demo-meter');
    expect((await relayDriver.poll()).readable).toBe(true);
    side.silence(true);
    try {
      const [relayState, meterState] = await Promise.all([relayDriver.poll(), meterDriver.poll()]);
      expect(relayState).toEqual({ readable: false, at: relayState.at, relayChannels: [null, null, null] });
      expect(meterState.readable).toBe(true);
    } finally {
      side.silence(false);
    }
    const report = observations(relayDriver.buildReport(new Date(noon), undefined, false));
    // One attempt and one retry (the pool's default), each timed out.
    expect(report).toEqual({
      channels: [null, null, null],
      connectionStatistics: { success: 1, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 2, responseError: 0 },
    });
  });

  it('an unknown unit is answered with an exception, counted as a response error', async () => {
    const config = assetSchema.validateSync({ type: 'demo-meter', communication: main.connection(), slaveId: 77, timeout: 300 }) as AssetConfig;
    const driver = createDriver(0, config, context);
    const state = await driver?.poll();
    expect(state).toEqual({ readable: false, at: state?.at });
    expect(driver?.statistics).toMatchObject({ success: 0, responseError: 1 });
  });
});
