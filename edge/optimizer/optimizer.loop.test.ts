import type { DeviceConfig } from '../../contracts/device/config';
import { validateReport, type DeviceReport } from '../../contracts/hub/reports';
import type { SiteSnapshot } from '../control/loop';
import type { AssetState } from '../drivers/driver';
import { demoAssets, optimizerSite, states } from './optimizer.fixtures';
import { createOptimizerLoop, optimizerUnsolvableAlarm } from './optimizer.loop';

const at = new Date('2026-11-22T12:00:00.000Z');

function snapshot(config: DeviceConfig, assets: (AssetState | undefined)[], extra: Partial<SiteSnapshot> = {}): SiteSnapshot {
  return { now: at.getTime(), config, assets, ...extra };
}

function rounded(setpoints: Map<number, number | null>): [number, number | null][] {
  return [...setpoints.entries()].map(([asset, value]) => [asset, value === null ? null : Math.round(value)]);
}

function valid(report: DeviceReport): DeviceReport {
  const validation = validateReport(JSON.parse(JSON.stringify(report)));
  expect(validation).toEqual({ ok: true, report });
  return report;
}

/** A grid meter (0), 50 kW of solar (1) and a 10 kW battery (2), 30 kW of feed-in allowed. */
function solarAndBattery(loop: Record<string, unknown> = {}) {
  return optimizerSite(
    [
      demoAssets.meter(),
      demoAssets.solar(50000, { fallbackLimit: { activePowerPercentage: 40, onlyInOptimizer: true } }),
      demoAssets.battery(10000, { fallbackSetpoint: 0 }),
    ],
    {
      identifier: 'site-optimizer',
      topology: {
        name: 'site',
        constraint: { consumption: 8000, feedIn: 30000 },
        assets: { controllable: [1, 2], powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
      },
      ...loop,
    },
  );
}

describe('the optimizer loop', () => {
  it('asks for the optimal setpoints and reports its status', async () => {
    const { device, loop: config } = solarAndBattery();
    const loop = createOptimizerLoop(0, config, device);
    expect(loop.type).toBe('optimizer');
    expect(loop.sleepSeconds).toBe(0.1);
    expect(loop.statusReport(at)).toEqual({
      type: 'optimizerStatus',
      at: '2026-11-22T12:00:00.000Z',
      controller: 0,
      observations: {
        state: 'idle',
        monitoredPower: null,
        consumptionLimit: null,
        feedInLimit: null,
        iterationMs: null,
        uncontrollableAssets: [],
        unreadableAssets: [],
        solverStatus: null,
        objective: null,
        solveMs: null,
      },
    });

    const step = await loop.step(snapshot(device, [states.meter(-35000), states.solar(45000), states.battery(10000, 10000)]));

    expect(rounded(step.setpoints)).toEqual([
      [1, 45000],
      [2, -5000],
    ]);
    const report = valid(loop.statusReport(at));
    expect(report).toMatchObject({
      type: 'optimizerStatus',
      controller: 0,
      observations: {
        state: 'active',
        monitoredPower: -35000,
        consumptionLimit: 8000,
        feedInLimit: 30000,
        uncontrollableAssets: [],
        unreadableAssets: [],
        solverStatus: 'optimal',
      },
    });
    // 5 kW of charging, per unit of 100 kW, at weight 1.25 (1, and 0.5 × the half-full battery's state of charge).
    expect(report.observations).toHaveProperty('objective', expect.closeTo(0.0625, 6));
    expect(loop.drainReports(at)).toEqual([]);
    await loop.close();
  });

  it('keeps the stricter of a scheduled limit and the root constraint', async () => {
    const { device, loop: config } = solarAndBattery();
    const loop = createOptimizerLoop(0, config, device);
    const step = await loop.step(
      snapshot(device, [states.meter(-35000), states.solar(45000), states.battery(10000, 10000)], { scheduledLimit: { consumption: null, feedIn: 20000 } }),
    );

    // 15 kW less feed-in: the battery charges fully (10 kW) and 5 kW of solar is curtailed.
    expect(rounded(step.setpoints)).toEqual([
      [1, 40000],
      [2, -10000],
    ]);
    expect(loop.statusReport(at).observations).toMatchObject({ consumptionLimit: 8000, feedInLimit: 20000 });
  });

  it('applies the least-bad setpoints when a limit cannot be kept, raising the alarm once and clearing it when solvable again', async () => {
    const { device, loop: config } = solarAndBattery();
    const loop = createOptimizerLoop(3, config, device);
    const overloaded = [states.meter(20000), states.solar(0), states.battery(10000, 10000)];

    const first = await loop.step(snapshot(device, overloaded));
    // 20 kW drawn, 8 kW allowed: the battery discharges fully, 2 kW remain over the limit.
    expect(rounded(first.setpoints)).toEqual([
      [1, 0],
      [2, 10000],
    ]);
    expect(valid(loop.statusReport(at)).observations).toMatchObject({ state: 'active', solverStatus: 'infeasible' });
    const raised = loop.drainReports(at);
    expect(raised).toEqual([
      {
        type: 'alarm',
        at: '2026-11-22T12:00:00.000Z',
        observations: {
          code: optimizerUnsolvableAlarm,
          level: 'fault',
          active: true,
          description: 'infeasible: limits cannot be kept (site: consumption 2000 W over); least-bad setpoints applied',
        },
      },
    ]);
    raised.forEach(valid);

    await loop.step(snapshot(device, overloaded));
    expect(loop.drainReports(at)).toEqual([]);

    const later = new Date('2026-11-22T12:00:05.000Z');
    await loop.step({ ...snapshot(device, [states.meter(5000), states.solar(0), states.battery(10000, 10000)]), now: later.getTime() });
    expect(loop.statusReport(later).observations).toMatchObject({ state: 'active', solverStatus: 'optimal' });
    expect(loop.drainReports(later)).toEqual([
      {
        type: 'alarm',
        at: '2026-11-22T12:00:05.000Z',
        observations: { code: optimizerUnsolvableAlarm, level: 'fault', active: false, description: 'optimal again' },
      },
    ]);
  });

  it('falls back to the assets’ fallback limits and setpoints while HiGHS gives no solution', async () => {
    // 0 meter, 1 solar with a fallback limit of 40 % of 50 kW, 2 battery with fallbackSetpoint 0, 3 EV with a fallback limit of 3.7 kW,
    // 4 solar with both a fallbackSetpoint (taken) and a fallback limit, 5 battery without a fallback (released).
    const { device, loop: config } = optimizerSite(
      [
        demoAssets.meter(),
        demoAssets.solar(50000, { fallbackLimit: { activePowerPercentage: 40, onlyInOptimizer: true } }),
        demoAssets.battery(10000, { fallbackSetpoint: 0 }),
        demoAssets.ev({ fallbackLimit: { activePower: -3700 } }),
        demoAssets.solar(20000, { fallbackSetpoint: 5000, fallbackLimit: { activePowerPercentage: 40 } }),
        demoAssets.battery(10000),
      ],
      {
        solverOptions: { timeLimit: 1e-9 },
        topology: {
          name: 'site',
          constraint: { consumption: 20000, feedIn: 30000 },
          assets: { controllable: [1, 2, 3], powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
          children: [{ name: 'carport', assets: { controllable: [4, 5] } }],
        },
      },
    );
    const loop = createOptimizerLoop(1, config, device);
    const step = await loop.step(
      snapshot(device, [
        states.meter(-10000),
        states.solar(30000),
        states.battery(10000, 10000),
        states.ev(11000),
        states.solar(10000),
        states.battery(5000, 5000),
      ]),
    );

    expect(rounded(step.setpoints)).toEqual([
      [1, 20000],
      [2, 0],
      [3, -3700],
      [4, 5000],
      [5, null],
    ]);
    expect(valid(loop.statusReport(at)).observations).toMatchObject({ state: 'fallback', solverStatus: 'timeLimit', objective: null, monitoredPower: -10000 });
    expect(loop.drainReports(at)).toEqual([
      {
        type: 'alarm',
        at: '2026-11-22T12:00:00.000Z',
        observations: {
          code: optimizerUnsolvableAlarm,
          level: 'fault',
          active: true,
          description: 'timeLimit: HiGHS: Time limit reached; fallback setpoints applied',
        },
      },
    ]);
  });

  it('falls back when HiGHS finds the model infeasible, and steers again once it is not', async () => {
    const { device, loop: config } = solarAndBattery();
    const loop = createOptimizerLoop(0, config, device);
    // A driver reporting a range upside down gives HiGHS bounds no setpoint can meet.
    const upsideDown: AssetState = { readable: true, at: 0, activePower: 0, controllableRange: { min: 5000, max: -5000 } };

    const broken = await loop.step(snapshot(device, [states.meter(-35000), states.solar(45000), upsideDown]));
    expect(rounded(broken.setpoints)).toEqual([
      [1, 20000],
      [2, 0],
    ]);
    expect(loop.statusReport(at).observations).toMatchObject({ state: 'fallback', solverStatus: 'infeasible' });
    expect(loop.drainReports(at).map((report) => report.observations)).toEqual([
      { code: optimizerUnsolvableAlarm, level: 'fault', active: true, description: 'infeasible: HiGHS: Infeasible; fallback setpoints applied' },
    ]);

    const mended = await loop.step(snapshot(device, [states.meter(-35000), states.solar(45000), states.battery(10000, 10000)]));
    expect(rounded(mended.setpoints)).toEqual([
      [1, 45000],
      [2, -5000],
    ]);
    expect(loop.drainReports(at).map((report) => report.observations)).toEqual([
      { code: optimizerUnsolvableAlarm, level: 'fault', active: false, description: 'optimal again' },
    ]);
  });

  it('falls back, with status error, when the solver it was given fails', async () => {
    const { device, loop: config } = solarAndBattery();
    const loop = createOptimizerLoop(0, config, device, {
      solver: {
        solve: () => {
          throw new RangeError('memory access out of bounds');
        },
      },
    });
    const step = await loop.step(snapshot(device, [states.meter(-35000), states.solar(45000), states.battery(10000, 10000)]));

    expect(rounded(step.setpoints)).toEqual([
      [1, 20000],
      [2, 0],
    ]);
    expect(valid(loop.statusReport(at)).observations).toMatchObject({ state: 'fallback', solverStatus: 'error', objective: null, solveMs: expect.any(Number) });
    expect(loop.drainReports(at).map((report) => report.observations)).toEqual([
      { code: optimizerUnsolvableAlarm, level: 'fault', active: true, description: 'error: memory access out of bounds; fallback setpoints applied' },
    ]);
  });

  it('is made only for an optimizer entry', () => {
    const { device } = solarAndBattery();
    const limiter = {
      type: 'powerLimiter',
      controlLoopSleep: 0.1,
      meterAssetIndex: 0,
      primaryLimitableAssetIndices: [1],
      secondaryLimitableAssetIndices: [],
      contractualLimit: { consumption: 1, feedIn: 1, monitored: true },
      limitSchedule: [],
      deadband: 0,
    } as const;
    expect(() => createOptimizerLoop(0, limiter, device)).toThrow(new TypeError('createOptimizerLoop was given a powerLimiter loop'));
  });
});
