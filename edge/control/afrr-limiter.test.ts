import type { DeviceReport } from '../../contracts/hub/reports';
import type { AssetState } from '../drivers/driver';
import { AfrrLimiter, spread } from './afrr-limiter';
import { deviceConfig, readable, snapshot, unreadable, valid } from './test-support';

// 0 meter, 1 solar 50 kW (aFRR response 10 s), 2 battery 50 kW, 3 battery 30 kW
const assets = [
  { type: 'demo-meter' },
  { type: 'demo-solar', nominalActivePower: 50_000, afrrReferenceSignalResponseMs: 10_000 },
  { type: 'demo-battery', nominalActivePower: 50_000 },
  { type: 'demo-battery', nominalActivePower: 30_000 },
];

function loopOf(extra: Record<string, unknown> = {}): { loop: AfrrLimiter; config: ReturnType<typeof deviceConfig> } {
  const config = deviceConfig(assets, [{ type: 'afrrLimiter', meterAssetIndex: 0, batteryAssetIndices: [2, 3], limitableAssetIndices: [1], ...extra }]);
  const [loopConfig] = config.activeControl;
  if (loopConfig?.type !== 'afrrLimiter') {
    throw new Error('no loop');
  }
  return { loop: new AfrrLimiter(0, loopConfig, config), config };
}

const battery = (power: number, max: number): AssetState => readable({ activePower: power, stateOfCharge: 50, controllableRange: { min: -max, max } });
const solar = (power: number): AssetState => readable({ activePower: power, availablePower: power, controllableRange: { min: 0, max: power } });
const site = (meter: number, solarPower = 20_000, b2 = 0, b3 = 0): (AssetState | undefined)[] => [
  readable({ activePower: meter }),
  solar(solarPower),
  battery(b2, 50_000),
  battery(b3, 30_000),
];

function rounded(map: Map<number, number | null>): [number, number | null][] {
  return [...map.entries()].map(([index, value]) => [index, value === null ? null : Math.round(value)]);
}

describe('afrrLimiter', () => {
  it('spreads an upward delta over the batteries in proportion to their room, in the afrr layer', () => {
    const { loop, config } = loopOf();
    const step = loop.step(snapshot(config, 0, site(10_000), { scheduledAfrrDelta: 40_000 }));
    expect(step.layer).toBe('afrr');
    // Room up: 50 kW and 30 kW; 40 kW is 5/8 and 3/8.
    expect(rounded(step.setpoints)).toEqual([
      [2, 25_000],
      [3, 15_000],
      [1, null],
    ]);
    expect(valid(loop.statusReport(new Date(0)))).toMatchObject({
      type: 'afrrLimiterStatus',
      controller: 0,
      observations: { state: 'active', afrrDeltaSetpoint: 40_000, afrrAllocated: 40_000, monitoredPower: 10_000 },
    });
  });

  it('takes a downward delta the batteries cannot from the PV, ramped over its afrrReferenceSignalResponseMs', () => {
    const { loop, config } = loopOf();
    // The batteries charge at most 80 kW in all; 90 kW down leaves 10 kW for the PV (20 kW, response 10 s).
    const first = loop.step(snapshot(config, 0, site(0), { scheduledAfrrDelta: -90_000 }));
    expect(rounded(first.setpoints)).toEqual([
      [2, -50_000],
      [3, -30_000],
      [1, 0],
    ]);
    const later = loop.step(snapshot(config, 5_000, site(0), { scheduledAfrrDelta: -90_000 }));
    expect(rounded(later.setpoints)).toContainEqual([1, -5_000]);
    const done = loop.step(snapshot(config, 10_000, site(0), { scheduledAfrrDelta: -90_000 }));
    expect(rounded(done.setpoints)).toContainEqual([1, -10_000]);
  });

  it('bounds the delta by the contractual limit and raises "aFRR delta not allocated" when it stays short', () => {
    const { loop, config } = loopOf({ contractualLimit: { feedIn: 30_000 } });
    // Exporting 10 kW: 20 kW more delivery reaches the 30 kW feed-in limit, so 20 of 40 kW is allocated.
    let step = loop.step(snapshot(config, 0, site(-10_000), { scheduledAfrrDelta: 40_000 }));
    expect(rounded(step.setpoints)).toEqual([
      [2, 12_500],
      [3, 7_500],
      [1, null],
    ]);
    expect(loop.statusReport(new Date(0))).toMatchObject({ observations: { afrrDeltaSetpoint: 40_000, afrrAllocated: 20_000, feedInLimit: 30_000 } });
    const reports: DeviceReport[] = [];
    for (let t = 100; t <= 13_000; t += 100) {
      // The batteries deliver their shares: the meter shows the 20 kW.
      step = loop.step(snapshot(config, t, site(-30_000, 20_000, 12_500, 7_500), { scheduledAfrrDelta: 40_000 }));
      reports.push(...loop.drainReports(new Date(t)));
    }
    expect(rounded(step.setpoints).slice(0, 2)).toEqual([
      [2, 12_500],
      [3, 7_500],
    ]);
    // More than 20 % of a minute's steps short (121 of 600): raised at 12 s.
    expect(reports).toEqual([
      {
        type: 'alarm',
        at: new Date(12_000).toISOString(),
        observations: {
          code: 'activeControl.afrrDeltaNotAllocated',
          level: 'warning',
          active: true,
          description: 'control loop 0: aFRR delta 40000 W: 20000 W could not be allocated',
        },
      },
    ]);
  });

  it('releases its assets when no delta is scheduled', () => {
    const { loop, config } = loopOf();
    loop.step(snapshot(config, 0, site(0), { scheduledAfrrDelta: 10_000 }));
    const step = loop.step(snapshot(config, 100, site(0)));
    // The PV (ramped) and the batteries (at once) go back to nothing and are released.
    expect(rounded(step.setpoints)).toEqual([
      [2, null],
      [3, null],
      [1, null],
    ]);
    expect(loop.statusReport(new Date(100))).toMatchObject({ observations: { state: 'idle', afrrDeltaSetpoint: null, afrrAllocated: null } });
  });

  it('withdraws the delta when the meter is blind for a second and there are limits to keep; delivers on without limits', () => {
    const limited = loopOf({ contractualLimit: { consumption: 50_000 } });
    limited.loop.step(snapshot(limited.config, 0, site(0), { scheduledAfrrDelta: 10_000 }));
    const blind: (AssetState | undefined)[] = [unreadable, ...site(0).slice(1)];
    expect(rounded(limited.loop.step(snapshot(limited.config, 500, blind, { scheduledAfrrDelta: 10_000 })).setpoints)).toEqual([]);
    expect(rounded(limited.loop.step(snapshot(limited.config, 1_500, blind, { scheduledAfrrDelta: 10_000 })).setpoints)).toEqual([
      [2, null],
      [3, null],
      [1, null],
    ]);
    expect(limited.loop.statusReport(new Date(1_500))).toMatchObject({ observations: { state: 'fallback', unreadableAssets: [0], afrrAllocated: 0 } });

    const free = loopOf();
    free.loop.step(snapshot(free.config, 0, site(0), { scheduledAfrrDelta: 10_000 }));
    free.loop.step(snapshot(free.config, 500, blind, { scheduledAfrrDelta: 10_000 }));
    expect(rounded(free.loop.step(snapshot(free.config, 1_500, blind, { scheduledAfrrDelta: 10_000 })).setpoints)).toEqual([
      [2, 6_250],
      [3, 3_750],
      [1, null],
    ]);
  });

  it('reports unreadable assets as unlimitable and spreads over the others', () => {
    const { loop, config } = loopOf();
    const states = site(0);
    states[3] = unreadable;
    const step = loop.step(snapshot(config, 0, states, { scheduledAfrrDelta: 10_000 }));
    expect(rounded(step.setpoints)).toEqual([
      [2, 10_000],
      [3, null],
      [1, null],
    ]);
    expect(loop.statusReport(new Date(0))).toMatchObject({ observations: { unlimitableAssets: [3] } });
  });

  it('spread: groups in order, within a group by room', () => {
    expect([...spread([[{ index: 0, down: -10, up: 30, delivering: 0 }], [{ index: 1, down: -5, up: 5, delivering: 0 }]], 32)]).toEqual([
      [0, 30],
      [1, 2],
    ]);
  });
});
