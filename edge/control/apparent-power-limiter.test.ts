import { controlLoopSchema } from '../../contracts/device/control-loops';
import type { DeviceReport } from '../../contracts/hub/reports';
import { issuesOf } from '../../contracts/validation';
import type { AssetState } from '../drivers/driver';
import { activePowerWithin } from './apparent-power-limiter';
import { createControlLoop } from './index';
import type { ControlLoop } from './loop';
import { deviceConfig, readable, setpoints, snapshot, unreadable, valid } from './test-support';

// 0 grid meter, 1 solar 50 kW (fallback 40 %)
const assets = [{ type: 'demo-meter' }, { type: 'demo-solar', nominalActivePower: 50_000, fallbackLimit: { activePowerPercentage: 40 } }];
const apparent = { type: 'apparentPowerLimiter', meterAssetIndex: 0, limitableAssetIndices: [1], apparentPowerLimit: 50_000 };

function loopOf(): { loop: ControlLoop; config: ReturnType<typeof deviceConfig> } {
  const config = deviceConfig(assets, [apparent]);
  const [loopConfig] = config.activeControl;
  const made = loopConfig === undefined ? null : createControlLoop(0, loopConfig, config);
  if (made === null) {
    throw new Error('no loop');
  }
  return { loop: made, config };
}

const meter = (power: number, reactivePower?: number): AssetState =>
  readable({ activePower: power, ...(reactivePower === undefined ? {} : { reactivePower }) });
const solar = (power: number, available: number): AssetState =>
  readable({ activePower: power, availablePower: available, controllableRange: { min: 0, max: available } });

function alarmOf(report: DeviceReport): [string, boolean] {
  return report.type === 'alarm' ? [report.observations.code, report.observations.active] : ['', false];
}

describe('activePowerWithin', () => {
  it('gives the active power that keeps sqrt(P² + Q²) at the limit, 0 when Q alone reaches it', () => {
    expect(activePowerWithin(50_000, 30_000)).toBe(40_000);
    expect(activePowerWithin(50_000, -30_000)).toBe(40_000);
    expect(activePowerWithin(50_000, 60_000)).toBe(0);
  });
});

describe('apparentPowerLimiter', () => {
  it('leaves the PV free while the apparent power is within the limit', () => {
    const { loop, config } = loopOf();
    // P -40 kW, Q 30 kvar: exactly 50 kVA.
    expect(setpoints(loop.step(snapshot(config, 0, [meter(-40_000, 30_000), solar(50_000, 50_000)])))).toEqual([[1, null]]);
    expect(valid(loop.statusReport(new Date(0))).observations).toMatchObject({
      state: 'idle',
      apparentPower: 50_000,
      apparentPowerLimit: 50_000,
      feedInLimit: 40_000,
      consumptionLimit: 40_000,
    });
  });

  it('limits the active power to what the reactive power leaves of the limit', () => {
    const { loop, config } = loopOf();
    // Q 40 kvar leaves 30 kW; the site takes 10 kW, so the PV may give 40 kW.
    expect(setpoints(loop.step(snapshot(config, 0, [meter(-40_000, 40_000), solar(50_000, 50_000)])))).toEqual([[1, 40_000]]);
    expect(loop.statusReport(new Date(0)).observations).toMatchObject({ state: 'active', apparentPower: Math.hypot(40_000, 40_000), feedInLimit: 30_000 });
  });

  it('keeps a feed-in limit the cloud scheduled for the loop when it is tighter', () => {
    const { loop, config } = loopOf();
    const scheduledLimit = { consumption: null, feedIn: 20_000 };
    expect(setpoints(loop.step(snapshot(config, 0, [meter(-40_000, 30_000), solar(50_000, 50_000)], { scheduledLimit })))).toEqual([[1, 30_000]]);
    expect(loop.statusReport(new Date(0)).observations).toMatchObject({ feedInLimit: 20_000, consumptionLimit: 40_000 });
  });

  it('holds the active power at 0 at the meter when the reactive power alone is beyond the limit', () => {
    const { loop, config } = loopOf();
    expect(setpoints(loop.step(snapshot(config, 0, [meter(-40_000, 60_000), solar(50_000, 50_000)])))).toEqual([[1, 10_000]]);
  });

  it('counts a meter without reactive power as unreadable, and falls back after a second', () => {
    const { loop, config } = loopOf();
    expect(setpoints(loop.step(snapshot(config, 0, [meter(-40_000), solar(50_000, 50_000)])))).toEqual([]);
    expect(setpoints(loop.step(snapshot(config, 1_000, [unreadable, solar(50_000, 50_000)])))).toEqual([[1, 20_000]]);
    expect(valid(loop.statusReport(new Date(1_000))).observations).toMatchObject({ state: 'fallback', unreadableAssets: [0], apparentPower: null });
  });

  it('raises feed-in too high (physical) when the apparent power stays beyond the limit while feeding in', () => {
    const { loop, config } = loopOf();
    const codes: [string, boolean][] = [];
    for (let step = 0; step < 121; step += 1) {
      loop.step(snapshot(config, step * 100, [meter(-45_000, 30_000), unreadable]));
      codes.push(...loop.drainReports(new Date(0)).flatMap((report) => (valid(report).type === 'alarm' ? [alarmOf(report)] : [])));
    }
    expect(codes).toEqual([
      ['activeControl.assetsTooOftenUnlimitable', true],
      ['activeControl.powerFeedInTooHigh.physical', true],
    ]);
  });

  it('refuses a limit that is not positive', () => {
    expect(issuesOf(controlLoopSchema, { ...apparent, apparentPowerLimit: -1 })).toEqual([
      { path: 'apparentPowerLimit', message: 'apparentPowerLimit must be a positive number' },
    ]);
  });
});
