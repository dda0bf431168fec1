import { assetSchema, type AssetConfig } from '../../../contracts/device/assets';
import { validateReport } from '../../../contracts/hub/reports';
import { encodeNumber } from '../../modbus/codec';
import { ModbusLinkPool } from '../../modbus/link-pool';
import { startRegisterServer, type RegisterServer } from '../../../test-support/modbus-peers/register-server';
import { createDriver } from '../index';
import { createEastronDriver, EastronDriver } from './driver';
import { describeWithPeers } from '../../../test-support/services';

const at = new Date('2026-11-22T05:45:00.000Z');
const zero = { success: 0, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };

/** An SDM630's input registers 0x0000-0x004F and 0x00C8-0x00CF: the floats given, 0 elsewhere (as the meter answers). */
function sdm630Map(values: Record<number, number>): Record<string, number[]> {
  const low = new Array<number>(0x50).fill(0);
  const high = new Array<number>(8).fill(0);
  for (const [address, value] of Object.entries(values)) {
    const registers = encodeNumber(value, 'float32');
    const start = Number(address);
    const target = start >= 0xc8 ? high : low;
    const offset = start >= 0xc8 ? start - 0xc8 : start;
    target.splice(offset, 2, ...registers);
  }
  return { '0': low, '200': high };
}

const readings = {
  0x00: 231.2,
  0x02: 230.8,
  0x04: 232.0,
  0x06: 10.5,
  0x08: 8.25,
  0x0a: 3.1,
  0x0c: 2300.5,
  0x0e: 1800,
  0x10: -650.25,
  0x34: 3450.25,
  0x38: 5000,
  0x3c: -1200.5,
  0x3e: 0.69,
  0x46: 50.02,
  0x48: 12345.67,
  0x4a: 2345.5,
  0xc8: 400.1,
  0xca: 399.5,
  0xcc: 401.2,
};

describeWithPeers(['pymodbus'], __filename)('Eastron SDM630 driver against pymodbus', () => {
  let peer: RegisterServer;
  let pool: ModbusLinkPool;
  const driverOf = (slaveId: number, extra: Record<string, unknown> = {}): EastronDriver => {
    const config = assetSchema.validateSync({ type: 'eastron', communication: peer.connection, slaveId, ...extra }) as AssetConfig;
    const driver = createEastronDriver(3, config, { links: pool, log: () => undefined }, () => at.getTime());
    if (driver === null) {
      throw new Error('no driver');
    }
    return driver;
  };

  beforeAll(async () => {
    peer = await startRegisterServer({
      units: { '1': { input: sdm630Map(readings), holding: { '64512': encodeNumber(21063412, 'uint32') } } },
      silent: [9],
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

  it('reads the SDM630 in two requests and reports meterPower, positive importing', async () => {
    const driver = driverOf(1);
    const state = await driver.poll();
    expect(state).toEqual({
      readable: true,
      at: at.getTime(),
      activePower: 3450.25,
      reactivePower: -1200.5,
      phaseCurrent: { l1: 10.5, l2: 8.25, l3: -3.1 },
      frequency: 50.02,
    });
    expect(driver.statistics).toEqual({ ...zero, success: 2 });
    const report = driver.buildReport(at, undefined, false);
    expect(report).toEqual({
      type: 'meterPower',
      at: '2026-11-22T05:45:00.000Z',
      asset: 3,
      observations: {
        activePower: 3450.25,
        reactivePower: -1200.5,
        apparentPower: 5000,
        powerFactor: 0.69,
        frequency: 50.02,
        phaseVoltage: { l1: 231.2, l2: 230.8, l3: 232 },
        lineVoltage: { l12: 400.1, l23: 399.5, l31: 401.2 },
        phaseCurrent: { l1: 10.5, l2: 8.25, l3: -3.1 },
        phaseActivePower: { l1: 2300.5, l2: 1800, l3: -650.25 },
        energyImport: 12345670,
        energyExport: 2345500,
        connectionStatistics: { ...zero, success: 2 },
      },
    });
    expect(validateReport(report).ok).toBe(true);
  });

  it('negates powers and currents and swaps the energies when invertCurrent is set', async () => {
    const driver = driverOf(1, { invertCurrent: true });
    await driver.poll();
    expect(driver.buildReport(at, undefined, false)).toMatchObject({
      observations: {
        activePower: -3450.25,
        reactivePower: 1200.5,
        powerFactor: -0.69,
        phaseCurrent: { l1: -10.5, l2: -8.25, l3: 3.1 },
        phaseActivePower: { l1: -2300.5, l2: -1800, l3: 650.25 },
        energyImport: 2345500,
        energyExport: 12345670,
      },
    });
  });

  it('sends the flash report with the additional properties asked for', async () => {
    const driver = driverOf(1, { enableFlashReport: { reportingInterval: 0.5, additionalProperties: ['phaseCurrent', 'lineVoltage'] } });
    await driver.poll();
    const flash = driver.buildReport(at, undefined, true);
    expect(flash).toEqual({
      type: 'meterPower.flash',
      at: '2026-11-22T05:45:00.000Z',
      asset: 3,
      observations: { activePower: 3450.25, phaseCurrent: { l1: 10.5, l2: 8.25, l3: -3.1 }, lineVoltage: { l12: 400.1, l23: 399.5, l31: 401.2 } },
    });
    expect(validateReport(flash).ok).toBe(true);
  });

  it('is the driver createDriver makes for eastron assets', () => {
    const config = assetSchema.validateSync({ type: 'eastron', communication: peer.connection }) as AssetConfig;
    expect(createDriver(0, config, { links: pool, log: () => undefined })).toBeInstanceOf(EastronDriver);
  });

  it('gives the serial number as metadata', async () => {
    expect(await driverOf(1).metadata()).toEqual({ manufacturer: 'Eastron', model: 'SDM630', serialNumber: '21063412' });
  });

  it('is unreadable when the meter does not answer, with every reading null and the timeouts counted', async () => {
    const driver = driverOf(9, { timeout: 150 });
    expect(await driver.poll()).toEqual({ readable: false, at: at.getTime() });
    expect(driver.buildReport(at, undefined, false)).toEqual({
      type: 'meterPower',
      at: '2026-11-22T05:45:00.000Z',
      asset: 3,
      observations: {
        activePower: null,
        reactivePower: null,
        apparentPower: null,
        powerFactor: null,
        frequency: null,
        phaseVoltage: { l1: null, l2: null, l3: null },
        lineVoltage: { l12: null, l23: null, l31: null },
        phaseCurrent: { l1: null, l2: null, l3: null },
        phaseActivePower: { l1: null, l2: null, l3: null },
        energyImport: null,
        energyExport: null,
        connectionStatistics: { ...zero, timeout: 2 },
      },
    });
    expect(await driver.writeSetpoint(1000)).toBe(false);
  });
});
