/**
 * The control path of the gateway over a simulated site, stepped by a driven clock: the plant
 * moves, the in-process drivers poll it, the schedule runner and the loops run, the arbiter writes.
 * The order of one step is the one the agent follows (docs/control-loops.md). The closed-loop
 * tests and bench/control.bench.ts run the scenarios below through it.
 */
import type { DeviceConfig } from '../../contracts/device/config';
import { Battery, Load, Site, SolarPlant } from '../simulators/plant';
import { PlantDriver, type PlantTarget } from '../simulators/plant-drivers';
import { createControlLoop } from './index';
import type { ControlLoop } from './loop';
import { ScheduleRunner } from './schedule';
import { SetpointArbiter } from './setpoints';
import { steeringKindOf } from './site';
import { deviceConfig } from './test-support';

export class SimulatedGateway {
  readonly drivers: (PlantDriver | undefined)[];
  readonly arbiter: SetpointArbiter;
  readonly schedule: ScheduleRunner;
  readonly loops: ControlLoop[];
  /** Whether a loop steers batteries around the cloud's dispatch (the baselines cost a little every step). */
  private readonly needsBaseline: boolean;

  constructor(
    readonly site: Site,
    readonly config: DeviceConfig,
    targets: readonly (PlantTarget | undefined)[],
  ) {
    this.drivers = config.assets.map((asset, index) => {
      const target = targets[index];
      return target === undefined ? undefined : new PlantDriver(index, asset, target, site);
    });
    this.arbiter = new SetpointArbiter(config);
    this.schedule = new ScheduleRunner({
      config,
      arbiter: this.arbiter,
      clock: () => site.now,
      execute: (index, command) => this.drivers[index]?.execute(command) ?? Promise.resolve(false),
    });
    this.loops = config.activeControl.flatMap((loop, index) => createControlLoop(index, loop, config) ?? []);
    this.needsBaseline = config.assets.some((asset) => steeringKindOf(asset) === 'battery');
  }

  /** One control step: the plant moves by `dtSeconds`, then poll, schedule, loops, arbiter. */
  async step(dtSeconds: number): Promise<void> {
    this.site.step(dtSeconds);
    for (const driver of this.drivers) {
      await driver?.poll();
    }
    const now = this.site.now;
    const states = this.drivers.map((driver) => driver?.state);
    await this.schedule.step(states, now);
    const baseline = this.needsBaseline ? this.arbiter.baselines(now, states) : undefined;
    for (const loop of this.loops) {
      const afrr = this.schedule.scheduledAfrrDelta(loop.index);
      const step = await loop.step({
        now,
        config: this.config,
        assets: states,
        baseline,
        scheduledLimit: this.schedule.scheduledLimit(loop.index),
        ...(afrr === undefined ? {} : { scheduledAfrrDelta: afrr }),
      });
      this.arbiter.applyLoopStep(loop.index, step);
      for (const [index, command] of step.commands ?? []) {
        await this.drivers[index]?.execute(command);
      }
    }
    await this.arbiter.apply(now, this.drivers);
  }

  async close(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.close()));
  }
}

/** Counts, over control steps, how often the grid meter was within a limit and by how much it overshot. */
export class LimitTally {
  steps = 0;
  within = 0;
  worstOvershootW = 0;

  /** `excess`: W beyond the limit (0 or less when within). */
  record(excess: number): void {
    this.steps += 1;
    if (excess <= 0) {
      this.within += 1;
    } else {
      this.worstOvershootW = Math.max(this.worstOvershootW, excess);
    }
  }

  get share(): number {
    return this.steps === 0 ? 1 : this.within / this.steps;
  }
}

/** The longest day of 2026 from midnight UTC (the plant's sun rises at 06:00 and sets at 20:00 local, UTC+1). */
export const summerDay = Date.parse('2026-06-21T00:00:00Z');

/**
 * A 100 kW PV roof (1 s response) behind a meter with a 30 kW feed-in limit, over a noisy 20 kW
 * site load (2 kW deviation, 5 s correlation) with 5 kW loads switching on and off twice an hour.
 */
export function feedInScenario(seed: number): { gateway: SimulatedGateway; limitW: number; load: Load } {
  const limitW = 30_000;
  const site = new Site({ seed, start: summerDay });
  const load = site.add(new Load({ base: 20_000, noise: 2_000, noiseTimeConstantS: 5, peakPower: 5_000, peaksPerHour: 2, peakDurationS: [60, 600] }));
  const solar = site.add(new SolarPlant({ nominalPower: 100_000, powerResponseMs: 1_000 }));
  const config = deviceConfig(
    [{ type: 'demo-meter' }, { type: 'demo-solar', nominalActivePower: 100_000, powerResponseMs: 1_000 }],
    [{ type: 'powerLimiter', meterAssetIndex: 0, primaryLimitableAssetIndices: [1], contractualLimit: { feedIn: limitW } }],
  );
  return { gateway: new SimulatedGateway(site, config, [site.meter, solar]), limitW, load };
}

/**
 * A 40 kW site load (3 kW deviation, 5 s correlation) with 20 kW peaks twice an hour behind a meter
 * with a 55 kW consumption limit, shaved by a 200 kWh, 50 kW battery (0.5 s response).
 */
export function peakShavingScenario(seed: number): { gateway: SimulatedGateway; limitW: number; load: Load; battery: Battery } {
  const limitW = 55_000;
  const site = new Site({ seed, start: summerDay });
  const load = site.add(new Load({ base: 40_000, noise: 3_000, noiseTimeConstantS: 5, peakPower: 20_000, peaksPerHour: 2, peakDurationS: [60, 600] }));
  const battery = site.add(new Battery({ capacityWh: 200_000, stateOfCharge: 60, maxChargePower: 50_000, maxDischargePower: 50_000, powerResponseMs: 500 }));
  const config = deviceConfig(
    [{ type: 'demo-meter' }, { type: 'demo-battery', nominalActivePower: 50_000, powerResponseMs: 500 }],
    [{ type: 'batteryPeakShaver', meterAssetIndex: 0, batteryAssetIndices: [1], contractualLimit: { consumption: limitW } }],
  );
  return { gateway: new SimulatedGateway(site, config, [site.meter, battery]), limitW, load, battery };
}
