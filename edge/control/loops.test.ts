import { parseDeviceConfig } from '../../contracts/device/config';
import { controlLoopTypes } from '../../contracts/device/control-loops';
import { exampleDeviceConfig } from '../../contracts/device/examples';
import type { DeviceReport } from '../../contracts/hub/reports';
import { createControlLoop } from './index';
import type { ControlLoop } from './loop';
import { allocate, deliveryWindow, Headroom, leadSetpoints, ResponseLearner, responseShare } from './loop-base';
import { deviceConfig, readable, setpoints, snapshot, unreadable, valid } from './test-support';
import type { AssetState } from '../drivers/driver';

// 0 grid meter, 1 solar 50 kW, 2 solar 10 kW, 3 battery 50 kW, 4 EV 66 kW, 5 generator 20 kW, 6 battery 50 kW
const assets = [
  { type: 'demo-meter' },
  { type: 'demo-solar', nominalActivePower: 50_000, fallbackLimit: { activePowerPercentage: 40 } },
  { type: 'demo-solar', nominalActivePower: 10_000 },
  { type: 'demo-battery', nominalActivePower: 50_000 },
  { type: 'demo-ev', nominalActivePower: 66_000 },
  { type: 'demo-generator', nominalActivePower: 20_000, minimumRuntime: 60 },
  { type: 'demo-battery', nominalActivePower: 50_000, fallbackSetpoint: -1_000 },
];

function loopOf(loop: Record<string, unknown>): { loop: ControlLoop; config: ReturnType<typeof deviceConfig> } {
  const config = deviceConfig(assets, [loop]);
  const [loopConfig] = config.activeControl;
  const made = loopConfig === undefined ? null : createControlLoop(0, loopConfig, config);
  if (made === null) {
    throw new Error('no loop');
  }
  return { loop: made, config };
}

const solar = (power: number, available: number, max = available): AssetState =>
  readable({ activePower: power, availablePower: available, controllableRange: { min: 0, max } });
const battery = (power: number, stateOfCharge = 50): AssetState =>
  readable({ activePower: power, stateOfCharge, controllableRange: { min: -50_000, max: 50_000 } });
const meter = (power: number, currents?: [number, number, number]): AssetState =>
  readable({ activePower: power, ...(currents === undefined ? {} : { phaseCurrent: { l1: currents[0], l2: currents[1], l3: currents[2] } }) });

describe('powerLimiter', () => {
  const config = {
    type: 'powerLimiter',
    meterAssetIndex: 0,
    primaryLimitableAssetIndices: [1],
    secondaryLimitableAssetIndices: [2],
    contractualLimit: { feedIn: 20_000 },
  };

  it('caps the primary asset to the production that keeps feed-in at the limit', () => {
    const { loop, config: device } = loopOf(config);
    // Exporting 30 kW with 45 kW of solar: the site uses 15 kW, so 35 kW of solar may run.
    const step = loop.step(snapshot(device, 0, [meter(-30_000), solar(40_000, 40_000), solar(5_000, 5_000)]));
    expect(setpoints(step)).toEqual([
      [1, 30_000],
      [2, null],
    ]);
    const status = valid(loop.statusReport(new Date(0)));
    expect(status).toMatchObject({
      type: 'powerLimiterStatus',
      controller: 0,
      observations: { state: 'active', monitoredPower: -30_000, feedInLimit: 20_000, consumptionLimit: null, unlimitableAssets: [] },
    });
  });

  it('limits the secondary asset only when the primary one is at 0', () => {
    const { loop, config: device } = loopOf(config);
    // 15 kW too much feed-in, the primary gives 8 kW at most: the secondary gives the other 7 kW.
    const step = loop.step(snapshot(device, 0, [meter(-35_000), solar(8_000, 8_000), solar(10_000, 10_000)]));
    expect(setpoints(step)).toEqual([
      [1, 0],
      [2, 3_000],
    ]);
  });

  it('releases every asset while feed-in is within the limit', () => {
    const { loop, config: device } = loopOf(config);
    const step = loop.step(snapshot(device, 0, [meter(-10_000), solar(30_000, 30_000), solar(5_000, 5_000)]));
    expect(setpoints(step)).toEqual([
      [1, null],
      [2, null],
    ]);
    expect(loop.statusReport(new Date(0))).toMatchObject({ observations: { state: 'idle' } });
  });

  it('takes the most restrictive of its limit, its limit schedule and the scheduled limit', () => {
    const { loop, config: device } = loopOf({ ...config, limitSchedule: [{ start: '00:00', end: '23:59', feedIn: 15_000 }] });
    const step = loop.step(
      snapshot(device, 0, [meter(-30_000), solar(40_000, 40_000), solar(0, 0)], { scheduledLimit: { consumption: null, feedIn: 12_000 } }),
    );
    expect(setpoints(step)).toEqual([
      [1, 22_000],
      [2, null],
    ]);
  });

  it('holds on for a second when the meter goes unreadable, then falls back to the fallbackLimit', () => {
    const { loop, config: device } = loopOf(config);
    loop.step(snapshot(device, 0, [meter(-10_000), solar(30_000, 30_000), solar(5_000, 5_000)]));
    expect(setpoints(loop.step(snapshot(device, 100, [unreadable, solar(30_000, 30_000), solar(5_000, 5_000)])))).toEqual([]);
    // Asset 1 has fallbackLimit 40 % of 50 kW; asset 2 has none and is held at what it delivered.
    expect(setpoints(loop.step(snapshot(device, 1_100, [unreadable, solar(30_000, 30_000), solar(5_000, 5_000)])))).toEqual([
      [1, 20_000],
      [2, 5_000],
    ]);
    expect(valid(loop.statusReport(new Date(1_100)))).toMatchObject({ observations: { state: 'fallback', unreadableAssets: [0], monitoredPower: null } });
  });

  it('raises the meter alarm when the meter is unreadable in more than a tenth of a minute, and clears it', () => {
    const { loop, config: device } = loopOf(config);
    const states = [unreadable, solar(0, 0), solar(0, 0)];
    let now = 0;
    const drained: DeviceReport[] = [];
    // 61 unreadable steps of 0.1 s: more than 10 % of the 600 steps of a minute.
    for (let step = 0; step < 61; step += 1) {
      loop.step(snapshot(device, now, states));
      drained.push(...loop.drainReports(new Date(now)));
      now += 100;
    }
    expect(drained.map(valid)).toEqual([
      {
        type: 'alarm',
        at: new Date(6_000).toISOString(),
        asset: 0,
        observations: {
          code: 'activeControl.meterTooOftenUnreadable',
          level: 'warning',
          active: true,
          description: 'control loop 0: meter 0 too often unreadable',
        },
      },
    ]);
    // Readable for a minute: the window empties of bad steps and the alarm clears.
    for (let step = 0; step < 600; step += 1) {
      loop.step(snapshot(device, now, [meter(0), solar(0, 0), solar(0, 0)]));
      drained.push(...loop.drainReports(new Date(now)));
      now += 100;
    }
    expect(drained.slice(1)).toMatchObject([
      { type: 'alarm', asset: 0, observations: { code: 'activeControl.meterTooOftenUnreadable', active: false, level: 'info' } },
    ]);
  });

  it('raises the contractual feed-in alarm when it cannot keep the limit', () => {
    const { loop, config: device } = loopOf(config);
    const drained: DeviceReport[] = [];
    // Nothing left to curtail: 30 kW of feed-in with the solar at 0.
    for (let step = 0; step <= 120; step += 1) {
      loop.step(snapshot(device, step * 100, [meter(-30_000), solar(0, 0), solar(0, 0)]));
      drained.push(...loop.drainReports(new Date(step * 100)));
    }
    expect(drained.map(valid)).toEqual([
      {
        type: 'alarm',
        at: new Date(12_000).toISOString(),
        observations: {
          code: 'activeControl.powerFeedInTooHigh.contractual',
          level: 'warning',
          active: true,
          description: 'control loop 0: feed-in above the contractual limit',
        },
      },
    ]);
  });

  it('reports an unreadable asset as unlimitable and leaves it alone', () => {
    const { loop, config: device } = loopOf(config);
    const step = loop.step(snapshot(device, 0, [meter(-30_000), unreadable, solar(10_000, 10_000)]));
    expect(setpoints(step)).toEqual([[2, 0]]);
    expect(loop.statusReport(new Date(0))).toMatchObject({ observations: { unlimitableAssets: [1] } });
  });
});

describe('batteryPowerLimiter', () => {
  const config = { type: 'batteryPowerLimiter', meterAssetIndex: 0, batteryAssetIndices: [3], contractualLimit: { consumption: 50_000, feedIn: 10_000 } };

  it('discharges the battery by what consumption exceeds the limit', () => {
    const { loop, config: device } = loopOf(config);
    const states = [meter(70_000), undefined, undefined, battery(0)];
    expect(setpoints(loop.step(snapshot(device, 0, states)))).toEqual([[3, 20_000]]);
    expect(valid(loop.statusReport(new Date(0)))).toMatchObject({
      type: 'batteryPowerLimiterStatus',
      observations: { stateOfCharge: 50, batteryPower: 0, consumptionLimit: 50_000 },
    });
  });

  it("follows the cloud's dispatch while that keeps the limits, and trims it when it does not", () => {
    const { loop, config: device } = loopOf(config);
    // The cloud wants -30 kW (charging): the site takes 30 kW, so charging at 30 kW would import 60 kW.
    const states = [meter(30_000), undefined, undefined, battery(0)];
    expect(setpoints(loop.step(snapshot(device, 0, states, { baseline: [null, null, null, -30_000] })))).toEqual([[3, -20_000]]);
    expect(setpoints(loop.step(snapshot(device, 100, states, { baseline: [null, null, null, -10_000] })))).toEqual([[3, null]]);
  });

  it('idles the battery when the meter stays unreadable, or takes its fallbackSetpoint', () => {
    const { loop, config: device } = loopOf({ ...config, batteryAssetIndices: [3, 6] });
    loop.step(snapshot(device, 0, [unreadable, undefined, undefined, battery(5_000), undefined, undefined, battery(0)]));
    expect(setpoints(loop.step(snapshot(device, 1_000, [unreadable, undefined, undefined, battery(5_000), undefined, undefined, battery(0)])))).toEqual([
      [3, 0],
      [6, -1_000],
    ]);
  });
});

describe('batteryPeakShaver', () => {
  const config = { type: 'batteryPeakShaver', meterAssetIndex: 0, batteryAssetIndices: [3], contractualLimit: { consumption: 60_000 } };

  it('discharges through a peak', () => {
    const { loop, config: device } = loopOf(config);
    expect(setpoints(loop.step(snapshot(device, 0, [meter(70_000), undefined, undefined, battery(0)])))).toEqual([[3, 10_000]]);
    expect(valid(loop.statusReport(new Date(0)))).toMatchObject({
      type: 'batteryPeakShaverStatus',
      observations: { state: 'active', stateOfCharge: 50, batteryPower: 0 },
    });
  });

  it('recharges under the limit, keeping a tenth of it free', () => {
    const { loop, config: device } = loopOf(config);
    // 20 kW of site load: charging may add up to 54 kW - 20 kW.
    expect(setpoints(loop.step(snapshot(device, 0, [meter(20_000), undefined, undefined, battery(0)])))).toEqual([[3, -34_000]]);
  });

  it('keeps the state of charge range of its schedule and raises low and high alarms', () => {
    const { loop, config: device } = loopOf({ ...config, stateOfChargeSchedule: [{ start: '00:00', end: '23:59', min: 20, max: 60 }] });
    // Above the range: covers the site's own 20 kW and no more.
    expect(setpoints(loop.step(snapshot(device, 0, [meter(20_000), undefined, undefined, battery(0, 70)])))).toEqual([[3, 20_000]]);
    loop.step(snapshot(device, 100, [meter(20_000), undefined, undefined, battery(0, 10)]));
    expect(loop.drainReports(new Date(100)).map(valid)).toMatchObject([
      { observations: { code: 'batteryPeakShaver.stateOfChargeHigh', active: true } },
      { observations: { code: 'batteryPeakShaver.stateOfChargeLow', active: true } },
      { observations: { code: 'batteryPeakShaver.stateOfChargeHigh', active: false } },
    ]);
  });

  it('limits EV chargers when the batteries cannot cover a peak, at evAssetControlLoopSleep', () => {
    const { loop, config: device } = loopOf({ ...config, evAssetIndices: [4], evAssetControlLoopSleep: 5_000 });
    const ev = readable({ activePower: -40_000, controllableRange: { min: -66_000, max: 0 } });
    // 80 kW import while the battery gives 50 kW and the EV draws 40 kW: the site itself takes 90 kW, so the EV may draw 20 kW.
    const first = setpoints(loop.step(snapshot(device, 0, [meter(80_000), undefined, undefined, battery(50_000), ev])));
    expect(first).toEqual([
      [3, 50_000],
      [4, -20_000],
    ]);
    // Within 5 s the EV is not steered again.
    expect(setpoints(loop.step(snapshot(device, 1_000, [meter(80_000), undefined, undefined, battery(50_000), ev])))).toEqual([[3, 50_000]]);
  });
});

describe('proportionalPeakShaver', () => {
  it('moves the discharge by gain times the excess over the limit less its headroom, and releases at 0', () => {
    const { loop, config: device } = loopOf({
      type: 'proportionalPeakShaver',
      meterAssetIndex: 0,
      batteryAssetIndices: [3],
      activePowerLimit: 60_000,
      gain: 0.5,
    });
    // The same headroom fed the same site (meter plus discharge): the battery declares no response time.
    const mirror = new Headroom(0);
    const step = (at: number, meterW: number, batteryW: number): [number, number | null][] => {
      mirror.observe(meterW + batteryW);
      return setpoints(loop.step(snapshot(device, at, [meter(meterW), undefined, undefined, battery(batteryW)])));
    };
    // A quiet site under the limit (±50 W of noise) for 100 s: nothing to shave, and the headroom knows its noise.
    for (let at = 0; at < 100_000; at += 100) {
      expect(step(at, at % 200 === 0 ? 50_000 : 50_100, 0)).toEqual([[3, null]]);
    }
    expect(mirror.margin).toBeCloseTo(350, 6);
    expect(step(100_000, 70_000, 0)).toEqual([[3, Math.round(0.5 * (70_000 - (60_000 - mirror.margin)))]]);
    expect(step(100_100, 65_000, 5_000)).toEqual([[3, Math.round(5_000 + 0.5 * (65_000 - (60_000 - mirror.margin)))]]);
    expect(step(100_200, 40_000, 7_500)).toEqual([[3, null]]);
    expect(valid(loop.statusReport(new Date(100_200)))).toMatchObject({
      type: 'proportionalPeakShaverStatus',
      observations: { state: 'idle', consumptionLimit: 60_000 },
    });
  });
});

describe('currentLimiter and batteryCurrentLimiter', () => {
  it('limits an EV by the headroom of the highest phase current, three phases at 230 V', () => {
    const { loop, config: device } = loopOf({
      type: 'currentLimiter',
      meterAssetIndex: 0,
      limitableAssetIndices: [4],
      contractualLimit: { consumption: 80, feedIn: 80 },
    });
    const ev = readable({ activePower: -60_000, controllableRange: { min: -66_000, max: 0 } });
    // 20 A over the limit on L1: 20 * 690 W less drawing.
    expect(setpoints(loop.step(snapshot(device, 0, [meter(62_100, [100, 90, 80]), undefined, undefined, undefined, ev])))).toEqual([[4, -46_200]]);
    expect(valid(loop.statusReport(new Date(0)))).toMatchObject({
      type: 'currentLimiterStatus',
      observations: { phaseCurrent: { l1: 100, l2: 90, l3: 80 }, currentLimit: 80, consumptionLimit: 55_200 },
    });
  });

  it('discharges a battery against phase currents', () => {
    const { loop, config: device } = loopOf({
      type: 'batteryCurrentLimiter',
      meterAssetIndex: 0,
      batteryAssetIndices: [3],
      contractualLimit: { consumption: 80, feedIn: 80 },
    });
    expect(setpoints(loop.step(snapshot(device, 0, [meter(62_100, [100, 90, 80]), undefined, undefined, battery(0)])))).toEqual([[3, 13_800]]);
  });

  it('reads magnitudes with the sign of the meter power', () => {
    const { loop, config: device } = loopOf({
      type: 'batteryCurrentLimiter',
      meterAssetIndex: 0,
      batteryAssetIndices: [3],
      contractualLimit: { consumption: 80, feedIn: 80 },
    });
    expect(setpoints(loop.step(snapshot(device, 0, [meter(-62_100, [100, 90, 80]), undefined, undefined, battery(0)])))).toEqual([[3, -13_800]]);
    expect(valid(loop.statusReport(new Date(0)))).toMatchObject({
      type: 'batteryCurrentLimiterStatus',
      observations: { phaseCurrent: { l1: -100, l2: -90, l3: -80 }, stateOfCharge: 50 },
    });
  });
});

describe('generatorBatteryCharger', () => {
  it('starts the generator at the start state of charge and stops it at the stop one after the minimum runtime', () => {
    const { loop, config: device } = loopOf({
      type: 'generatorBatteryCharger',
      generatorAssetIndex: 5,
      batteryAssetIndices: [3],
      startStateOfCharge: 20,
      stopStateOfCharge: 80,
    });
    const generator = readable({ activePower: 18_000, controllableRange: { min: 0, max: 20_000 } });
    const start = loop.step(snapshot(device, 0, [undefined, undefined, undefined, battery(0, 20), undefined, generator]));
    expect(start).toEqual({ setpoints: new Map([[3, -18_000]]), commands: new Map([[5, { kind: 'generator', run: true }]]) });
    // At 80 % after 30 minutes: the generator's minimumRuntime of 60 minutes keeps it running.
    const early = loop.step(snapshot(device, 30 * 60_000, [undefined, undefined, undefined, battery(-18_000, 80), undefined, generator]));
    expect(early).toEqual({ setpoints: new Map([[3, -18_000]]), commands: new Map() });
    const stop = loop.step(snapshot(device, 60 * 60_000, [undefined, undefined, undefined, battery(-18_000, 81), undefined, generator]));
    expect(stop).toEqual({ setpoints: new Map([[3, null]]), commands: new Map([[5, { kind: 'generator', run: false }]]) });
    expect(valid(loop.statusReport(new Date(0)))).toMatchObject({
      type: 'generatorBatteryChargerStatus',
      observations: { generatorRunning: false, stateOfCharge: 81 },
    });
  });
});

describe('Headroom', () => {
  it('keeps 3.5 standard deviations of the step-to-step change, widened by the square root of the response steps', () => {
    const quick = new Headroom(1);
    const slow = new Headroom(10);
    for (let step = 0; step < 20_000; step += 1) {
      quick.observe(step % 2 === 0 ? 0 : 100);
      slow.observe(step % 2 === 0 ? 0 : 100);
    }
    expect(quick.margin).toBeCloseTo(350, 3);
    expect(slow.margin).toBeCloseTo(350 * Math.sqrt(10), 3);
  });

  it('learns the spread from the plain mean of its first thousand changes, then forgets slowly', () => {
    const headroom = new Headroom(1);
    // Ten changes of 100: the plain mean square is 10,000 at once (a weight of 0.001 from zero would give 99.5).
    for (let step = 0; step <= 10; step += 1) {
      headroom.observe(step % 2 === 0 ? 0 : 100);
    }
    expect(headroom.margin).toBeCloseTo(350, 9);
    // Past the first 1,000 changes each weighs 0.001: one change of 0 takes 0.1 % off the mean square.
    for (let step = 11; step <= 1_000; step += 1) {
      headroom.observe(step % 2 === 0 ? 0 : 100);
    }
    expect(headroom.margin).toBeCloseTo(350, 9);
    headroom.observe(0);
    expect(headroom.margin).toBeCloseTo(3.5 * Math.sqrt(10_000 * 0.999), 9);
  });
});

describe('deliveryWindow', () => {
  it('keeps the headroom below both limits, at most half the band between them so the window never turns over', () => {
    // 90 kW drawn with the assets at 0, limits 50 kW consumption and 10 kW feed-in.
    expect(deliveryWindow(90_000, 0, { consumption: 50_000, feedIn: 10_000 }, 2_000)).toEqual({ low: 42_000, high: 98_000 });
    expect(deliveryWindow(90_000, 0, { consumption: 50_000, feedIn: 10_000 }, 105_000)).toEqual({ low: 70_000, high: 70_000 });
    // With one limit only, the headroom is kept whole.
    expect(deliveryWindow(90_000, 0, { consumption: 50_000, feedIn: null }, 105_000)).toEqual({ low: 145_000, high: Infinity });
  });
});

describe('ramp-aware setpoints', () => {
  it('gives the way the limits moved the assets', () => {
    const flex = [{ index: 1, free: 60_000, min: 0, max: 100_000 }];
    expect(allocate([flex], -Infinity, 50_000)).toEqual({ setpoints: new Map([[1, 50_000]]), unmet: 0, direction: -1 });
    expect(allocate([flex], 70_000, Infinity)).toEqual({ setpoints: new Map([[1, 70_000]]), unmet: 0, direction: 1 });
    expect(allocate([flex], 0, 70_000)).toEqual({ setpoints: new Map([[1, null]]), unmet: 0, direction: 0 });
  });

  it('asks an asset that lags for its power plus the gap over the share it covers in a step, in the way the limits asked only', () => {
    // A 1 s response covers 1 - e^-0.1 of the gap in a 0.1 s step.
    expect(responseShare(100, 1_000)).toBeCloseTo(0.095163, 6);
    expect(responseShare(100, 0)).toBe(1);
    const flex = [
      { index: 1, free: 60_000, min: 0, max: 100_000 },
      { index: 2, free: 60_000, min: 0, max: 100_000 },
      { index: 3, free: 60_000, min: 0, max: 100_000 },
    ];
    const power = new Map([
      [1, 60_000],
      [2, 40_000],
      [3, 60_000],
    ]);
    const setpoints = new Map<number, number | null>([
      [1, 59_000],
      [2, 45_000],
      [3, 40_000],
    ]);
    leadSetpoints(
      setpoints,
      flex,
      -1,
      (index) => power.get(index) ?? null,
      () => 0.1,
    );
    // 1: 60 kW less 1 kW / 0.1; 2: below its cap already, not led; 3: 60 kW less 200 kW, held at its range.
    expect(setpoints).toEqual(
      new Map([
        [1, 50_000],
        [2, 45_000],
        [3, 0],
      ]),
    );
    const untouched = new Map<number, number | null>([[1, 59_000]]);
    leadSetpoints(
      untouched,
      flex,
      0,
      () => 60_000,
      () => 0.1,
    );
    leadSetpoints(
      untouched,
      flex,
      1,
      () => 60_000,
      () => 0.1,
    );
    leadSetpoints(
      untouched,
      flex,
      -1,
      () => 60_000,
      () => 1,
    );
    expect(untouched).toEqual(new Map([[1, 59_000]]));
  });
});

describe('ResponseLearner', () => {
  it('gives the declared share until it has seen the asset answer a large enough gap, then what it saw', () => {
    const learner = new ResponseLearner(0.5, 1_000, 'producer');
    expect(learner.share).toBe(0.5);
    learner.observe(60_000, null);
    // Asked 50 kW at 60 kW (a 10 kW gap down), it went to 59 kW: a tenth of the gap.
    learner.observe(59_000, 50_000);
    expect(learner.share).toBeCloseTo(0.1, 12);
    expect(learner.steps).toBeCloseTo(-1 / Math.log(0.9), 12);
    // Then a fifth: weighted 0.1, 0.1 + 0.1 × (0.2 − 0.1).
    learner.observe(57_000, 49_000);
    expect(learner.share).toBeCloseTo(0.11, 12);
  });

  it('leaves out small gaps, a producer’s cap above its power, and moves away from the setpoint', () => {
    const learner = new ResponseLearner(0.5, 1_000, 'producer');
    learner.observe(60_000, null);
    learner.observe(59_900, 59_500);
    learner.observe(60_900, 70_000);
    learner.observe(61_000, 50_000);
    expect(learner.share).toBe(0.5);
    const battery = new ResponseLearner(1, 1_000, 'battery');
    battery.observe(0, null);
    battery.observe(3_000, 10_000);
    expect(battery.share).toBeCloseTo(0.3, 12);
    expect(new ResponseLearner(1, 1_000, 'battery').steps).toBe(0);
  });
});

describe('createControlLoop', () => {
  it('makes the optimizer loop of edge/optimizer', async () => {
    const config = deviceConfig(assets, [
      { type: 'optimizer', topology: { name: 'site', assets: { controllable: [3], powerMeterable: [{ assetIndex: 0, meter: 'net' }] } } },
    ]);
    const [loopConfig] = config.activeControl;
    const loop = loopConfig === undefined ? null : createControlLoop(0, loopConfig, config);
    expect(loop?.type).toBe('optimizer');
    await loop?.close();
  });

  it.each([
    ['afrrLimiter', { type: 'afrrLimiter', meterAssetIndex: 0, batteryAssetIndices: [3] }],
    ['zonbalansPowerLimiter', { type: 'zonbalansPowerLimiter', meterAssetIndex: 0, limitableAssetIndices: [1], contractualLimit: { feedIn: 10_000 } }],
    ['gridOperatorHedno', { type: 'gridOperatorHedno', meterAssetIndex: 0, limitableAssetIndices: [1, 2] }],
  ])('makes the %s loop', async (type, loopConfig) => {
    const config = deviceConfig(assets, [loopConfig]);
    const [parsed] = config.activeControl;
    const loop = parsed === undefined ? null : createControlLoop(0, parsed, config);
    expect(loop?.type).toBe(type);
    expect(valid(loop?.statusReport(new Date(0)) ?? ({} as DeviceReport))).toMatchObject({ type: `${type}Status`, observations: { state: 'idle' } });
    await loop?.close();
  });

  it('makes the cascade, reservation, apparent power and temperature limiters (issue 20)', () => {
    const config = deviceConfig(assets, [
      {
        type: 'cascadeBatteryPowerLimiter',
        meterAssetIndex: 0,
        primaryBatteryAssetIndices: [3],
        secondaryBatteryAssetIndices: [6],
        contractualLimit: { consumption: 1 },
      },
      { type: 'batteryPowerReservationLimiter', meterAssetIndex: 0, batteryAssetIndices: [3], reservedPower: { discharge: 1 } },
      { type: 'powerReservationLimiter', meterAssetIndex: 0, limitableAssetIndices: [1], monitoredCapacity: 1, reservedPower: {} },
      { type: 'apparentPowerLimiter', meterAssetIndex: 0, limitableAssetIndices: [1], apparentPowerLimit: 1 },
      {
        type: 'temperaturePowerLimiter',
        temperatureSensorAssetIndex: 0,
        temperatureName: 'x',
        limitableAssetIndices: [1],
        derating: [{ temperature: 70, activePowerPercentage: 50 }],
      },
    ]);
    expect(config.activeControl.map((loop, index) => createControlLoop(index, loop, config)?.type)).toEqual([
      'cascadeBatteryPowerLimiter',
      'batteryPowerReservationLimiter',
      'powerReservationLimiter',
      'apparentPowerLimiter',
      'temperaturePowerLimiter',
    ]);
  });

  it('makes a loop of every type the config accepts (the example config holds one of each)', async () => {
    const config = parseDeviceConfig(exampleDeviceConfig);
    const loops = config.activeControl.map((loop, index) => createControlLoop(index, loop, config));
    expect([...new Set(loops.map((loop) => loop?.type ?? null))].sort()).toEqual([...controlLoopTypes].sort());
    await Promise.all(loops.map((loop) => loop?.close()));
  });
});
