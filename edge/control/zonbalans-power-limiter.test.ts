import { validateReport } from '../../contracts/hub/reports';
import type { AssetState } from '../drivers/driver';
import { deviceConfig, readable, snapshot, unreadable } from './test-support';
import { imbalanceSettlementPeriodMs, ZonbalansPowerLimiter } from './zonbalans-power-limiter';

// 0 meter, 1 solar 100 kW
const assets = [{ type: 'demo-meter' }, { type: 'demo-solar', nominalActivePower: 100_000, fallbackLimit: { activePowerPercentage: 25 } }];
const quarter = imbalanceSettlementPeriodMs;

function loopOf(limit: Record<string, unknown> = { feedIn: 30_000 }): { loop: ZonbalansPowerLimiter; config: ReturnType<typeof deviceConfig> } {
  const config = deviceConfig(assets, [{ type: 'zonbalansPowerLimiter', meterAssetIndex: 0, limitableAssetIndices: [1], contractualLimit: limit }]);
  const [loopConfig] = config.activeControl;
  if (loopConfig?.type !== 'zonbalansPowerLimiter') {
    throw new Error('no loop');
  }
  return { loop: new ZonbalansPowerLimiter(0, loopConfig, config), config };
}

const site = (meter: number, pv: number): (AssetState | undefined)[] => [
  readable({ activePower: meter }),
  readable({ activePower: pv, availablePower: pv, controllableRange: { min: 0, max: pv } }),
];

function setpoint(
  loop: ZonbalansPowerLimiter,
  config: ReturnType<typeof deviceConfig>,
  now: number,
  states: (AssetState | undefined)[],
): number | null | undefined {
  const value = loop.step(snapshot(config, now, states)).setpoints.get(1);
  return typeof value === 'number' ? Math.round(value) : value;
}

describe('zonbalansPowerLimiter', () => {
  it('at the start of a quarter hour allows the mean limit, and twice it at most when the quarter began quiet', () => {
    const { loop, config } = loopOf();
    // 90 kW of PV over a 20 kW load: 70 kW export; the allowance is 30 kW, so the PV is capped at 50 kW.
    expect(setpoint(loop, config, 4 * quarter, site(-70_000, 90_000))).toBe(50_000);
    expect(validateReport(loop.statusReport(new Date(4 * quarter)))).toMatchObject({ ok: true });
    expect(loop.statusReport(new Date(4 * quarter))).toMatchObject({
      type: 'zonbalansPowerLimiterStatus',
      observations: { state: 'active', feedInLimit: 30_000, monitoredPower: -70_000 },
    });
  });

  it('spreads the budget left over the time left of the quarter hour', () => {
    const { loop, config } = loopOf();
    const start = 8 * quarter;
    // Importing 10 kW (no sun) for the first half: the budget is 27 MJ plus 4.5 MJ given back, over 450 s: 70 kW, capped at 60 kW.
    setpoint(loop, config, start, site(10_000, 0));
    setpoint(loop, config, start + quarter / 2, site(10_000, 0));
    expect(loop.statusReport(new Date(start + quarter / 2))).toMatchObject({ observations: { feedInLimit: 60_000 } });
    expect(loop.fedInWh).toBeCloseTo(-1_250, 6);
    // Each reading counts until the next step. 100 s before the end (import until then): 27 MJ + 8 MJ over 100 s, capped at 60 kW.
    setpoint(loop, config, start + quarter - 100_000, site(-60_000, 80_000));
    expect(loop.statusReport(new Date(start + quarter - 100_000))).toMatchObject({ observations: { feedInLimit: 60_000 } });
    // Exporting 60 kW for 90 s more; then a new quarter hour starts afresh.
    setpoint(loop, config, start + quarter - 10_000, site(-60_000, 80_000));
    expect(loop.fedInWh).toBeCloseTo(-1_250 - (10_000 * 350) / 3600 + (60_000 * 90) / 3600, 6);
    setpoint(loop, config, start + quarter + 1_000, site(-60_000, 80_000));
    // 10 s of the old quarter and 1 s of the new one at 60 kW.
    expect(loop.fedInWh).toBeCloseTo((60_000 * 1) / 3600, 6);
    expect(loop.statusReport(new Date(start + quarter + 1_000))).toMatchObject({ observations: { feedInLimit: (30_000 * 900 - 60_000) / 899 } });
  });

  it('allows nothing once the budget of the quarter hour is spent, and raises the feed-in alarm on a quarter hour above it when monitored', () => {
    const { loop, config } = loopOf({ feedIn: 30_000, monitored: true });
    const start = 12 * quarter;
    // 80 kW export with the PV unreadable (so unlimitable): the budget runs out.
    const blind: (AssetState | undefined)[] = [readable({ activePower: -80_000 }), unreadable];
    loop.step(snapshot(config, start, blind));
    loop.step(snapshot(config, start + quarter - 1_000, blind));
    expect(loop.statusReport(new Date(start + quarter - 1_000))).toMatchObject({ observations: { feedInLimit: 0, unlimitableAssets: [1] } });
    loop.step(snapshot(config, start + quarter + 100, blind));
    const alarms = loop
      .drainReports(new Date(start + quarter + 100))
      .filter((report) => report.type === 'alarm' && report.observations.code.includes('FeedIn'));
    expect(alarms).toEqual([
      {
        type: 'alarm',
        at: new Date(start + quarter + 100).toISOString(),
        observations: {
          code: 'activeControl.powerFeedInTooHigh.contractual',
          level: 'warning',
          active: true,
          description: 'control loop 0: mean feed-in of the quarter hour 80000 W against 30000 W',
        },
      },
    ]);
  });

  it('keeps a consumption limit at every instant', () => {
    const { loop, config } = loopOf({ consumption: 10_000, feedIn: null });
    // Importing 15 kW with 5 kW of PV: nothing to curtail (the PV only adds), released.
    expect(setpoint(loop, config, 0, site(15_000, 5_000))).toBeNull();
    expect(loop.statusReport(new Date(0))).toMatchObject({ observations: { consumptionLimit: 10_000, feedInLimit: null } });
  });

  it('puts the PV at its fallback when the meter is blind for a second', () => {
    const { loop, config } = loopOf();
    setpoint(loop, config, 0, site(-70_000, 90_000));
    const blind = [unreadable, ...site(0, 50_000).slice(1)];
    expect(setpoint(loop, config, 100, blind)).toBeUndefined();
    expect(setpoint(loop, config, 1_100, blind)).toBe(25_000);
    expect(loop.statusReport(new Date(1_100))).toMatchObject({ observations: { state: 'fallback', unreadableAssets: [0] } });
  });
});
