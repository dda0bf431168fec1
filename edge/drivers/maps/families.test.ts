import { assetSchema, type AssetConfig } from '../../../contracts/device/assets';
import { parseDeviceConfig } from '../../../contracts/device/config';
import { validateReport } from '../../../contracts/hub/reports';
import { ModbusLinkPool } from '../../modbus/link-pool';
import { startMapSimulator, type MapSimulator, type MapUnit } from '../../simulators/map-simulator';
import { createDriver } from '../index';
import { SunspecDriver } from '../sunspec/driver';
import type { AssetDriver } from '../driver';
import { MapDriver } from './driver';
import { builtInMap } from './registry';

const at = new Date('2026-11-28T05:00:00.000Z');
const zero = { success: 0, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };

/** One unit per family, each serving its documented map. */
const units: MapUnit[] = [
  {
    slaveId: 1,
    map: builtInMap('janitza'),
    values: {
      voltageL1: 231.5,
      voltageL2: 230.25,
      voltageL3: 229.75,
      voltageL1L2: 400.5,
      voltageL2L3: 399.25,
      voltageL3L1: 401,
      currentL1: 12.5,
      currentL2: 10.25,
      currentL3: 8,
      powerL1: 2800.5,
      powerL2: 2300,
      powerL3: 1800.25,
      powerSum: 6900.75,
      apparentPowerSum: 7100,
      reactivePowerSum: -850.5,
      frequency: 49.98,
      energyConsumed: 1234567,
      energyDelivered: 76543,
    },
  },
  {
    slaveId: 2,
    map: builtInMap('huawei-inverter'),
    values: {
      ratedPower: 50000,
      inputPower: 31000,
      phaseVoltageA: 231.2,
      phaseVoltageB: 230.1,
      phaseVoltageC: 229.8,
      phaseCurrentA: 43.125,
      phaseCurrentB: 43.5,
      phaseCurrentC: 42.75,
      activePower: 30000,
      reactivePower: -1200,
      powerFactor: 0.999,
      gridFrequency: 50.01,
      accumulatedYield: 12345670,
      modelName: 'SUN2000-50KTL-M3',
      serialNumber: 'HV2190012345',
    },
  },
  { slaveId: 3, map: builtInMap('huawei-ess'), values: { stateOfCapacity: 56.7, chargeDischargePower: -2500, totalCharge: 400000, totalDischarge: 350000 } },
  {
    slaveId: 4,
    map: builtInMap('sungrow-string-inverter'),
    values: {
      nominalPower: 110000,
      totalYield: 987654000,
      totalDcPower: 80500,
      totalActivePower: 78000,
      reactivePower: 300,
      gridFrequency: 50,
      phaseCurrentA: 112.5,
    },
  },
  {
    slaveId: 5,
    map: builtInMap('sma-sunny-island'),
    values: { activePower: -3000, stateOfCharge: 81, batteryCurrent: -62.5, batteryVoltage: 51.2, gridFrequency: 50.02, reactivePower: 0 },
  },
  {
    slaveId: 6,
    map: builtInMap('alfen-ev-ng9xx'),
    values: { currentL1: -16, currentL2: -15.5, currentL3: -16.25, realPowerSum: -11000, socketPower: -11000, energyDeliveredSum: 2500123.5, mode3State: 'C2' },
  },
  { slaveId: 7, map: builtInMap('waveshare-relay'), values: {} },
  { slaveId: 8, map: builtInMap('test-modbus-inverter'), values: { activePower: 4000, availablePower: 5200, energyProduced: 7777, nominalPower: 10000 } },
  {
    slaveId: 10,
    map: builtInMap('socomec'),
    values: {
      voltageL1: 230.12,
      voltageL2: 231.05,
      voltageL3: 229.99,
      frequency: 50.02,
      currentL1: 5.123,
      currentL2: 4.5,
      currentL3: 0.25,
      activePower: -2340,
      reactivePower: 120,
      apparentPower: 2400,
      activePowerL1: -1000,
      activePowerL2: -900,
      activePowerL3: -440,
      energyImported: 1234560,
      energyExported: 98760,
    },
  },
  {
    slaveId: 9,
    map: builtInMap('test-asset'),
    values: { activePower: -1500, currentL1: -2.17, currentL2: -2.2, currentL3: -2.15, frequency: 50.01, energyImport: 100, energyExport: 2000 },
  },
];

describe('register-map families against the map simulator', () => {
  let simulator: MapSimulator;
  let pool: ModbusLinkPool;
  const driverOf = (type: string, slaveId: number, extra: Record<string, unknown> = {}): AssetDriver => {
    const config = assetSchema.validateSync({ type, communication: simulator.connection(), slaveId, ...extra }) as AssetConfig;
    const driver = createDriver(0, config, { links: pool, log: () => undefined });
    if (driver === null) {
      throw new Error(`no driver for ${type}`);
    }
    return driver;
  };
  const reportOf = (driver: AssetDriver) => {
    const report = driver.buildReport(at, undefined, false);
    expect(validateReport(report)).toEqual({ ok: true, report });
    return report;
  };

  beforeAll(async () => {
    simulator = await startMapSimulator({ units });
  });
  afterAll(async () => {
    await simulator.close();
  });
  beforeEach(() => {
    pool = new ModbusLinkPool();
  });
  afterEach(async () => {
    await pool.close();
  });

  it('janitza: reads the UMG float readings in two requests (19000-19051, 19068-19077) and reports meterPower', async () => {
    const driver = driverOf('janitza', 1);
    expect(driver).toBeInstanceOf(MapDriver);
    expect(await driver.poll()).toEqual({
      readable: true,
      at: expect.any(Number),
      activePower: 6900.75,
      reactivePower: -850.5,
      phaseCurrent: { l1: 12.5, l2: 10.25, l3: 8 },
      frequency: 49.98,
    });
    expect(driver.statistics).toEqual({ ...zero, success: 2 });
    expect(reportOf(driver)).toEqual({
      type: 'meterPower',
      at: at.toISOString(),
      asset: 0,
      observations: {
        activePower: 6900.75,
        reactivePower: -850.5,
        apparentPower: 7100,
        frequency: 49.98,
        phaseVoltage: { l1: 231.5, l2: 230.25, l3: 229.75 },
        lineVoltage: { l12: 400.5, l23: 399.25, l31: 401 },
        phaseCurrent: { l1: 12.5, l2: 10.25, l3: 8 },
        phaseActivePower: { l1: 2800.5, l2: 2300, l3: 1800.25 },
        energyImport: 1234567,
        energyExport: 76543,
        connectionStatistics: { ...zero, success: 2 },
      },
    });
    expect(await driver.writeSetpoint(1000)).toBe(false);
  });

  it('janitza: invertCurrent turns powers and swaps the energies', async () => {
    const driver = driverOf('janitza', 1, { invertCurrent: true });
    await driver.poll();
    expect(driver.buildReport(at, undefined, false)).toMatchObject({
      observations: { activePower: -6900.75, phaseCurrent: { l1: -12.5 }, energyImport: 76543, energyExport: 1234567 },
    });
  });

  it('huawei-inverter: reads, writes a W setpoint to 40126, reads it back, and releases to the rated power', async () => {
    const driver = driverOf('huawei-inverter', 2);
    const state = await driver.poll();
    expect(state).toMatchObject({ activePower: 30000, reactivePower: -1200, controllableRange: { min: 0, max: 50000 }, confirmedSetpoint: 0 });
    expect(reportOf(driver)).toMatchObject({
      type: 'solarPower',
      observations: { dcPower: 31000, powerFactor: 0.999, frequency: 50.01, energyProduced: 12345670, phaseCurrent: { l1: 43.125, l2: 43.5, l3: 42.75 } },
    });
    expect(await driver.writeSetpoint(20000.4)).toBe(true);
    expect(simulator.value(2, 'ratedPower')).toBe(50000);
    expect((await driver.poll()).confirmedSetpoint).toBe(20000);
    expect(await driver.writeSetpoint(80000)).toBe(true);
    expect((await driver.poll()).confirmedSetpoint).toBe(50000);
    expect(await driver.writeSetpoint(null)).toBe(true);
    expect((await driver.poll()).confirmedSetpoint).toBe(50000);
    expect(await driver.metadata()).toEqual({ manufacturer: 'Huawei', model: 'SUN2000-50KTL-M3', serialNumber: 'HV2190012345' });
  });

  it('huawei-ess: reads in the battery convention (the LUNA2000 reports charging positive) and steers by forcible charge/discharge', async () => {
    const driver = driverOf('huawei-ess', 3, { nominalActivePower: 5000 });
    expect(simulator.register(3, 'holding', 37766)).toBe(2500);
    expect(await driver.poll()).toEqual({
      readable: true,
      at: expect.any(Number),
      activePower: -2500,
      stateOfCharge: 56.7,
      controllableRange: { min: -5000, max: 5000 },
      confirmedSetpoint: null,
    });
    expect(reportOf(driver)).toMatchObject({ observations: { energyCharged: 400000, energyDischarged: 350000 } });
    expect(await driver.writeSetpoint(-3000)).toBe(true);
    expect([47246, 47083, 47247, 47248, 47100].map((address) => simulator.register(3, 'holding', address))).toEqual([0, 1440, 0, 3000, 1]);
    expect(await driver.poll()).toMatchObject({ confirmedSetpoint: -3000 });
    expect(await driver.writeSetpoint(2000)).toBe(true);
    expect([47250, 47100].map((address) => simulator.register(3, 'holding', address))).toEqual([2000, 2]);
    expect(await driver.poll()).toMatchObject({ confirmedSetpoint: 2000 });
    expect(await driver.writeSetpoint(null)).toBe(true);
    expect(simulator.register(3, 'holding', 47100)).toBe(0);
    expect(await driver.poll()).toMatchObject({ confirmedSetpoint: null });
  });

  it('sungrow-string-inverter: reads word-swapped input registers and limits in 0.1 % with the switch', async () => {
    const driver = driverOf('sungrow-string-inverter', 4);
    expect(await driver.poll()).toMatchObject({ activePower: 78000, reactivePower: 300, controllableRange: { min: 0, max: 110000 }, confirmedSetpoint: null });
    expect(simulator.register(4, 'input', 5030)).toBe(78000 & 0xffff);
    expect(simulator.register(4, 'input', 5031)).toBe(78000 >>> 16);
    expect(reportOf(driver)).toMatchObject({ observations: { energyProduced: 987654000, dcPower: 80500, frequency: 50 } });
    expect(await driver.writeSetpoint(55000)).toBe(true);
    expect(simulator.register(4, 'holding', 5006)).toBe(0xaa);
    expect(simulator.register(4, 'holding', 5007)).toBe(500);
    expect(await driver.poll()).toMatchObject({ confirmedSetpoint: 55000 });
    expect(reportOf(driver)).toMatchObject({ observations: { activePowerLimitPercentage: 50 } });
    expect(await driver.writeSetpoint(null)).toBe(true);
    expect(simulator.register(4, 'holding', 5006)).toBe(0x55);
    expect(await driver.poll()).toMatchObject({ confirmedSetpoint: null });
  });

  it('sma-sunny-island: writes 802 and the W setpoint, reads it back, and releases with 803', async () => {
    const driver = driverOf('sma-sunny-island', 5, { nominalActivePower: 6000 });
    expect(await driver.poll()).toEqual({
      readable: true,
      at: expect.any(Number),
      activePower: -3000,
      reactivePower: 0,
      stateOfCharge: 81,
      frequency: 50.02,
      controllableRange: { min: -6000, max: 6000 },
      confirmedSetpoint: null,
    });
    expect(reportOf(driver)).toMatchObject({ observations: { dcCurrent: -62.5, dcVoltage: 51.2, frequency: 50.02 } });
    expect(await driver.writeSetpoint(-4500)).toBe(true);
    expect([simulator.register(5, 'holding', 40151), simulator.register(5, 'holding', 40152)]).toEqual([0, 802]);
    expect(await driver.poll()).toMatchObject({ confirmedSetpoint: -4500 });
    expect(await driver.writeSetpoint(9000)).toBe(true);
    expect(await driver.poll()).toMatchObject({ confirmedSetpoint: 6000 });
    expect(await driver.writeSetpoint(null)).toBe(true);
    expect(simulator.register(5, 'holding', 40152)).toBe(803);
    expect(await driver.poll()).toMatchObject({ confirmedSetpoint: null });
  });

  it('alfen-ev-ng9xx: reads the socket, maps the mode 3 state, and sets the max current from a W setpoint', async () => {
    const driver = driverOf('alfen-ev-ng9xx', 6, { nominalActivePower: 22080 });
    expect(await driver.poll()).toMatchObject({
      activePower: -11000,
      phaseCurrent: { l1: -16, l2: -15.5, l3: -16.25 },
      controllableRange: { min: -22080, max: 0 },
    });
    expect(reportOf(driver)).toMatchObject({
      type: 'evPower',
      observations: { energyCharged: 2500123.5, points: [{ point: 0, status: 'charging', activePower: -11000 }] },
    });
    expect(await driver.writeSetpoint(-11040)).toBe(true);
    // 11040 W on 3 phases at 230 V: 16 A, float32 0x41800000.
    expect([simulator.register(6, 'holding', 1210), simulator.register(6, 'holding', 1211)]).toEqual([0x4180, 0]);
    expect(await driver.poll()).toMatchObject({ confirmedSetpoint: -11040 });
    simulator.set(6, 'mode3State', 'B1');
    await driver.poll();
    expect(reportOf(driver)).toMatchObject({ observations: { points: [{ status: 'preparing' }] } });
    simulator.set(6, 'mode3State', 'X');
    await driver.poll();
    expect(reportOf(driver)).toMatchObject({ observations: { points: [{ status: 'unavailable' }] } });
  });

  it('waveshare-relay: reads the coils of the configured channels and switches them', async () => {
    const driver = driverOf('waveshare-relay', 7, { relays: [{}, {}, {}] });
    expect(await driver.poll()).toEqual({ readable: true, at: expect.any(Number), relayChannels: ['off', 'off', 'off'] });
    expect(await driver.execute({ kind: 'relays', channels: ['on', 'off', 'on'] })).toBe(true);
    expect(await driver.poll()).toMatchObject({ relayChannels: ['on', 'off', 'on'] });
    expect(reportOf(driver)).toEqual({
      type: 'relay',
      at: at.toISOString(),
      asset: 0,
      observations: { channels: ['on', 'off', 'on'], connectionStatistics: { ...zero, success: 3 } },
    });
  });

  it('test-modbus-inverter: a % limit with an enable register, read back', async () => {
    const driver = driverOf('test-modbus-inverter', 8);
    expect(await driver.poll()).toEqual({
      readable: true,
      at: expect.any(Number),
      activePower: 4000,
      availablePower: 5200,
      controllableRange: { min: 0, max: 10000 },
      confirmedSetpoint: null,
    });
    expect(await driver.writeSetpoint(2500)).toBe(true);
    expect(await driver.poll()).toMatchObject({ confirmedSetpoint: 2500 });
    expect(reportOf(driver)).toMatchObject({ observations: { activePowerLimitPercentage: 25, energyProduced: 7777 } });
  });

  it('socomec: reads the common table (kW/100, mA, V/100) and reports meterPower', async () => {
    const driver = driverOf('socomec', 10);
    expect(simulator.register(10, 'holding', 0xc569)).toBe(0x10000 - 234);
    expect(await driver.poll()).toEqual({
      readable: true,
      at: expect.any(Number),
      activePower: -2340,
      reactivePower: 120,
      phaseCurrent: { l1: 5.123, l2: 4.5, l3: 0.25 },
      frequency: 50.02,
    });
    expect(reportOf(driver)).toEqual({
      type: 'meterPower',
      at: at.toISOString(),
      asset: 0,
      observations: {
        activePower: -2340,
        reactivePower: 120,
        apparentPower: 2400,
        frequency: 50.02,
        phaseVoltage: { l1: 230.12, l2: 231.05, l3: 229.99 },
        phaseCurrent: { l1: 5.123, l2: 4.5, l3: 0.25 },
        phaseActivePower: { l1: -1000, l2: -900, l3: -440 },
        energyImport: 1234560,
        energyExport: 98760,
        connectionStatistics: { ...zero, success: 2 },
      },
    });
  });

  it('test-asset: a meter of input registers', async () => {
    const driver = driverOf('test-asset', 9);
    expect(await driver.poll()).toEqual({
      readable: true,
      at: expect.any(Number),
      activePower: -1500,
      phaseCurrent: { l1: -2.17, l2: -2.2, l3: -2.15 },
      frequency: 50.01,
    });
    expect(reportOf(driver)).toMatchObject({ observations: { frequency: 50.01, energyImport: 100, energyExport: 2000 } });
  });

  it('a readOnly asset is never written', async () => {
    const driver = driverOf('sma-sunny-island', 5, { nominalActivePower: 6000, readOnly: true });
    const writes = simulator.writes(5);
    await driver.poll();
    expect(await driver.writeSetpoint(1000)).toBe(false);
    expect(simulator.writes(5)).toBe(writes);
  });

  it('an asset that does not answer is unreadable, its report null throughout', async () => {
    const driver = driverOf('janitza', 42, { timeout: 100 });
    expect(await driver.poll()).toEqual({ readable: false, at: expect.any(Number) });
    expect(reportOf(driver)).toMatchObject({ observations: { activePower: null, phaseVoltage: { l1: null, l2: null, l3: null }, energyImport: null } });
  });

  it('a config with one asset of every map family passes the config schema, and every asset is read and reported', async () => {
    const families: [string, number, Record<string, unknown>][] = [
      ['janitza', 1, {}],
      ['huawei-inverter', 2, {}],
      ['huawei-ess', 3, { nominalActivePower: 5000 }],
      ['sungrow-string-inverter', 4, {}],
      ['sma-sunny-island', 5, { nominalActivePower: 6000 }],
      ['alfen-ev-ng9xx', 6, { nominalActivePower: 22080 }],
      ['waveshare-relay', 7, { relays: [{}, {}] }],
      ['test-modbus-inverter', 8, {}],
      ['test-asset', 9, {}],
      ['socomec', 10, {}],
    ];
    const config = parseDeviceConfig({
      network: { eth0: { type: 'dhcp' }, eth1: null },
      reportingIntervalInSec: 60,
      assets: families.map(([type, slaveId, extra]) => ({ type, identifier: type, communication: simulator.connection(), slaveId, ...extra })),
    });
    const drivers = config.assets.map((asset, index) => createDriver(index, asset, { links: pool, log: () => undefined }));
    expect(drivers.map((driver) => driver?.constructor.name)).toEqual(families.map(() => 'MapDriver'));
    for (const driver of drivers) {
      expect((await driver?.poll())?.readable).toBe(true);
      const report = driver?.buildReport(at, undefined, false);
      expect(validateReport(report)).toEqual({ ok: true, report });
    }
    expect(drivers.map((driver) => driver?.buildReport(at, undefined, false)?.type)).toEqual([
      'meterPower',
      'solarPower',
      'batteryPower',
      'solarPower',
      'batteryPower',
      'evPower',
      'relay',
      'solarPower',
      'meterPower',
      'meterPower',
    ]);
  });

  it('the SunSpec-speaking solar types are run by the SunSpec driver', () => {
    for (const type of ['fronius', 'sma-sunny-tripower', 'sma-inverter', 'solaredge-inverter']) {
      expect(driverOf(type, 1)).toBeInstanceOf(SunspecDriver);
    }
  });

  it('types still without a driver get none (the agent reports them unsupported)', () => {
    const config = assetSchema.validateSync({ type: 'growatt-inverter', communication: simulator.connection() }) as AssetConfig;
    expect(createDriver(0, config, { links: pool, log: () => undefined })).toBeNull();
  });
});
