import { assetSchema, type AssetConfig } from '../../../contracts/device/assets';
import { validateReport, type SolarPowerReport } from '../../../contracts/hub/reports';
import { ModbusLinkPool } from '../../modbus/link-pool';
import { startRegisterServer, type RegisterServer } from '../../../test-support/modbus-peers/register-server';
import type { DriverContext } from '../driver';
import { createDriver } from '../index';
import { createSunspecDriver, SunspecDriver } from './driver';
import {
  controlsPoints,
  derCapacityPoints,
  derControlsPoints,
  derMeasurementPoints,
  floatInverterPoints,
  integerInverterPoints,
  nameplatePoints,
} from './models';
import { commonData, dataAddress, modelData, sunspecChain, type TestModel } from './test-maps';
import { describeWithPeers } from '../../../test-support/services';

const at = new Date('2026-11-22T05:30:00.000Z');
const zero = { success: 0, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };
const nanRegisters = [0x7fc0, 0x0000];

/** A three-phase 10 kW inverter: common, 103 (integers), nameplate 120, controls 123, at 40000. */
const series100: TestModel[] = [
  { id: 1, data: commonData({ manufacturer: 'Fronius', model: 'Symo 10.0-3-M', version: '3.14.1-2', serialNumber: '30123456' }) },
  {
    id: 103,
    data: modelData(50, integerInverterPoints, {
      A: 1452,
      AphA: 484,
      AphB: 485,
      AphC: 483,
      A_SF: -2,
      PPVphAB: 4001,
      PPVphBC: 3998,
      PPVphCA: 4003,
      PhVphA: 2311,
      PhVphB: 2305,
      PhVphC: 2309,
      V_SF: -1,
      W: 6543,
      W_SF: 0,
      Hz: 5001,
      Hz_SF: -2,
      VA: 6600,
      VA_SF: 0,
      VAr: -850,
      VAr_SF: 0,
      PF: 991,
      PF_SF: -1,
      WH: 12345678,
      WH_SF: 1,
      DCA: 1702,
      DCA_SF: -2,
      DCV: 4012,
      DCV_SF: -1,
      DCW: 6830,
      DCW_SF: 0,
      St: 4,
    }),
  },
  { id: 120, data: modelData(26, nameplatePoints, { WRtg: 10000, WRtg_SF: 0 }) },
  { id: 123, data: modelData(24, controlsPoints, { WMaxLimPct: 10000, WMaxLim_Ena: 0, WMaxLimPct_SF: -2 }) },
];

/** A 48 kW DER: common, 701, 702, 704, at 40000; limited to 80 % and throttled. */
const series700: TestModel[] = [
  { id: 1, data: commonData({ manufacturer: 'SunSpec DER', model: 'DER-50', version: '1.0.7', serialNumber: 'D700-0042', options: 'grid' }) },
  {
    id: 701,
    data: modelData(153, derMeasurementPoints, {
      InvSt: 5,
      W: 4567,
      VA: 4600,
      Var: -300,
      PF: 98,
      A: 661,
      Hz: 50000,
      TotWhInj: 987654321,
      AL1: 2204,
      AL2: 2205,
      AL3: 2203,
      VL1: 2301,
      VL2: 2302,
      VL3: 2299,
      VL1L2: 3985,
      VL2L3: 3987,
      VL3L1: 3986,
      WL1: 1522,
      WL2: 1523,
      WL3: 1522,
      A_SF: -1,
      V_SF: -1,
      Hz_SF: -3,
      W_SF: 1,
      PF_SF: -2,
      VA_SF: 1,
      Var_SF: 1,
      TotWh_SF: 0,
    }),
  },
  { id: 702, data: modelData(48, derCapacityPoints, { WMaxRtg: 5000, WMax: 4800, W_SF: 1 }) },
  { id: 704, data: modelData(69, derControlsPoints, { WMaxLimPctEna: 1, WMaxLimPct: 800, WMaxLim_SF: -1 }) },
];

/** A float inverter (113) without controls, its chain at 0; frequency not implemented (NaN). */
const floatSeries: TestModel[] = [
  { id: 1, data: commonData({ manufacturer: 'Acme', model: 'F-5', version: '2', serialNumber: 'F5-1' }) },
  { id: 113, data: modelData(60, floatInverterPoints, { W: 3210.5, PF: -97.5, PhVphA: 230.25, St: 2 }) },
];
floatSeries[1]?.data.splice(floatInverterPoints.Hz.offset, 2, ...nanRegisters);

describeWithPeers(['pymodbus'], __filename)('SunSpec driver against pymodbus', () => {
  let peer: RegisterServer;
  let pool: ModbusLinkPool;
  const logged: string[] = [];
  const context = (): DriverContext => ({ links: pool, log: (_level, message) => logged.push(message) });
  const config = (type: string, slaveId: number, extra: Record<string, unknown> = {}): AssetConfig =>
    assetSchema.validateSync({ type, communication: peer.connection, slaveId, ...extra }) as AssetConfig;
  const driverOf = (type: string, slaveId: number, extra: Record<string, unknown> = {}): SunspecDriver => {
    const driver = createSunspecDriver(0, config(type, slaveId, extra), context(), () => at.getTime());
    if (driver === null) {
      throw new Error(`no driver for ${type}`);
    }
    return driver;
  };
  const holding = (slaveId: number, address: number, length: number): Promise<number[]> =>
    pool.unit(peer.connection, slaveId, { timeoutMs: 1000 }).readHoldingRegisters(address, length);

  beforeAll(async () => {
    peer = await startRegisterServer({
      units: {
        '1': { holding: sunspecChain(40000, series100) },
        '2': { holding: sunspecChain(40000, series700) },
        '3': { holding: sunspecChain(0, floatSeries) },
        '4': { holding: sunspecChain(50000, series100) },
        '5': { holding: { '40000': [1, 2, 3, 4] } },
        // A copy of unit 1 for the readOnly test, so writes elsewhere do not change what it reads.
        '6': { holding: sunspecChain(40000, series100) },
      },
    });
  });
  afterAll(async () => {
    await peer.stop();
  });
  beforeEach(() => {
    pool = new ModbusLinkPool();
  });
  afterEach(async () => {
    await pool.close();
  });

  it('finds a series-100 chain, reads it with scale factors in one request a poll, and reports solarPower', async () => {
    const driver = driverOf('sunspec-series100', 1);
    const state = await driver.poll();
    expect(driver.models.map((model) => model.id)).toEqual([1, 103, 120, 123]);
    expect(state).toEqual({
      readable: true,
      at: at.getTime(),
      activePower: 6543,
      reactivePower: -850,
      phaseCurrent: { l1: 4.84, l2: 4.85, l3: 4.83 },
      availablePower: 6543,
      controllableRange: { min: 0, max: 10000 },
      confirmedSetpoint: null,
    });
    // Discovery: the marker, four model headers and the end, the common model; then one poll request.
    expect(driver.statistics).toEqual({ ...zero, success: 8 });
    await driver.poll();
    expect(driver.statistics).toEqual({ ...zero, success: 9 });
    const setpoints = { desired: { cloud: 8000 }, effective: 8000, confirmed: null };
    const report = driver.buildReport(at, setpoints, false) as SolarPowerReport;
    expect(report).toEqual({
      type: 'solarPower',
      at: '2026-11-22T05:30:00.000Z',
      asset: 0,
      observations: {
        activePower: 6543,
        reactivePower: -850,
        availablePower: 6543,
        phaseCurrent: { l1: 4.84, l2: 4.85, l3: 4.83 },
        apparentPower: 6600,
        powerFactor: 0.991,
        frequency: 50.01,
        phaseVoltage: { l1: 231.1, l2: 230.5, l3: 230.9 },
        lineVoltage: { l12: 400.1, l23: 399.8, l31: 400.3 },
        activePowerLimitPercentage: 100,
        energyProduced: 123456780,
        dcPower: 6830,
        dcVoltage: 401.2,
        dcCurrent: 17.02,
        setpoints: { desired: { cloud: 8000 }, effective: 8000, confirmed: null },
        connectionStatistics: { ...zero, success: 9 },
      },
    });
    expect(validateReport(report)).toEqual({ ok: true, report });
    expect(driver.statistics).toEqual(zero);
    expect(driver.buildReport(at, setpoints, true)).toEqual({
      type: 'solarPower.flash',
      at: '2026-11-22T05:30:00.000Z',
      asset: 0,
      observations: { activePower: 6543, reactivePower: -850, setpoints: { desired: { cloud: 8000 }, effective: 8000, confirmed: null } },
    });
  });

  it('gives the common model as metadata', async () => {
    const driver = driverOf('sunspec-series100', 1);
    expect(await driver.metadata()).toEqual({
      manufacturer: 'Fronius',
      model: 'Symo 10.0-3-M',
      serialNumber: '30123456',
      firmwareVersion: '3.14.1-2',
      options: null,
      sunspecModels: '1,103,120,123',
    });
    await driver.poll();
    expect(await driver.metadata()).toMatchObject({ manufacturer: 'Fronius', nominalActivePower: 10000 });
  });

  it('writes a setpoint as WMaxLimPct of model 123 and enables it; null disables it', async () => {
    const driver = driverOf('sunspec-series100', 1);
    await driver.poll();
    const controls = dataAddress(40000, series100, 123);
    expect(await driver.writeSetpoint(2500)).toBe(true);
    expect(await holding(1, controls + controlsPoints.WMaxLimPct.offset, 1)).toEqual([2500]);
    expect(await holding(1, controls + controlsPoints.WMaxLim_Ena.offset, 1)).toEqual([1]);
    const state = await driver.poll();
    expect(state.confirmedSetpoint).toBe(2500);
    expect(driver.buildReport(at, undefined, false)).toMatchObject({ observations: { activePowerLimitPercentage: 25 } });
    // Above the inverter's maximum: clamped to 100 %, still a limit in force.
    expect(await driver.writeSetpoint(25000)).toBe(true);
    expect(await holding(1, controls + controlsPoints.WMaxLimPct.offset, 1)).toEqual([10000]);
    expect((await driver.poll()).confirmedSetpoint).toBe(10000);
    expect(await driver.writeSetpoint(null)).toBe(true);
    expect(await holding(1, controls + controlsPoints.WMaxLim_Ena.offset, 1)).toEqual([0]);
    expect((await driver.poll()).confirmedSetpoint).toBeNull();
  });

  it('never writes a readOnly asset', async () => {
    const driver = driverOf('sunspec-series100', 6, { readOnly: true });
    await driver.poll();
    const before = driver.statistics.success;
    const controls = dataAddress(40000, series100, 123);
    expect(await driver.writeSetpoint(2500)).toBe(false);
    expect(await driver.writeSetpoint(null)).toBe(false);
    expect(driver.statistics.success).toBe(before);
    expect(await holding(6, controls, 24)).toEqual(series100[3]?.data);
  });

  it('reads a series-700 chain (701, 702, 704) and writes the limit and its enable in one request', async () => {
    const driver = driverOf('sunspec-series700', 2);
    const state = await driver.poll();
    expect(driver.models.map((model) => model.id)).toEqual([1, 701, 702, 704]);
    expect(state).toEqual({
      readable: true,
      at: at.getTime(),
      activePower: 45670,
      reactivePower: -3000,
      phaseCurrent: { l1: 220.4, l2: 220.5, l3: 220.3 },
      availablePower: null,
      controllableRange: { min: 0, max: 48000 },
      confirmedSetpoint: 38400,
    });
    const report = driver.buildReport(at, undefined, false);
    expect(report).toEqual({
      type: 'solarPower',
      at: '2026-11-22T05:30:00.000Z',
      asset: 0,
      observations: {
        activePower: 45670,
        reactivePower: -3000,
        availablePower: null,
        phaseCurrent: { l1: 220.4, l2: 220.5, l3: 220.3 },
        apparentPower: 46000,
        powerFactor: 0.98,
        frequency: 50,
        phaseVoltage: { l1: 230.1, l2: 230.2, l3: 229.9 },
        lineVoltage: { l12: 398.5, l23: 398.7, l31: 398.6 },
        phaseActivePower: { l1: 15220, l2: 15230, l3: 15220 },
        activePowerLimitPercentage: 80,
        energyProduced: 987654321,
        // Discovery: the marker, four headers and the end, the common model; the poll: 701 (153 registers) and the rest in three requests.
        connectionStatistics: { ...zero, success: 10 },
      },
    });
    expect(validateReport(report).ok).toBe(true);
    const before = driver.statistics.success;
    expect(await driver.writeSetpoint(12000)).toBe(true);
    expect(driver.statistics.success - before).toBe(1);
    const controls = dataAddress(40000, series700, 704);
    expect(await holding(2, controls + derControlsPoints.WMaxLimPctEna.offset, 2)).toEqual([1, 250]);
    expect((await driver.poll()).confirmedSetpoint).toBe(12000);
    expect(await driver.metadata()).toEqual({
      manufacturer: 'SunSpec DER',
      model: 'DER-50',
      serialNumber: 'D700-0042',
      firmwareVersion: '1.0.7',
      options: 'grid',
      sunspecModels: '1,701,702,704',
      nominalActivePower: 48000,
    });
  });

  it('finds a chain at 0 after 40000 is refused, reads float models, and takes no setpoint without controls', async () => {
    const driver = driverOf('sunspec-series100', 3, { nominalActivePower: 5000 });
    const state = await driver.poll();
    expect(driver.models.map((model) => model.id)).toEqual([1, 113]);
    expect(state).toEqual({
      readable: true,
      at: at.getTime(),
      activePower: 3210.5,
      reactivePower: 0,
      phaseCurrent: { l1: 0, l2: 0, l3: 0 },
      availablePower: null,
    });
    expect(driver.statistics.responseError).toBe(1);
    expect(driver.buildReport(at, undefined, false)).toMatchObject({ observations: { frequency: null, powerFactor: -0.975, phaseVoltage: { l1: 230.25 } } });
    expect(await driver.writeSetpoint(1000)).toBe(false);
  });

  it('finds a chain at 50000', async () => {
    const driver = driverOf('sunspec-series100', 4);
    expect((await driver.poll()).activePower).toBe(6543);
    expect(driver.models.map((model) => model.address)).toEqual([50002, 50070, 50122, 50150]);
  });

  it('is unreadable without a SunSpec map', async () => {
    const driver = driverOf('sunspec-series100', 5);
    logged.length = 0;
    expect((await driver.poll()).readable).toBe(false);
    expect(await driver.metadata()).toBeNull();
    expect(driver.buildReport(at, undefined, false)).toEqual({
      type: 'solarPower',
      at: '2026-11-22T05:30:00.000Z',
      asset: 0,
      observations: {
        activePower: null,
        reactivePower: null,
        availablePower: null,
        phaseCurrent: { l1: null, l2: null, l3: null },
        apparentPower: null,
        powerFactor: null,
        frequency: null,
        phaseVoltage: { l1: null, l2: null, l3: null },
        lineVoltage: { l12: null, l23: null, l31: null },
        activePowerLimitPercentage: null,
        energyProduced: null,
        dcPower: null,
        dcVoltage: null,
        dcCurrent: null,
        // 40000 holds no marker; 0 and 50000 hold nothing (twice: the poll and metadata).
        connectionStatistics: { ...zero, success: 2, responseError: 4 },
      },
    });
    expect(logged).toEqual([]);
  });

  it('is unreadable when a series-700 asset has only series-100 models', async () => {
    const driver = driverOf('sunspec-series700', 1);
    expect((await driver.poll()).readable).toBe(false);
  });

  it('makes no driver for other types, and is the driver createDriver makes for both series', () => {
    expect(createSunspecDriver(0, config('growatt-inverter', 1), context())).toBeNull();
    expect(createDriver(0, config('sunspec-series100', 1), context())).toBeInstanceOf(SunspecDriver);
    expect(createDriver(0, config('sunspec-series700', 1), context())).toBeInstanceOf(SunspecDriver);
  });
});
