import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assetSchema, type AssetConfig } from '../../../contracts/device/assets';
import { GridportError } from '../../../contracts/errors';
import { ModbusLinkPool } from '../../modbus/link-pool';
import { startMapSimulator } from '../../simulators/map-simulator';
import { createDriver, driverFactoryWith, hasDriver } from '../index';
import { MapDriver } from './driver';
import { loadRegisterMaps } from './load';
import { builtInMaps } from './registry';
import { parseRegisterMap } from './schema';

/** A small valid map: a Socomec-like meter of ours, for the schema's rules. */
const meter = {
  type: 'carlo-gavazzi',
  source: 'a test map',
  report: 'meterPower',
  points: [
    { name: 'power', address: 10, type: 's32', field: 'activePower' },
    { name: 'currentL1', address: 12, type: 'u32', scale: 0.001, field: 'phaseCurrent.l1', signOf: 'activePower' },
  ],
};

function refusal(input: unknown): { key: string; details: unknown; message: string } {
  try {
    parseRegisterMap(input, 'test.json');
  } catch (error) {
    if (error instanceof GridportError) {
      return { key: error.key, details: error.details, message: error.message };
    }
    throw error;
  }
  throw new Error('the map was taken');
}

describe('register map schema', () => {
  it('takes a valid map and fills the defaults', () => {
    const map = parseRegisterMap(meter, 'test.json');
    expect(map.wordOrder).toBe('big');
    expect(map.defaultSlaveId).toBe(1);
    expect(map.requests).toEqual({ maxRegisters: 125, gap: 8 });
    expect(map.points[0]).toEqual({ name: 'power', address: 10, table: 'holding', type: 's32', scale: 1, unavailable: [], field: 'activePower', poll: true });
  });

  it('every built-in map passes it, with its source named', () => {
    expect([...builtInMaps.keys()].sort()).toEqual([
      'abl',
      'alfen-ev-ng9xx',
      'eastron',
      'huawei-ess',
      'huawei-inverter',
      'janitza',
      'sma-sunny-island',
      'socomec',
      'sungrow-string-inverter',
      'test-asset',
      'test-modbus-inverter',
      'waveshare-relay',
    ]);
    for (const map of builtInMaps.values()) {
      expect(map.source.length).toBeGreaterThan(10);
    }
  });

  it.each([
    [{ ...meter, points: [{ name: 'power', address: 10, type: 's33', field: 'activePower' }] }, 'test.json.points[0].type', 'point power'],
    [{ ...meter, points: [{ name: 'power', address: 10, type: 's32', field: 'activePowr' }] }, 'test.json.points.power', 'meterPower has no field activePowr'],
    [{ ...meter, points: [{ name: 'power', address: 65535, type: 's32' }] }, 'test.json.points.power', 'register 65535 + 2 runs past 65535'],
    [{ ...meter, points: [...meter.points, { name: 'power', address: 20, type: 'u16' }] }, 'test.json.points.power', 'point power is given twice'],
    [
      { ...meter, points: [...meter.points, { name: 'p2', address: 20, type: 'u16', field: 'activePower' }] },
      'test.json.points.p2',
      'field activePower is filled twice',
    ],
    [
      { ...meter, points: [{ name: 'stats', address: 1, type: 'u16', field: 'connectionStatistics.success' }] },
      'test.json.points.stats',
      'filled by the agent',
    ],
    [
      { ...meter, points: [{ name: 'w', address: 1, type: 's16', scaleFactor: 'sf', field: 'activePower' }] },
      'test.json.points.w',
      'scale factor sf is no s16 point',
    ],
    [{ ...meter, points: [{ name: 'bit', address: 1, type: 'bit' }] }, 'test.json.points.bit', 'type bit is for coils'],
    [{ ...meter, points: [{ name: 'text', address: 1, type: 'string', field: 'activePower', length: 2 }] }, 'test.json.points.text', 'a string cannot fill it'],
    [{ ...meter, type: 'no-such-type' }, 'test.json.type', 'no-such-type is not an asset type'],
    [{ ...meter, report: 'batteryPower' }, 'test.json.report', 'carlo-gavazzi (meter) makes meterPower, not batteryPower'],
    [{ ...meter, setpoint: { kind: 'current', address: 1, type: 'u16' } }, 'test.json.setpoint.kind', 'a current setpoint is for EV chargers'],
    [{ ...meter, setpoint: { kind: 'watts', address: 1, type: 'u16', magnitude: true } }, 'test.json.setpoint.direction', 'needs its direction register'],
    [
      { ...meter, setpoint: { kind: 'watts', address: 1, type: 'f32', off: { below: 10, raw: 0 } } },
      'test.json.setpoint.off',
      'an off value is for a one-register setpoint (u16, s16)',
    ],
    [{ ...meter, setpoint: { kind: 'watts', address: 1, type: 'u16', max: 'maxDischargePower' } }, 'test.json.setpoint.max', 'maxDischargePower is no field'],
    [
      { ...meter, setpoint: { kind: 'watts', address: 1, type: 'u16', negativeAddress: 3 } },
      'test.json.setpoint.negativeAddress',
      'a register for negative setpoints needs magnitude',
    ],
  ])('refuses a bad map with invalid_config naming where (%#)', (input, where, message) => {
    const refused = refusal(input);
    expect(refused.key).toBe('invalid_config');
    expect(refused.details).toEqual([{ path: where, message: expect.stringContaining(message) }]);
    expect(refused.message).toContain(where);
  });

  it('takes the example map of docs/edge.md', () => {
    const docs = readFileSync(path.join(__dirname, '../../../docs/edge.md'), 'utf8');
    const example = /### The format\n\n```json\n([\s\S]*?)\n```/.exec(docs)?.[1];
    expect(example).toBeDefined();
    const map = parseRegisterMap(JSON.parse(example ?? '{}'), 'docs/edge.md');
    expect(map.type).toBe('carlo-gavazzi');
    expect(hasDriver(map.type)).toBe(false);
  });

  it('checks a status enumeration against the report', () => {
    const battery = { type: 'byd', source: 'a test map', report: 'batteryPower', points: [{ name: 'st', address: 1, type: 'u16', field: 'status' }] };
    expect(refusal(battery).details).toEqual([{ path: 'test.json.points.st', message: 'status is an enumeration: give the raw values in enum' }]);
    expect(refusal({ ...battery, points: [{ ...battery.points[0], enum: { '1': 'running' } }] }).details).toEqual([
      { path: 'test.json.points.st', message: "running is not one of status's values (on, off, other)" },
    ]);
    expect(
      parseRegisterMap({ ...battery, points: [{ ...battery.points[0], enum: { '1': 'on', '0': 'off' }, enumDefault: 'other' }] }, 'x').points[0]?.enum,
    ).toEqual({
      '0': 'off',
      '1': 'on',
    });
  });
});

describe('operator-loaded register maps', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'gridport-maps-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('loads a map for a type without a driver, and the agent runs it', async () => {
    await writeFile(path.join(folder, 'carlo-gavazzi.json'), JSON.stringify(meter));
    await writeFile(path.join(folder, 'README.txt'), 'not a map');
    const maps = await loadRegisterMaps(folder, hasDriver);
    expect([...maps.keys()]).toEqual(['carlo-gavazzi']);
    const map = maps.get('carlo-gavazzi');
    if (map === undefined) {
      throw new Error('no map');
    }
    const simulator = await startMapSimulator({ units: [{ slaveId: 1, map, values: { power: -2500, currentL1: 3.5 } }] });
    const pool = new ModbusLinkPool();
    try {
      const config = assetSchema.validateSync({ type: 'carlo-gavazzi', communication: simulator.connection() }) as AssetConfig;
      expect(createDriver(0, config, { links: pool, log: () => undefined })).toBeNull();
      const driver = driverFactoryWith(maps)(0, config, { links: pool, log: () => undefined });
      expect(driver).toBeInstanceOf(MapDriver);
      expect(await driver?.poll()).toEqual({ readable: true, at: expect.any(Number), activePower: -2500, phaseCurrent: { l1: -3.5, l2: null, l3: null } });
    } finally {
      await pool.close();
      await simulator.close();
    }
  });

  it('refuses a map for a type that has a driver, a bad file and a missing folder, naming them', async () => {
    await writeFile(path.join(folder, 'janitza.json'), JSON.stringify({ ...meter, type: 'janitza' }));
    await expect(loadRegisterMaps(folder, hasDriver)).rejects.toMatchObject({
      key: 'invalid_config',
      details: [{ path: 'janitza.json.type', message: 'janitza has a built-in driver; a loaded map serves only types without one' }],
    });
    await rm(path.join(folder, 'janitza.json'));
    await writeFile(path.join(folder, 'broken.json'), '{ "type": ');
    await expect(loadRegisterMaps(folder, hasDriver)).rejects.toMatchObject({ key: 'invalid_config', details: [{ path: path.join(folder, 'broken.json') }] });
    await rm(path.join(folder, 'broken.json'));
    await writeFile(path.join(folder, 'bad.json'), JSON.stringify({ ...meter, points: [{ name: 'power', address: -1, type: 's32' }] }));
    await expect(loadRegisterMaps(folder, hasDriver)).rejects.toMatchObject({ key: 'invalid_config', details: [{ path: 'bad.json.points[0].address' }] });
    await expect(loadRegisterMaps(path.join(folder, 'nowhere'), hasDriver)).rejects.toMatchObject({ key: 'invalid_config' });
  });
});
