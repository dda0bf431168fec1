import { controlLoopSchema, primarySecondaryOverlapMessage } from '../../contracts/device/control-loops';
import type { DeviceReport } from '../../contracts/hub/reports';
import { issuesOf } from '../../contracts/validation';
import type { AssetState } from '../drivers/driver';
import { createControlLoop } from './index';
import type { ControlLoop } from './loop';
import { deviceConfig, readable, setpoints, snapshot, unreadable, valid } from './test-support';

// 0 grid meter, 1 primary battery 50 kW, 2 secondary battery 50 kW (fallback -1 kW), 3 secondary battery 20 kW
const assets = [
  { type: 'demo-meter' },
  { type: 'demo-battery', nominalActivePower: 50_000 },
  { type: 'demo-battery', nominalActivePower: 50_000, fallbackSetpoint: -1_000 },
  { type: 'demo-battery', nominalActivePower: 20_000 },
];
const cascade = {
  type: 'cascadeBatteryPowerLimiter',
  meterAssetIndex: 0,
  primaryBatteryAssetIndices: [1],
  secondaryBatteryAssetIndices: [2, 3],
  contractualLimit: { consumption: 50_000, feedIn: 20_000 },
};

function loopOf(extra: Record<string, unknown> = {}): { loop: ControlLoop; config: ReturnType<typeof deviceConfig> } {
  const config = deviceConfig(assets, [{ ...cascade, ...extra }]);
  const [loopConfig] = config.activeControl;
  const loop = loopConfig === undefined ? null : createControlLoop(0, loopConfig, config);
  if (loop === null) {
    throw new Error('no loop');
  }
  return { loop, config };
}

const meter = (power: number): AssetState => readable({ activePower: power });
const battery = (power: number, max = 50_000, stateOfCharge = 50): AssetState =>
  readable({ activePower: power, stateOfCharge, controllableRange: { min: -max, max } });

/** The alarms among reports: code, active, and the asset named. */
function alarms(reports: readonly DeviceReport[]): [string, boolean, number | undefined][] {
  return reports.flatMap((report) =>
    report.type === 'alarm' ? [[report.observations.code, report.observations.active, (report as { asset?: number }).asset]] : [],
  );
}

describe('cascadeBatteryPowerLimiter', () => {
  it('leaves the batteries to their baseline while the meter is within the limits', () => {
    const { loop, config } = loopOf();
    expect(setpoints(loop.step(snapshot(config, 0, [meter(30_000), battery(0), battery(0), battery(0, 20_000)])))).toEqual([
      [1, null],
      [2, null],
      [3, null],
    ]);
    expect(loop.statusReport(new Date(0)).observations).toMatchObject({ state: 'idle', monitoredPower: 30_000 });
  });

  it('discharges the primary battery first, for the whole excess when it can', () => {
    const { loop, config } = loopOf();
    expect(setpoints(loop.step(snapshot(config, 0, [meter(60_000), battery(0), battery(0), battery(0, 20_000)])))).toEqual([
      [1, 10_000],
      [2, null],
      [3, null],
    ]);
  });

  it('takes what the primary battery cannot give from the secondary ones, in proportion to their room', () => {
    const { loop, config } = loopOf();
    // The primary can discharge 4 kW more (nearly empty); 20 kW over the limit: 16 kW from the secondaries, 50:20.
    const step = loop.step(snapshot(config, 0, [meter(70_000), battery(0, 4_000, 6), battery(0), battery(0, 20_000)]));
    expect(setpoints(step)).toEqual([
      [1, 4_000],
      [2, 11_429],
      [3, 4_571],
    ]);
    const report = valid(loop.statusReport(new Date(0)));
    expect(report.observations).toMatchObject({ state: 'active', consumptionLimit: 50_000, feedInLimit: 20_000, stateOfCharge: 106 / 3, batteryPower: 0 });
  });

  it('charges on feed-in above the limit, keeping the deadband, from the cloud baseline', () => {
    const { loop, config } = loopOf({ deadband: 1_000 });
    // Baseline: the cloud dispatches the primary at 5 kW. Feed-in 30 kW: the batteries must take 11 kW more (10 kW + deadband).
    const baseline = [null, 5_000, null, null];
    expect(setpoints(loop.step(snapshot(config, 0, [meter(-30_000), battery(5_000), battery(0), battery(0, 20_000)], { baseline })))).toEqual([
      [1, -6_000],
      [2, null],
      [3, null],
    ]);
  });

  it('reports a battery it cannot read as unlimitable and moves the others', () => {
    const { loop, config } = loopOf();
    expect(setpoints(loop.step(snapshot(config, 0, [meter(60_000), unreadable, battery(0), battery(0, 20_000)])))).toEqual([
      [2, 7_143],
      [3, 2_857],
    ]);
    expect(loop.statusReport(new Date(0)).observations).toMatchObject({ unlimitableAssets: [1] });
  });

  it('holds its setpoints for a second of an unreadable meter, then falls back: fallbackSetpoint, or idle', () => {
    const { loop, config } = loopOf();
    const states = [unreadable, battery(10_000), battery(0), battery(0, 20_000)];
    expect(setpoints(loop.step(snapshot(config, 0, states)))).toEqual([]);
    expect(setpoints(loop.step(snapshot(config, 900, states)))).toEqual([]);
    expect(setpoints(loop.step(snapshot(config, 1_000, states)))).toEqual([
      [1, 0],
      [2, -1_000],
      [3, 0],
    ]);
    expect(valid(loop.statusReport(new Date(1_000))).observations).toMatchObject({ state: 'fallback', monitoredPower: null, unreadableAssets: [0] });
  });

  it('raises and clears the meter, unlimitable and consumption alarms of activeControl', () => {
    const { loop, config } = loopOf();
    const codes = (at: number) => alarms(loop.drainReports(new Date(at)).map(valid));
    // 61 of the 600 steps of a minute unreadable: more than 10 %.
    for (let step = 0; step < 60; step += 1) {
      loop.step(snapshot(config, step * 100, [unreadable, battery(0), battery(0), battery(0, 20_000)]));
    }
    expect(codes(6_000)).toEqual([]);
    loop.step(snapshot(config, 6_000, [unreadable, battery(0), battery(0), battery(0, 20_000)]));
    expect(codes(6_000)).toEqual([['activeControl.meterTooOftenUnreadable', true, 0]]);
    // Consumption 80 kW with every battery empty: over the contractual limit, and unlimitable batteries.
    for (let step = 0; step < 121; step += 1) {
      loop.step(snapshot(config, 70_000 + step * 100, [meter(80_000), unreadable, unreadable, unreadable]));
    }
    expect(codes(82_000)).toEqual([
      ['activeControl.meterTooOftenUnreadable', false, 0],
      ['activeControl.assetsTooOftenUnlimitable', true, undefined],
      ['activeControl.powerConsumptionTooHigh.contractual', true, undefined],
    ]);
  });

  it('refuses a battery listed as primary and secondary', () => {
    expect(issuesOf(controlLoopSchema, { ...cascade, secondaryBatteryAssetIndices: [2, 1] })).toEqual([
      { path: 'secondaryBatteryAssetIndices', message: primarySecondaryOverlapMessage },
    ]);
    expect(issuesOf(controlLoopSchema, { ...cascade, secondaryBatteryAssetIndices: [] })).toEqual([
      { path: 'secondaryBatteryAssetIndices', message: 'secondaryBatteryAssetIndices field must have at least 1 items' },
    ]);
  });
});
