import { controlLoopSchema } from '../../contracts/device/control-loops';
import type { DeviceReport } from '../../contracts/hub/reports';
import { issuesOf } from '../../contracts/validation';
import type { AssetState } from '../drivers/driver';
import { createControlLoop } from './index';
import type { ControlLoop } from './loop';
import { unreservedRanges } from './reservation-limiters';
import { deviceConfig, readable, setpoints, snapshot, unreadable, valid } from './test-support';

// 0 grid meter, 1 battery 50 kW, 2 battery 50 kW (fallback -1 kW), 3 solar 50 kW (fallback 40 %)
const assets = [
  { type: 'demo-meter' },
  { type: 'demo-battery', nominalActivePower: 50_000 },
  { type: 'demo-battery', nominalActivePower: 50_000, fallbackSetpoint: -1_000 },
  { type: 'demo-solar', nominalActivePower: 50_000, fallbackLimit: { activePowerPercentage: 40 } },
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

const meter = (power: number): AssetState => readable({ activePower: power });
const battery = (power: number, stateOfCharge = 50): AssetState =>
  readable({ activePower: power, stateOfCharge, controllableRange: { min: -50_000, max: 50_000 } });
const solar = (power: number, available: number): AssetState =>
  readable({ activePower: power, availablePower: available, controllableRange: { min: 0, max: available } });
/** Noon local time on a Monday. */
const noon = new Date(2026, 5, 22, 12, 0, 0).getTime();

function alarms(reports: readonly DeviceReport[]): [string, boolean][] {
  return reports.flatMap((report) => (report.type === 'alarm' ? [[report.observations.code, report.observations.active]] : []));
}

describe('unreservedRanges', () => {
  it('gives up the reservation in proportion to each range, never past 0', () => {
    expect(
      unreservedRanges(
        [
          { min: -50_000, max: 50_000 },
          { min: -10_000, max: 0 },
        ],
        { charge: 30_000, discharge: 20_000 },
      ),
    ).toEqual([
      { min: -25_000, max: 30_000 },
      { min: -5_000, max: 0 },
    ]);
    expect(unreservedRanges([{ min: -50_000, max: 50_000 }], { charge: 80_000, discharge: 0 })).toEqual([{ min: -0, max: 50_000 }]);
  });
});

describe('batteryPowerReservationLimiter', () => {
  const reservation = {
    type: 'batteryPowerReservationLimiter',
    meterAssetIndex: 0,
    batteryAssetIndices: [1],
    reservedPower: { charge: 10_000, discharge: 20_000 },
  };

  it('keeps a dispatch out of the reserve: held at the unreserved power, released within it', () => {
    const { loop, config } = loopOf(reservation);
    expect(setpoints(loop.step(snapshot(config, noon, [meter(0), battery(0)], { baseline: [null, 45_000] })))).toEqual([[1, 30_000]]);
    expect(setpoints(loop.step(snapshot(config, noon, [meter(0), battery(0)], { baseline: [null, -45_000] })))).toEqual([[1, -40_000]]);
    expect(setpoints(loop.step(snapshot(config, noon, [meter(0), battery(10_000)], { baseline: [null, 10_000] })))).toEqual([[1, null]]);
    const report = valid(loop.statusReport(new Date(noon)));
    // 50 kW of discharge power, 10 kW of it used: 40 kW free.
    expect(report.observations).toMatchObject({ state: 'idle', reservedPower: 40_000, stateOfCharge: 50, batteryPower: 10_000 });
  });

  it('keeps the soft limit with the unreserved power only', () => {
    const { loop, config } = loopOf({ ...reservation, softLimit: { consumption: 50_000, feedIn: 10_000 } });
    expect(setpoints(loop.step(snapshot(config, noon, [meter(60_000), battery(0)])))).toEqual([[1, 10_000]]);
    // 40 kW over: only 30 kW is not reserved.
    expect(setpoints(loop.step(snapshot(config, noon, [meter(90_000), battery(0)])))).toEqual([[1, 30_000]]);
    // A loop of its own (the headroom learns the meter's moves): 25 kW feed-in, 15 kW over.
    const feedIn = loopOf({ ...reservation, softLimit: { consumption: 50_000, feedIn: 10_000 } });
    expect(setpoints(feedIn.loop.step(snapshot(feedIn.config, noon, [meter(-25_000), battery(0)])))).toEqual([[1, -15_000]]);
    expect(loop.statusReport(new Date(noon)).observations).toMatchObject({ state: 'active', consumptionLimit: 50_000, feedInLimit: 10_000 });
  });

  it('recharges below the state-of-charge range, keeping 10 % of the soft limit free, and covers the site above it', () => {
    const schedule = [{ start: '00:00', end: '23:59', min: 70, max: 90 }];
    const { loop, config } = loopOf({ ...reservation, stateOfChargeSchedule: schedule });
    expect(setpoints(loop.step(snapshot(config, noon, [meter(20_000), battery(0, 50)], { baseline: [null, 20_000] })))).toEqual([[1, -40_000]]);
    const limited = loopOf({ ...reservation, stateOfChargeSchedule: schedule, softLimit: { consumption: 50_000 } });
    // The site takes 20 kW: recharging may add 45 - 20 = 25 kW.
    expect(setpoints(limited.loop.step(snapshot(limited.config, noon, [meter(20_000), battery(0, 50)])))).toEqual([[1, -25_000]]);
    // Above the range: no charging; the site's 20 kW comes from the battery.
    expect(setpoints(loop.step(snapshot(config, noon, [meter(20_000), battery(0, 95)], { baseline: [null, -30_000] })))).toEqual([[1, 20_000]]);
  });

  it('falls back when its meter is unreadable for a second: the fallback setpoint kept out of the reserve', () => {
    const { loop, config } = loopOf({ ...reservation, batteryAssetIndices: [2], reservedPower: { charge: 49_500 } });
    expect(setpoints(loop.step(snapshot(config, noon, [unreadable, undefined, battery(0)])))).toEqual([]);
    expect(setpoints(loop.step(snapshot(config, noon + 1_000, [unreadable, undefined, battery(0)])))).toEqual([[2, -500]]);
    expect(valid(loop.statusReport(new Date(noon))).observations).toMatchObject({ state: 'fallback', unreadableAssets: [0] });
  });

  it('raises the unlimitable alarm when its battery cannot be read', () => {
    const { loop, config } = loopOf(reservation);
    const reports: DeviceReport[] = [];
    for (let step = 0; step < 61; step += 1) {
      loop.step(snapshot(config, noon + step * 100, [meter(0), unreadable]));
      reports.push(...loop.drainReports(new Date(noon)));
    }
    expect(alarms(reports.map(valid))).toEqual([['activeControl.assetsTooOftenUnlimitable', true]]);
    expect(loop.statusReport(new Date(noon)).observations).toMatchObject({ unlimitableAssets: [1], reservedPower: null });
  });

  it('refuses a config without a reservation or with a negative one', () => {
    const { reservedPower: _none, ...without } = reservation;
    expect(issuesOf(controlLoopSchema, without)).toEqual([{ path: 'reservedPower', message: 'reservedPower is a required field' }]);
    expect(issuesOf(controlLoopSchema, { ...reservation, reservedPower: { charge: -1 } })).toEqual([
      { path: 'reservedPower.charge', message: 'reservedPower.charge must be greater than or equal to 0' },
    ]);
  });
});

describe('powerReservationLimiter', () => {
  const reservation = {
    type: 'powerReservationLimiter',
    meterAssetIndex: 0,
    limitableAssetIndices: [3],
    monitoredCapacity: 50_000,
    reservedPower: { discharge: 15_000 },
  };

  it('keeps the reserved part of the capacity free: feed-in at most capacity less the reservation', () => {
    const { loop, config } = loopOf(reservation);
    // Feeding in 40 kW with 50 kW of PV: the site takes 10 kW, so 45 kW of PV keeps feed-in at 35 kW.
    expect(setpoints(loop.step(snapshot(config, 0, [meter(-40_000), undefined, undefined, solar(50_000, 50_000)])))).toEqual([[3, 45_000]]);
    expect(valid(loop.statusReport(new Date(0))).observations).toMatchObject({
      state: 'active',
      monitoredPower: -40_000,
      consumptionLimit: 50_000,
      feedInLimit: 35_000,
      reservedPower: 10_000,
    });
    expect(setpoints(loop.step(snapshot(config, 100, [meter(-20_000), undefined, undefined, solar(30_000, 30_000)])))).toEqual([[3, null]]);
  });

  it('allows no feed-in when the reservation takes the whole capacity', () => {
    const { loop, config } = loopOf({ ...reservation, reservedPower: { discharge: 60_000 } });
    expect(setpoints(loop.step(snapshot(config, 0, [meter(-5_000), undefined, undefined, solar(20_000, 20_000)])))).toEqual([[3, 15_000]]);
  });

  it('raises feed-in too high against the reservation (contractual) and the capacity (physical)', () => {
    const { loop, config } = loopOf(reservation);
    const reports: DeviceReport[] = [];
    // The PV cannot be read: feed-in stays at 40 kW, above the 35 kW the reservation allows, below the capacity.
    for (let step = 0; step < 121; step += 1) {
      loop.step(snapshot(config, step * 100, [meter(-40_000), undefined, undefined, unreadable]));
      reports.push(...loop.drainReports(new Date(step * 100)));
    }
    expect(alarms(reports.map(valid))).toEqual([
      ['activeControl.assetsTooOftenUnlimitable', true],
      ['activeControl.powerFeedInTooHigh.contractual', true],
    ]);
    for (let step = 121; step < 400; step += 1) {
      loop.step(snapshot(config, step * 100, [meter(-55_000), undefined, undefined, unreadable]));
      reports.push(...loop.drainReports(new Date(step * 100)));
    }
    expect(alarms(reports).slice(2)).toEqual([['activeControl.powerFeedInTooHigh.physical', true]]);
  });

  it('falls back to the assets fallback limit when its meter is unreadable for a second', () => {
    const { loop, config } = loopOf(reservation);
    loop.step(snapshot(config, 0, [unreadable, undefined, undefined, solar(30_000, 30_000)]));
    expect(setpoints(loop.step(snapshot(config, 1_000, [unreadable, undefined, undefined, solar(30_000, 30_000)])))).toEqual([[3, 20_000]]);
    expect(valid(loop.statusReport(new Date(1_000))).observations).toMatchObject({ state: 'fallback', reservedPower: null, monitoredPower: null });
  });

  it('refuses a capacity that is not positive', () => {
    expect(issuesOf(controlLoopSchema, { ...reservation, monitoredCapacity: 0 })).toEqual([
      { path: 'monitoredCapacity', message: 'monitoredCapacity must be a positive number' },
    ]);
  });
});
