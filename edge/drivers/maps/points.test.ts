import { assetSchema, type AssetConfig } from '../../../contracts/device/assets';
import { ModbusLinkPool } from '../../modbus/link-pool';
import { startMapSimulator } from '../../simulators/map-simulator';
import { MapDriver } from './driver';
import { decodeRaw, encodeRaw, pointValue } from './points';
import { parseRegisterMap } from './schema';

describe('register map points', () => {
  it.each([
    ['u16', 'big', 54321, [54321]],
    ['s16', 'big', -2, [0xfffe]],
    ['u32', 'big', 78000, [0x0001, 0x30b0]],
    ['u32', 'mid-little', 78000, [0x30b0, 0x0001]],
    ['s32', 'mid-little', -234, [0xff16, 0xffff]],
    ['f32', 'big', 16, [0x4180, 0]],
    ['f64', 'big', 2500123.5, [0x4143, 0x130d, 0xc000, 0]],
    ['f64', 'mid-little', 2500123.5, [0, 0xc000, 0x130d, 0x4143]],
    ['u64', 'big', 2 ** 40 + 5, [0, 0x0100, 0, 5]],
  ] as const)('%s in %s word order: %d is %j and back', (type, order, value, registers) => {
    expect(encodeRaw(value, type, order)).toEqual(registers);
    expect(decodeRaw(registers, type, order)).toBe(value);
  });

  it('saturates integers to their type, rounds to whole raw values, and reads strings and bits', () => {
    expect(encodeRaw(70000, 'u16', 'big')).toEqual([0xffff]);
    expect(encodeRaw(-40000, 's16', 'big')).toEqual([0x8000]);
    expect(encodeRaw(12.6, 'u16', 'big')).toEqual([13]);
    expect(encodeRaw('C2', 'string', 'big', 3)).toEqual([0x4332, 0, 0]);
    expect(decodeRaw([0x4332, 0, 0], 'string', 'big')).toBe('C2');
    expect(decodeRaw([7], 'bit', 'big')).toBe(1);
    expect(decodeRaw(encodeRaw(230.1, 'f32', 'big'), 'f32', 'big')).toBe(230.1);
  });

  it('applies a SunSpec scale factor point, and reads null for a missing scale factor or an unavailable marker', () => {
    const map = parseRegisterMap(
      {
        type: 'growatt-inverter',
        source: 'a test map',
        report: 'solarPower',
        points: [
          { name: 'W_SF', address: 2, type: 's16' },
          { name: 'W', address: 1, type: 's16', scaleFactor: 'W_SF', field: 'activePower', unavailable: [-0x8000] },
        ],
      },
      'test',
    );
    const [scaleFactor, watts] = map.points;
    if (scaleFactor === undefined || watts === undefined) {
      throw new Error('points');
    }
    expect(
      pointValue(
        map,
        watts,
        new Map([
          ['W', 1234],
          ['W_SF', 1],
        ]),
      ),
    ).toBe(12340);
    expect(
      pointValue(
        map,
        watts,
        new Map([
          ['W', 1234],
          ['W_SF', -2],
        ]),
      ),
    ).toBe(12.34);
    expect(
      pointValue(
        map,
        watts,
        new Map([
          ['W', 1234],
          ['W_SF', -0x8000],
        ]),
      ),
    ).toBeNull();
    expect(
      pointValue(
        map,
        watts,
        new Map([
          ['W', -0x8000],
          ['W_SF', 0],
        ]),
      ),
    ).toBeNull();
    expect(pointValue(map, scaleFactor, new Map([['W_SF', -2]]))).toBe(-2);
  });

  it('a driver reads a scale-factored point through the simulator', async () => {
    const map = parseRegisterMap(
      {
        type: 'growatt-inverter',
        source: 'a test map',
        report: 'solarPower',
        points: [
          { name: 'W_SF', address: 2, type: 's16' },
          { name: 'W', address: 1, type: 's16', scaleFactor: 'W_SF', field: 'activePower' },
        ],
      },
      'test',
    );
    const simulator = await startMapSimulator({ units: [{ slaveId: 1, map, values: { W_SF: 1, W: 4560 } }] });
    const pool = new ModbusLinkPool();
    try {
      expect(simulator.register(1, 'holding', 1)).toBe(456);
      const config = assetSchema.validateSync({ type: 'growatt-inverter', communication: simulator.connection() }) as AssetConfig;
      const driver = new MapDriver(0, config, map, pool.unit(config.communication, 1, { timeoutMs: 500 }), () => undefined);
      expect(await driver.poll()).toEqual({ readable: true, at: expect.any(Number), activePower: 4560 });
    } finally {
      await pool.close();
      await simulator.close();
    }
  });
});
