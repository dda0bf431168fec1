import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { assetSchema, type AssetConfig } from '../../../contracts/device/assets';
import { ModbusLinkPool } from '../../modbus/link-pool';
import { startRegisterServer, type RegisterServer } from '../../../test-support/modbus-peers/register-server';
import { startModbusSimulator, type ModbusSimulator } from '../../simulators/modbus-simulator';
import { Battery, Site } from '../../simulators/plant';
import { createDriver } from '../index';
import { encodeReading, pollRanges, type RegisterImage } from './register-maps';
import type { BatteryReading, EvReading } from './readings';
import { describeWithPeers } from '../../../test-support/services';

const run = promisify(execFile);

/** Register values mbpoll printed, by reference. */
function mbpollValues(output: string): Record<number, number> {
  const values: Record<number, number> = {};
  for (const match of output.matchAll(/^\[(\d+)\]:\s+(-?\d+)/gm)) {
    values[Number(match[1])] = Number(match[2]);
  }
  return values;
}

describeWithPeers(['pymodbus', 'mbpoll'], __filename)('the demo register maps with peers nobody here wrote', () => {
  it('mbpoll reads the simulator: 16 and 32-bit registers as the map says, and its write moves the plant', async () => {
    const site = new Site({ seed: 1, start: Date.parse('2026-06-21T11:00:00Z') });
    const battery = site.add(new Battery({ capacityWh: 10_000, stateOfCharge: 47.25, maxChargePower: 5000, maxDischargePower: 4000, powerResponseMs: 0 }));
    battery.setpoint = -2500;
    site.step(1);
    const simulator: ModbusSimulator = await startModbusSimulator(site, { units: [{ slaveId: 3, type: 'demo-battery', target: battery }] });
    try {
      const base = ['-m', 'tcp', '-a', '3', '-0', '-1', '-p', String(simulator.port)];
      const power = await run('mbpoll', [...base, '-t', '4:int', '-B', '-r', '0', '-c', '1', '127.0.0.1']);
      expect(mbpollValues(power.stdout)).toEqual({ 0: -2500 });
      const soc = await run('mbpoll', [...base, '-t', '4', '-r', '2', '-c', '2', '127.0.0.1']);
      expect(mbpollValues(soc.stdout)).toEqual({ 2: Math.round(battery.stateOfCharge * 100), 3: 1 });
      // Setpoint mode 1 and 1500 W (int32 0x000005DC) written as three registers from 40.
      await run('mbpoll', [...base, '-t', '4', '-r', '40', '127.0.0.1', '1', '0', '1500']);
      expect(battery.setpoint).toBe(1500);
      expect(simulator.writes(3)).toBe(1);
    } finally {
      await simulator.close();
    }
  });

  describe('demo drivers against pymodbus serving the maps', () => {
    let peer: RegisterServer;
    let pool: ModbusLinkPool;
    const battery: BatteryReading = {
      activePower: -3210,
      stateOfCharge: 55.55,
      maxChargePower: 6000,
      maxDischargePower: 0,
      chargeLimit: 6000,
      dischargeLimit: 5000,
      dcVoltage: 412.3,
      status: 'on',
      energyCharged: 123_456,
      energyDischarged: 98_765,
      setpoint: -3210,
    };
    const ev: EvReading = {
      activePower: -7360,
      phaseCurrent: [32, 0, 0],
      energyCharged: 5000,
      maxPower: 8 * 22_080,
      setpoint: null,
      points: [
        { status: 'charging', power: 7360, phaseCurrent: [32, 0, 0], sessionEnergy: 1234, vehicleStateOfCharge: 61.5 },
        ...Array.from({ length: 7 }, () => ({
          status: 'available' as const,
          power: 0,
          phaseCurrent: [0, 0, 0] as const,
          sessionEnergy: 0,
          vehicleStateOfCharge: null,
        })),
      ],
    };

    function holding(image: RegisterImage, length: number): number[] {
      return Array.from({ length }, (_, i) => image[i] ?? 0);
    }

    beforeAll(async () => {
      const batteryImage: RegisterImage = [];
      encodeReading('battery', battery, batteryImage);
      const evImage: RegisterImage = [];
      encodeReading('ev', ev, evImage);
      const [batteryRange] = pollRanges('demo-battery', 0);
      const [evRange] = pollRanges('demo-ev', 8);
      peer = await startRegisterServer({
        units: {
          '1': { holding: { '0': holding(batteryImage, batteryRange?.length ?? 0) } },
          '2': { holding: { '0': holding(evImage, evRange?.length ?? 0) } },
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

    function config(type: string, slaveId: number): AssetConfig {
      return assetSchema.validateSync({ type, communication: peer.connection, slaveId }) as AssetConfig;
    }

    it('a battery driver decodes what pymodbus serves and its setpoint write lands in pymodbus', async () => {
      const driver = createDriver(0, config('demo-battery', 1), { links: pool, log: () => undefined });
      const state = await driver?.poll();
      expect(state).toEqual({
        readable: true,
        at: state?.at,
        activePower: -3210,
        stateOfCharge: 55.55,
        controllableRange: { min: -6000, max: 0 },
        confirmedSetpoint: -3210,
      });
      const report = driver?.buildReport(new Date(), undefined, false);
      expect(report).toMatchObject({ observations: { dcVoltage: 412.3, energyCharged: 123_456, energyDischarged: 98_765, status: 'on' } });
      expect(await driver?.writeSetpoint(-7000)).toBe(true);
      expect((await driver?.poll())?.confirmedSetpoint).toBe(-6000);
      expect(await driver?.writeSetpoint(null)).toBe(true);
      expect((await driver?.poll())?.confirmedSetpoint).toBeNull();
    });

    it('an EV driver decodes 8 charge points from pymodbus', async () => {
      const driver = createDriver(0, config('demo-ev', 2), { links: pool, log: () => undefined });
      await driver?.poll();
      const report = driver?.buildReport(new Date(), undefined, false);
      expect(report).toMatchObject({ observations: { activePower: -7360, phaseCurrent: { l1: 32, l2: 0, l3: 0 }, energyCharged: 5000 } });
      const points = report?.type === 'evPower' ? report.observations.points : undefined;
      expect(points?.[0]).toEqual({
        point: 0,
        status: 'charging',
        activePower: -7360,
        phaseCurrent: { l1: 32, l2: 0, l3: 0 },
        sessionEnergy: 1234,
        vehicleStateOfCharge: 61.5,
      });
      expect(points?.[7]).toEqual({
        point: 7,
        status: 'available',
        activePower: 0,
        phaseCurrent: { l1: 0, l2: 0, l3: 0 },
        sessionEnergy: 0,
        vehicleStateOfCharge: null,
      });
      expect(points?.map((point) => point.status)).toEqual(['charging', ...Array.from({ length: 7 }, () => 'available')]);
      expect(points?.[1]?.vehicleStateOfCharge).toBeNull();
      expect(driver?.statistics.success).toBe(0);
      expect(report).toMatchObject({ observations: { connectionStatistics: { success: 1 } } });
    });
  });
});
