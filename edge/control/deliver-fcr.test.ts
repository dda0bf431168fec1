import type { ScheduleItem } from '../../contracts/device/commands';
import { fcrDelta, gridFrequency, ScheduleRunner } from './schedule';
import { SetpointArbiter } from './setpoints';
import { at as nth, deviceConfig, readable, recordingDrivers, unreadable } from './test-support';

// 0 grid meter, 1 battery 50 kW metered by 2, 2 sub-meter, 3 battery 50 kW, 4 afrr loop's meter
const assets = [
  { type: 'demo-meter' },
  { type: 'demo-battery', nominalActivePower: 50_000, powerMeterAssetIndex: 2 },
  { type: 'demo-meter' },
  { type: 'demo-battery', nominalActivePower: 50_000 },
];
const loops = [
  { type: 'afrrLimiter', meterAssetIndex: 0, batteryAssetIndices: [3] },
  { type: 'powerLimiter', meterAssetIndex: 0, primaryLimitableAssetIndices: [1], contractualLimit: { feedIn: 50_000 } },
];

const t0 = Date.parse('2026-11-23T10:00:00Z');
const at = (minutes: number): number => t0 + minutes * 60_000;
const item = (start: number, end: number, command: ScheduleItem['command']): ScheduleItem => ({
  startAt: new Date(at(start)).toISOString(),
  endAt: new Date(at(end)).toISOString(),
  command,
});

function setup() {
  const config = deviceConfig(assets, loops);
  const drivers = recordingDrivers(config);
  nth(drivers, 0).state = readable({ activePower: 0, frequency: 50.1 });
  nth(drivers, 1).state = readable({ activePower: 0, stateOfCharge: 50, controllableRange: { min: -50_000, max: 50_000 } });
  nth(drivers, 2).state = readable({ activePower: 0, frequency: 49.95 });
  nth(drivers, 3).state = readable({ activePower: 0, stateOfCharge: 50, controllableRange: { min: -40_000, max: 50_000 } });
  let now = at(0);
  const arbiter = new SetpointArbiter(config);
  const runner = new ScheduleRunner({ config, arbiter, clock: () => now, execute: (index, command) => nth(drivers, index).execute(command) });
  const step = async (minutes: number) => {
    now = at(minutes);
    const reports = await runner.step(drivers.map((driver) => driver.state));
    await arbiter.apply(now, drivers);
    return reports;
  };
  return { config, drivers, arbiter, runner, step };
}

describe('deliverFCR', () => {
  it('fcrDelta: the symmetric band around the dispatch times the deviation over 200 mHz, capped', () => {
    const range = { min: -50_000, max: 50_000 };
    expect(fcrDelta(10_000, range, 50)).toBe(0);
    // Band 40 kW (room up); 50 mHz low is a quarter of it, discharging.
    expect(fcrDelta(10_000, range, 49.95)).toBeCloseTo(10_000, 6);
    expect(fcrDelta(10_000, range, 50.1)).toBeCloseTo(-20_000, 6);
    expect(fcrDelta(10_000, range, 49.5)).toBe(40_000);
    expect(fcrDelta(-20_000, range, 51)).toBe(-30_000);
    // No room (dispatch at the edge), no frequency, no range: nothing.
    expect(fcrDelta(50_000, range, 49.8)).toBe(0);
    expect(fcrDelta(0, range, null)).toBe(0);
    expect(fcrDelta(0, null, 49.8)).toBe(0);
  });

  it("gridFrequency: the battery's own meter first, else the first asset that reads one", () => {
    const { config, drivers } = setup();
    const states = drivers.map((driver) => driver.state);
    expect(gridFrequency(config, 2, states)).toBe(49.95);
    expect(gridFrequency(config, undefined, states)).toBe(50.1);
    expect(gridFrequency(config, 2, [unreadable, states[1], unreadable, states[3]])).toBeNull();
    expect(gridFrequency(config, 2, [states[0], states[1], unreadable, states[3]])).toBe(50.1);
  });

  it('adds the droop to the dispatch every step while the item holds, and leaves a battery without it alone', async () => {
    const { drivers, runner, arbiter, step } = setup();
    runner.setSchedule({ assetIndex: 1 }, [item(0, 10, { type: 'setBatteryOperation', dispatchPower: 10_000, deliverFCR: true, chargeToState: null })]);
    runner.setSchedule({ assetIndex: 3 }, [item(0, 10, { type: 'setBatteryOperation', dispatchPower: 10_000, deliverFCR: false, chargeToState: null })]);
    await step(0);
    // The sub-meter reads 49.95 Hz: a quarter of the 40 kW band more.
    expect(arbiter.desired(1).cloud).toBeCloseTo(20_000, 6);
    expect(arbiter.desired(3)).toEqual({ cloud: 10_000 });
    nth(drivers, 2).state = readable({ activePower: 0, frequency: 50.2 });
    await step(1);
    expect(arbiter.desired(1)).toEqual({ cloud: -30_000 });
    expect(nth(drivers, 1).writes).toEqual([20_000, -30_000]);
    // No frequency anywhere: the dispatch alone.
    nth(drivers, 0).state = unreadable;
    nth(drivers, 2).state = unreadable;
    await step(2);
    expect(arbiter.desired(1)).toEqual({ cloud: 10_000 });
    await step(10);
    expect(arbiter.desired(1)).toEqual({});
  });

  it('gives the afrrLimiter loop its scheduled delta; a loop of another type refuses the item', async () => {
    const { runner, step } = setup();
    runner.setSchedule({ controlLoopIndex: 0 }, [item(0, 5, { type: 'applyAfrrDeltaSetpoint', deltaSetpoint: -12_000 })], 'afrr');
    runner.setSchedule({ controlLoopIndex: 1 }, [item(0, 5, { type: 'applyAfrrDeltaSetpoint', deltaSetpoint: 5_000 })], 'other');
    const reports = await step(0);
    expect(runner.scheduledAfrrDelta(0)).toBe(-12_000);
    expect(runner.scheduledAfrrDelta(1)).toBeUndefined();
    expect(reports.map((report) => [report.type, 'messageId' in report.observations ? report.observations.messageId : undefined])).toEqual([
      ['error', 'other'],
      ['executedAssetSchedule', 'afrr'],
    ]);
    await step(5);
    expect(runner.scheduledAfrrDelta(0)).toBeUndefined();
  });
});
