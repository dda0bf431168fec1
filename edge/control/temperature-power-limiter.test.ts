import { controlLoopSchema } from '../../contracts/device/control-loops';
import type { DeviceReport } from '../../contracts/hub/reports';
import { issuesOf } from '../../contracts/validation';
import type { AssetState } from '../drivers/driver';
import { createControlLoop } from './index';
import type { ControlLoop } from './loop';
import { deratedShare, deratingLevel } from './temperature-power-limiter';
import { deviceConfig, readable, setpoints, snapshot, unreadable, valid } from './test-support';

// 0 temperature sensor, 1 solar 50 kW (fallback 40 %), 2 EV 66 kW, 3 battery 50 kW, 4 solar 10 kW read only, 5 solar 50 kW (10 s response)
const assets = [
  { type: 'demo-temperature-sensor' },
  { type: 'demo-solar', nominalActivePower: 50_000, fallbackLimit: { activePowerPercentage: 40 } },
  { type: 'demo-ev', nominalActivePower: 66_000 },
  { type: 'demo-battery', nominalActivePower: 50_000 },
  { type: 'demo-solar', nominalActivePower: 10_000, readOnly: true },
  { type: 'demo-solar', nominalActivePower: 50_000, powerResponseMs: 10_000 },
];
const steps = [
  { temperature: 80, activePowerPercentage: 60 },
  { temperature: 70, activePowerPercentage: 80 },
];
const limiter = {
  type: 'temperaturePowerLimiter',
  temperatureSensorAssetIndex: 0,
  temperatureName: 'transformer',
  limitableAssetIndices: [1, 2, 3],
  derating: steps,
};

function loopOf(extra: Record<string, unknown> = {}): { loop: ControlLoop; config: ReturnType<typeof deviceConfig> } {
  const config = deviceConfig(assets, [{ ...limiter, ...extra }]);
  const [loopConfig] = config.activeControl;
  const made = loopConfig === undefined ? null : createControlLoop(0, loopConfig, config);
  if (made === null) {
    throw new Error('no loop');
  }
  return { loop: made, config };
}

const sensor = (temperature: number | null): AssetState => readable({ temperatures: { transformer: temperature, ambient: 20 } });
const solar = readable({ activePower: 30_000, availablePower: 45_000, controllableRange: { min: 0, max: 45_000 } });
const ev = readable({ activePower: -20_000, controllableRange: { min: -66_000, max: 0 } });
const battery = readable({ activePower: 0, stateOfCharge: 50, controllableRange: { min: -50_000, max: 50_000 } });

describe('deratingLevel', () => {
  const sorted = [...steps].reverse();

  it('enters a step at its temperature and leaves it 1 °C below', () => {
    expect([69.9, 70, 79.9, 80, 95].map((t) => deratingLevel(sorted, t, -1))).toEqual([-1, 0, 0, 1, 1]);
    expect([79.5, 79, 78.9].map((t) => deratingLevel(sorted, t, 1))).toEqual([1, 1, 0]);
    expect([69.5, 68.9].map((t) => deratingLevel(sorted, t, 0))).toEqual([0, -1]);
  });

  it('reads a table in any order; of two steps at one temperature the lower share holds', () => {
    expect(deratedShare(steps, 75)).toBe(80);
    expect(deratedShare([...steps, { temperature: 80, activePowerPercentage: 40 }], 85)).toBe(40);
    expect(deratedShare(steps, 20)).toBeNull();
  });
});

describe('temperaturePowerLimiter', () => {
  it('derates producers, consumers and batteries to the share of their nominal power, and releases them below the first step', () => {
    const { loop, config } = loopOf();
    const states = [sensor(75), solar, ev, battery, undefined];
    expect(setpoints(loop.step(snapshot(config, 0, states, { baseline: [null, null, null, 45_000] })))).toEqual([
      [1, 40_000],
      [2, -52_800],
      [3, 40_000],
    ]);
    expect(valid(loop.statusReport(new Date(0))).observations).toMatchObject({
      state: 'active',
      temperature: 75,
      monitoredPower: 10_000,
      feedInLimit: 80_000,
      consumptionLimit: null,
      unreadableAssets: [],
      unlimitableAssets: [],
    });
    // Readings 10 s apart: the trend is the last slope; rising 1 °C/s with a lead of 1 s reads 86 °C.
    expect(setpoints(loop.step(snapshot(config, 10_000, [sensor(85), solar, ev, battery])))).toEqual([
      [1, 30_000],
      [2, -39_600],
      [3, 0],
    ]);
    // Falling: the 60 % step holds down to 79 °C, the 80 % step down to 69 °C.
    expect(setpoints(loop.step(snapshot(config, 20_000, [sensor(79.2), solar, ev, battery])))[0]).toEqual([1, 30_000]);
    expect(setpoints(loop.step(snapshot(config, 30_000, [sensor(78.9), solar, ev, battery])))[0]).toEqual([1, 40_000]);
    expect(setpoints(loop.step(snapshot(config, 40_000, [sensor(68), solar, ev, battery])))).toEqual([
      [1, null],
      [2, null],
      [3, null],
    ]);
    expect(loop.statusReport(new Date(40_000)).observations).toMatchObject({ state: 'idle', feedInLimit: null, temperature: 68 });
  });

  it('derates ahead of a rising temperature by its trend over 10 response times of the slowest asset', () => {
    const { loop, config } = loopOf({ limitableAssetIndices: [5] });
    // 0.5 °C/s from 60 °C, a reading every 100 ms; the solar's 10 s response gives a lead of 100 s of the trend (learned over about 10 s).
    const caps = new Map<number, number | null | undefined>();
    for (let step = 0; step <= 100; step += 1) {
      const states = [sensor(60 + step * 0.05), undefined, undefined, undefined, undefined, solar];
      caps.set(step, setpoints(loop.step(snapshot(config, step * 100, states)))[0]?.[1]);
    }
    // 60.5 °C: trend 0.048 °C/s, 65.3 °C ahead; 62 °C: 0.165 °C/s, 78.5 °C ahead; 65 °C: 0.317 °C/s, 96.7 °C ahead.
    expect([caps.get(10), caps.get(40), caps.get(100)]).toEqual([null, 40_000, 30_000]);
  });

  it('takes no lead from a falling temperature', () => {
    const { loop, config } = loopOf({ limitableAssetIndices: [1] });
    let last: [number, number | null][] = [];
    for (let step = 0; step < 200; step += 1) {
      last = setpoints(loop.step(snapshot(config, step * 100, [sensor(75 - step * 0.05), solar])));
    }
    // 65.05 °C at the end, falling: released (below 69 °C), nothing ahead.
    expect(last).toEqual([[1, null]]);
  });

  it('reports read-only and unreadable assets as unlimitable and still derates the unreadable', () => {
    const { loop, config } = loopOf({ limitableAssetIndices: [1, 4] });
    expect(setpoints(loop.step(snapshot(config, 0, [sensor(72), unreadable, undefined, undefined, solar])))).toEqual([[1, 40_000]]);
    expect(loop.statusReport(new Date(0)).observations).toMatchObject({ unlimitableAssets: [1, 4] });
  });

  it('holds for a second of an unreadable sensor or a missing temperature, then falls back and raises the sensor alarm', () => {
    const { loop, config } = loopOf({ limitableAssetIndices: [1] });
    loop.step(snapshot(config, 0, [sensor(75), solar]));
    expect(setpoints(loop.step(snapshot(config, 100, [sensor(null), solar])))).toEqual([]);
    expect(setpoints(loop.step(snapshot(config, 1_100, [unreadable, solar])))).toEqual([[1, 20_000]]);
    expect(valid(loop.statusReport(new Date(1_100))).observations).toMatchObject({ state: 'fallback', temperature: null, unreadableAssets: [0] });
    const reports: DeviceReport[] = [];
    for (let step = 12; step < 80; step += 1) {
      loop.step(snapshot(config, step * 100, [unreadable, solar]));
      reports.push(...loop.drainReports(new Date(step * 100)).map(valid));
    }
    expect(reports).toMatchObject([{ type: 'alarm', asset: 0, observations: { code: 'activeControl.sensorTooOftenUnreadable', active: true } }]);
  });

  it('refuses an empty table and a share above 100 %', () => {
    expect(issuesOf(controlLoopSchema, { ...limiter, derating: [] })).toEqual([{ path: 'derating', message: 'derating field must have at least 1 items' }]);
    expect(issuesOf(controlLoopSchema, { ...limiter, derating: [{ temperature: 70, activePowerPercentage: 120 }] })).toEqual([
      { path: 'derating[0].activePowerPercentage', message: 'derating[0].activePowerPercentage must be less than or equal to 100' },
    ]);
  });
});
