/**
 * The control path of the gateway over a simulated site, stepped by a driven clock: the plant
 * moves, the in-process drivers poll it, the schedule runner and the loops run, the arbiter writes.
 * The order of one step is the one the agent follows (docs/control-loops.md). The closed-loop
 * tests and bench/control.bench.ts run the scenarios below through it.
 */
import type { ScheduleItem } from '../../contracts/device/commands';
import type { DeviceConfig } from '../../contracts/device/config';
import type { AssetDriver } from '../drivers/driver';
import { Battery, Load, Site, SolarPlant } from '../simulators/plant';
import { PlantDriver, type PlantTarget } from '../simulators/plant-drivers';
import { createControlLoop } from './index';
import type { ControlLoop } from './loop';
import { ScheduleRunner } from './schedule';
import { SetpointArbiter } from './setpoints';
import { steeringKindOf } from './site';
import { deviceConfig } from './test-support';
import { ReactiveDemand, ReactiveMeterDriver, TemperatureSensorDriver, Transformer } from './simulated-site-extras';

export class SimulatedGateway {
  readonly drivers: (PlantDriver | undefined)[];
  readonly arbiter: SetpointArbiter;
  readonly schedule: ScheduleRunner;
  readonly loops: ControlLoop[];
  /** Every asset's driver by index: the plant drivers, and the other drivers given where no plant target is (sensors). */
  readonly all: (AssetDriver | undefined)[];
  /** Whether a loop steers batteries around the cloud's dispatch (the baselines cost a little every step). */
  private readonly needsBaseline: boolean;

  constructor(
    readonly site: Site,
    readonly config: DeviceConfig,
    targets: readonly (PlantTarget | PlantDriver | undefined)[],
    others: readonly (AssetDriver | undefined)[] = [],
  ) {
    this.drivers = config.assets.map((asset, index) => {
      const target = targets[index];
      return target === undefined || target instanceof PlantDriver ? target : new PlantDriver(index, asset, target, site);
    });
    this.all = config.assets.map((_asset, index) => this.drivers[index] ?? others[index]);
    this.arbiter = new SetpointArbiter(config);
    this.schedule = new ScheduleRunner({
      config,
      arbiter: this.arbiter,
      clock: () => site.now,
      execute: (index, command) => this.all[index]?.execute(command) ?? Promise.resolve(false),
    });
    this.loops = config.activeControl.flatMap((loop, index) => createControlLoop(index, loop, config) ?? []);
    this.needsBaseline = config.assets.some((asset) => steeringKindOf(asset) === 'battery');
  }

  /** One control step: the plant moves by `dtSeconds`, then poll, schedule, loops, arbiter. */
  async step(dtSeconds: number): Promise<void> {
    this.site.step(dtSeconds);
    for (const driver of this.all) {
      await driver?.poll();
    }
    const now = this.site.now;
    const states = this.all.map((driver) => driver?.state);
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
        await this.all[index]?.execute(command);
      }
    }
    await this.arbiter.apply(now, this.all);
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
 * with a 55 kW consumption limit, shaved by a 200 kWh, 50 kW battery (0.5 s response) at
 * `stateOfCharge` % (60 by default) at midnight.
 */
export function peakShavingScenario(seed: number, stateOfCharge = 60): { gateway: SimulatedGateway; limitW: number; load: Load; battery: Battery } {
  const limitW = 55_000;
  const site = new Site({ seed, start: summerDay });
  const load = site.add(new Load({ base: 40_000, noise: 3_000, noiseTimeConstantS: 5, peakPower: 20_000, peaksPerHour: 2, peakDurationS: [60, 600] }));
  const battery = site.add(new Battery({ capacityWh: 200_000, stateOfCharge, maxChargePower: 50_000, maxDischargePower: 50_000, powerResponseMs: 500 }));
  const config = deviceConfig(
    [{ type: 'demo-meter' }, { type: 'demo-battery', nominalActivePower: 50_000, powerResponseMs: 500 }],
    [{ type: 'batteryPeakShaver', meterAssetIndex: 0, batteryAssetIndices: [1], contractualLimit: { consumption: limitW } }],
  );
  return { gateway: new SimulatedGateway(site, config, [site.meter, battery]), limitW, load, battery };
}

/**
 * cascadeBatteryPowerLimiter: a 48 kW site load (3 kW deviation) with 6 kW loads switching twice
 * an hour behind a 50 kW consumption limit (1 kW deadband), a small primary battery (10 kW, 20 kWh)
 * that empties during the day, and a secondary one (30 kW, 300 kWh) for what it cannot give.
 */
export function cascadeScenario(seed: number): { gateway: SimulatedGateway; limitW: number; load: Load; primary: Battery; secondary: Battery } {
  const limitW = 50_000;
  const site = new Site({ seed, start: summerDay });
  const load = site.add(new Load({ base: 48_000, noise: 3_000, noiseTimeConstantS: 5, peakPower: 6_000, peaksPerHour: 2, peakDurationS: [60, 600] }));
  const primary = site.add(new Battery({ capacityWh: 20_000, stateOfCharge: 90, maxChargePower: 10_000, maxDischargePower: 10_000, powerResponseMs: 500 }));
  const secondary = site.add(new Battery({ capacityWh: 300_000, stateOfCharge: 80, maxChargePower: 30_000, maxDischargePower: 30_000, powerResponseMs: 500 }));
  const config = deviceConfig(
    [
      { type: 'demo-meter' },
      { type: 'demo-battery', nominalActivePower: 10_000, powerResponseMs: 500 },
      { type: 'demo-battery', nominalActivePower: 30_000, powerResponseMs: 500 },
    ],
    [
      {
        type: 'cascadeBatteryPowerLimiter',
        meterAssetIndex: 0,
        primaryBatteryAssetIndices: [1],
        secondaryBatteryAssetIndices: [2],
        contractualLimit: { consumption: limitW },
        deadband: 1_000,
      },
    ],
  );
  return { gateway: new SimulatedGateway(site, config, [site.meter, primary, secondary]), limitW, load, primary, secondary };
}

/**
 * batteryPowerReservationLimiter: a 40 kW site load (3 kW deviation, 5 kW loads twice an hour), a
 * 50 kW / 200 kWh battery at 60 % keeping 20 kW of discharge and 10 kW of charge power reserved, a
 * soft limit of 60 kW consumption and 10 kW feed-in, the state of charge kept within 70-90 % from
 * midnight to 06:00 and within 40-55 % from 06:00 to 10:00, and a cloud dispatch that asks for more than the unreserved power
 * (a schedule of setBatteryOperation: 45 kW charging 10:00-13:00, 45 kW discharging 17:00-20:00 UTC).
 */
export function batteryReservationScenario(seed: number): {
  gateway: SimulatedGateway;
  consumptionLimitW: number;
  feedInLimitW: number;
  reserved: { charge: number; discharge: number };
  battery: Battery;
  load: Load;
} {
  const consumptionLimitW = 60_000;
  const feedInLimitW = 10_000;
  const reserved = { charge: 10_000, discharge: 20_000 };
  const site = new Site({ seed, start: summerDay });
  const load = site.add(new Load({ base: 40_000, noise: 3_000, noiseTimeConstantS: 5, peakPower: 5_000, peaksPerHour: 2, peakDurationS: [60, 600] }));
  const battery = site.add(new Battery({ capacityWh: 200_000, stateOfCharge: 60, maxChargePower: 50_000, maxDischargePower: 50_000, powerResponseMs: 500 }));
  const config = deviceConfig(
    [{ type: 'demo-meter' }, { type: 'demo-battery', nominalActivePower: 50_000, powerResponseMs: 500 }],
    [
      {
        type: 'batteryPowerReservationLimiter',
        meterAssetIndex: 0,
        batteryAssetIndices: [1],
        reservedPower: reserved,
        softLimit: { consumption: consumptionLimitW, feedIn: feedInLimitW },
        stateOfChargeSchedule: [
          { start: '00:00', end: '06:00', min: 70, max: 90 },
          { start: '06:00', end: '10:00', min: 40, max: 55 },
        ],
      },
    ],
  );
  const gateway = new SimulatedGateway(site, config, [site.meter, battery]);
  const dispatch = (fromHour: number, toHour: number, watts: number): ScheduleItem => ({
    startAt: new Date(summerDay + fromHour * 3_600_000).toISOString(),
    endAt: new Date(summerDay + toHour * 3_600_000).toISOString(),
    command: { type: 'setBatteryOperation', dispatchPower: watts, deliverFCR: false, chargeToState: null },
  });
  // The cloud's schedule (setAssetSchedule), carried out by the gateway's schedule runner as the agent does.
  gateway.schedule.setSchedule({ assetIndex: 1 }, [dispatch(10, 13, -45_000), dispatch(17, 20, 45_000)]);
  return { gateway, consumptionLimitW, feedInLimitW, reserved, battery, load };
}

/**
 * powerReservationLimiter: a 100 kW PV roof (1 s response) over a 20 kW site load (2 kW deviation,
 * 5 kW loads twice an hour) behind a 50 kW connection keeping 15 kW of its feed-in capacity and
 * 10 kW of its consumption capacity reserved: feed-in at most 35 kW.
 */
export function powerReservationScenario(seed: number): { gateway: SimulatedGateway; feedInLimitW: number; load: Load } {
  const capacityW = 50_000;
  const reserved = { charge: 10_000, discharge: 15_000 };
  const site = new Site({ seed, start: summerDay });
  const load = site.add(new Load({ base: 20_000, noise: 2_000, noiseTimeConstantS: 5, peakPower: 5_000, peaksPerHour: 2, peakDurationS: [60, 600] }));
  const solar = site.add(new SolarPlant({ nominalPower: 100_000, powerResponseMs: 1_000 }));
  const config = deviceConfig(
    [{ type: 'demo-meter' }, { type: 'demo-solar', nominalActivePower: 100_000, powerResponseMs: 1_000 }],
    [{ type: 'powerReservationLimiter', meterAssetIndex: 0, limitableAssetIndices: [1], monitoredCapacity: capacityW, reservedPower: reserved }],
  );
  return { gateway: new SimulatedGateway(site, config, [site.meter, solar]), feedInLimitW: capacityW - reserved.discharge, load };
}

/**
 * apparentPowerLimiter: a 100 kW PV roof (1 s response) over a 20 kW site load (2 kW deviation,
 * 5 kW loads twice an hour) at power factor 0.9 (about 10 kvar drawn), behind a 40 kVA limit.
 */
export function apparentPowerScenario(seed: number): { gateway: SimulatedGateway; limitVA: number; meter: ReactiveMeterDriver; load: Load } {
  const limitVA = 40_000;
  const site = new Site({ seed, start: summerDay });
  const load = site.add(new Load({ base: 20_000, noise: 2_000, noiseTimeConstantS: 5, peakPower: 5_000, peaksPerHour: 2, peakDurationS: [60, 600] }));
  site.add(new ReactiveDemand(load, 0.9));
  const solar = site.add(new SolarPlant({ nominalPower: 100_000, powerResponseMs: 1_000 }));
  const config = deviceConfig(
    [{ type: 'demo-meter' }, { type: 'demo-solar', nominalActivePower: 100_000, powerResponseMs: 1_000 }],
    [{ type: 'apparentPowerLimiter', meterAssetIndex: 0, limitableAssetIndices: [1], apparentPowerLimit: limitVA }],
  );
  const meterConfig = config.assets[0];
  if (meterConfig === undefined) {
    throw new Error('no meter in the scenario');
  }
  const meter = new ReactiveMeterDriver(0, meterConfig, site);
  return { gateway: new SimulatedGateway(site, config, [meter, solar]), limitVA, meter, load };
}

/** The derating table of the temperature scenario: from 70 °C 80 %, from 80 °C 60 %, from 90 °C 30 % of nominal power. */
export const transformerDerating = [
  { temperature: 70, activePowerPercentage: 80 },
  { temperature: 80, activePowerPercentage: 60 },
  { temperature: 90, activePowerPercentage: 30 },
];

/**
 * temperaturePowerLimiter: a 100 kW PV roof (1 s response) feeding through a 75 kW transformer
 * (60 K rise at rated power, 15 minute time constant, ambient 25 ± 7 °C) whose temperature sensor
 * the loop reads, derating the PV by `transformerDerating`.
 */
export function temperatureScenario(seed: number): { gateway: SimulatedGateway; transformer: Transformer; solar: SolarPlant; sensor: TemperatureSensorDriver } {
  const site = new Site({ seed, start: summerDay });
  site.add(new Load({ base: 20_000, noise: 2_000, noiseTimeConstantS: 5, peakPower: 5_000, peaksPerHour: 2, peakDurationS: [60, 600] }));
  const solar = site.add(new SolarPlant({ nominalPower: 100_000, powerResponseMs: 1_000 }));
  const transformer = site.add(
    new Transformer({ ratedPower: 75_000, ratedRiseK: 60, timeConstantS: 900, ambientMeanC: 25, ambientSwingC: 7, through: [solar] }),
  );
  const config = deviceConfig(
    [{ type: 'demo-meter' }, { type: 'demo-solar', nominalActivePower: 100_000, powerResponseMs: 1_000 }, { type: 'demo-temperature-sensor' }],
    [
      {
        type: 'temperaturePowerLimiter',
        temperatureSensorAssetIndex: 2,
        temperatureName: 'transformer',
        limitableAssetIndices: [1],
        derating: transformerDerating,
      },
    ],
  );
  const sensorConfig = config.assets[2];
  if (sensorConfig === undefined) {
    throw new Error('no sensor in the scenario');
  }
  const sensor = new TemperatureSensorDriver(2, sensorConfig, 'transformer', transformer, site);
  return { gateway: new SimulatedGateway(site, config, [site.meter, solar], [undefined, undefined, sensor]), transformer, solar, sensor };
}
