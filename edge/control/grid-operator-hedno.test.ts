import type { AssetState } from '../drivers/driver';
import { GridOperatorHedno } from './grid-operator-hedno';
import { deviceConfig, readable, snapshot, unreadable, valid } from './test-support';

// 0 meter, 1 solar 50 kW with a 40 % fallback, 2 solar 10 kW
const assets = [
  { type: 'demo-meter' },
  { type: 'demo-solar', nominalActivePower: 50_000, fallbackLimit: { activePowerPercentage: 40 } },
  { type: 'demo-solar', nominalActivePower: 10_000 },
];

function loopOf(extra: Record<string, unknown> = {}): { loop: GridOperatorHedno; config: ReturnType<typeof deviceConfig> } {
  const config = deviceConfig(assets, [{ type: 'gridOperatorHedno', meterAssetIndex: 0, limitableAssetIndices: [1, 2], ...extra }]);
  const [loopConfig] = config.activeControl;
  if (loopConfig?.type !== 'gridOperatorHedno') {
    throw new Error('no loop');
  }
  return { loop: new GridOperatorHedno(0, loopConfig, config), config };
}

const solar = (power: number): AssetState => readable({ activePower: power, availablePower: power, controllableRange: { min: 0, max: power } });
// Exporting 30 kW: 40 kW + 10 kW of PV over a 20 kW site load.
const states = (meter = -30_000): (AssetState | undefined)[] => [readable({ activePower: meter }), solar(40_000), solar(10_000)];
const minute = 60_000;
const limit = { consumption: null, feedIn: 20_000 };

function rounded(map: Map<number, number | null>): [number, number | null][] {
  return [...map.entries()].map(([index, value]) => [index, value === null ? null : Math.round(value)]);
}

describe('gridOperatorHedno', () => {
  it("limits its assets in proportion to HEDNO's limit, in the gridOperator layer", () => {
    const { loop, config } = loopOf();
    const step = loop.step(snapshot(config, 0, states(), { scheduledLimit: limit }));
    expect(step.layer).toBe('gridOperator');
    // 10 kW less feed-in, from 50 kW of PV: 8 kW and 2 kW.
    expect(rounded(step.setpoints)).toEqual([
      [1, 32_000],
      [2, 8_000],
    ]);
    expect(valid(loop.statusReport(new Date(0)))).toMatchObject({
      type: 'gridOperatorHednoStatus',
      observations: { state: 'active', localMode: false, gridOperatorLimit: 20_000, feedInLimit: 20_000, monitoredPower: -30_000 },
    });
  });

  it('releases its assets while no limit was ever set', () => {
    const { loop, config } = loopOf();
    expect(rounded(loop.step(snapshot(config, 0, states())).setpoints)).toEqual([
      [1, null],
      [2, null],
    ]);
    expect(loop.statusReport(new Date(0))).toMatchObject({ observations: { state: 'idle', gridOperatorLimit: null } });
  });

  it('keeps the last limit through the grace period, hints a router restart, then takes the fallback; a new limit clears both', () => {
    const { loop, config } = loopOf({ gracePeriod: 45, routerRestartTimeout: 10 });
    loop.step(snapshot(config, 0, states(), { scheduledLimit: limit }));
    // 9 minutes without a limit: still held, no alarm.
    expect(rounded(loop.step(snapshot(config, 9 * minute, states())).setpoints)).toEqual([
      [1, 32_000],
      [2, 8_000],
    ]);
    expect(loop.drainReports(new Date(9 * minute))).toEqual([]);
    loop.step(snapshot(config, 10 * minute, states()));
    expect(loop.drainReports(new Date(10 * minute))).toMatchObject([{ observations: { code: 'activeControl.gridOperatorRouterRestartHint', active: true } }]);
    // 45 minutes: the fallback (40 % of 50 kW for asset 1; asset 2 held where the loop had it).
    const fallback = loop.step(snapshot(config, 45 * minute, states()));
    expect(rounded(fallback.setpoints)).toEqual([[1, 20_000]]);
    expect(loop.drainReports(new Date(45 * minute))).toEqual([
      {
        type: 'alarm',
        at: new Date(45 * minute).toISOString(),
        observations: {
          code: 'activeControl.gridOperatorLost',
          level: 'warning',
          active: true,
          description: 'control loop 0: no grid operator limit for the grace period of 45 min: assets at their fallback',
        },
      },
    ]);
    expect(loop.statusReport(new Date(45 * minute))).toMatchObject({ observations: { state: 'fallback', gridOperatorLimit: 20_000 } });
    // HEDNO is back.
    loop.step(snapshot(config, 46 * minute, states(), { scheduledLimit: { consumption: null, feedIn: 25_000 } }));
    expect(loop.drainReports(new Date(46 * minute))).toMatchObject([
      { observations: { code: 'activeControl.gridOperatorRouterRestartHint', active: false } },
      { observations: { code: 'activeControl.gridOperatorLost', active: false } },
    ]);
    expect(loop.statusReport(new Date(46 * minute))).toMatchObject({ observations: { state: 'active', gridOperatorLimit: 25_000 } });
  });

  it('takes hedno parameters: local mode releases the layer and stops the clocks; other kinds are refused', () => {
    const { loop, config } = loopOf();
    loop.step(snapshot(config, 0, states(), { scheduledLimit: limit }));
    expect(loop.applyParameters({ type: 'demoBattery', errors: [], warnings: [] })).toBe(false);
    expect(loop.applyParameters({ type: 'hedno', localMode: true })).toBe(true);
    expect(rounded(loop.step(snapshot(config, 100, states(), { scheduledLimit: limit })).setpoints)).toEqual([
      [1, null],
      [2, null],
    ]);
    // No limit for two hours in local mode: no alarm.
    loop.step(snapshot(config, 120 * minute, states()));
    expect(loop.drainReports(new Date(120 * minute))).toEqual([]);
    expect(valid(loop.statusReport(new Date(120 * minute)))).toMatchObject({ observations: { state: 'idle', localMode: true, gridOperatorLimit: null } });
    expect(loop.applyParameters({ type: 'hedno', localMode: false })).toBe(true);
    expect(rounded(loop.step(snapshot(config, 121 * minute, states(), { scheduledLimit: limit })).setpoints)).toEqual([
      [1, 32_000],
      [2, 8_000],
    ]);
  });

  it('starts in local mode when the config says so', () => {
    const { loop, config } = loopOf({ localMode: true });
    expect(rounded(loop.step(snapshot(config, 0, states(), { scheduledLimit: limit })).setpoints)).toEqual([
      [1, null],
      [2, null],
    ]);
    expect(loop.statusReport(new Date(0))).toMatchObject({ observations: { localMode: true } });
  });

  it('holds, then falls back, when its meter is blind while a limit holds', () => {
    const { loop, config } = loopOf();
    loop.step(snapshot(config, 0, states(), { scheduledLimit: limit }));
    const blind = [unreadable, solar(32_000), solar(8_000)];
    expect(rounded(loop.step(snapshot(config, 100, blind, { scheduledLimit: limit })).setpoints)).toEqual([]);
    expect(rounded(loop.step(snapshot(config, 1_100, blind, { scheduledLimit: limit })).setpoints)).toEqual([[1, 20_000]]);
    expect(loop.statusReport(new Date(1_100))).toMatchObject({ observations: { state: 'fallback', unreadableAssets: [0], monitoredPower: null } });
  });
});
