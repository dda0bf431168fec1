/**
 * Control-loop figures over the plant (issues 6 and 20): over a simulated day at controlLoopSleep
 * 0.1 s on a driven clock, the share of control steps within the limit and the worst overshoot of
 * each loop's scenario (powerLimiter, batteryPeakShaver, the cascade, reservation, apparent power
 * and temperature limiters), and the settling time after a load step at noon. Run:
 * npm run build && node dist/bench/control.bench.js [loop names] (docs/control-loops.md keeps the
 * latest figures; the loops of the grid operator and aFRR have theirs from their closed-loop tests).
 */
import {
  apparentPowerScenario,
  batteryReservationScenario,
  cascadeScenario,
  feedInScenario,
  LimitTally,
  peakShavingScenario,
  powerReservationScenario,
  summerDay,
  temperatureScenario,
  transformerDerating,
  type SimulatedGateway,
} from '../edge/control/simulated-gateway';
import { deratedShare } from '../edge/control/temperature-power-limiter';

const stepSeconds = 0.1;
const daySteps = (24 * 3600) / stepSeconds;

type Scenario = {
  gateway: SimulatedGateway;
  limitW: number;
  excess: (gateway: SimulatedGateway) => number;
  /** The limit in force now where it moves (the derated cap), W; limitW otherwise. */
  limitNow?: () => number;
  /** The site's load now, W, where the scenario gives it: the steps a load jumps in are then told apart. */
  loadW?: () => number;
};

function feedIn(seed: number): Scenario & { stepLoad: (watts: number) => void } {
  const { gateway, limitW, load } = feedInScenario(seed);
  return { gateway, limitW, excess: (g) => -g.site.meter.activePower - limitW, stepLoad: (watts) => (load.base += watts), loadW: () => load.consumption };
}

function peakShaving(seed: number, stateOfCharge?: number): Scenario & { stepLoad: (watts: number) => void } {
  const { gateway, limitW, load } = peakShavingScenario(seed, stateOfCharge);
  return { gateway, limitW, excess: (g) => g.site.meter.activePower - limitW, stepLoad: (watts) => (load.base += watts), loadW: () => load.consumption };
}

/** Loads of the scenarios below are stepped by changing their base. */
type Steppable = Scenario & { stepLoad: (watts: number) => void };

function cascade(seed: number): Steppable {
  const { gateway, limitW, load } = cascadeScenario(seed);
  return { gateway, limitW, excess: (g) => g.site.meter.activePower - limitW, stepLoad: (watts) => (load.base += watts) };
}

function batteryReservation(seed: number): Steppable {
  const { gateway, consumptionLimitW, feedInLimitW, load } = batteryReservationScenario(seed);
  return {
    gateway,
    limitW: consumptionLimitW,
    stepLoad: (watts) => (load.base += watts),
    excess: (g) => Math.max(g.site.meter.activePower - consumptionLimitW, -g.site.meter.activePower - feedInLimitW),
  };
}

function powerReservation(seed: number): Steppable {
  const { gateway, feedInLimitW, load } = powerReservationScenario(seed);
  return { gateway, limitW: feedInLimitW, excess: (g) => -g.site.meter.activePower - feedInLimitW, stepLoad: (watts) => (load.base += watts) };
}

function apparentPower(seed: number): Steppable {
  const { gateway, limitVA, meter, load } = apparentPowerScenario(seed);
  return {
    gateway,
    limitW: limitVA,
    excess: (g) => Math.hypot(g.site.meter.activePower, meter.reactivePower) - limitVA,
    stepLoad: (watts) => (load.base += watts),
  };
}

/**
 * The PV's production above the derated cap of the transformer's true temperature (the table read
 * without lead or hysteresis), less 1 W: setpoints are whole watts, and a first-order inverter
 * only nears a lower cap, so it counts as within once it is less than a watt above it.
 */
function temperature(seed: number): Scenario {
  const { gateway, transformer, solar } = temperatureScenario(seed);
  const cap = () => (solar.nominalPower * (deratedShare(transformerDerating, transformer.temperature) ?? 100)) / 100;
  return { gateway, limitW: solar.nominalPower, excess: () => solar.activePower - cap() - 1, limitNow: cap };
}

/**
 * A simulated day: the share of steps within the limit and the worst overshoot; where the scenario
 * gives its load, apart, the worst overshoot of the step a load jumps in (by more than 5 % of the
 * limit: no asset can have answered yet) and of the step after it, and the worst of every other
 * step (what the loop is answerable for).
 */
async function day(name: string, scenario: Scenario): Promise<void> {
  const tally = new LimitTally();
  const [jumpStep, nextStep, otherSteps, laterJumps] = [new LimitTally(), new LimitTally(), new LimitTally(), new LimitTally()];
  const loadW = scenario.loadW;
  let load = loadW?.() ?? 0;
  let sinceJump = Infinity;
  let worstShare = 0;
  const started = process.hrtime.bigint();
  for (let step = 0; step < daySteps; step += 1) {
    await scenario.gateway.step(stepSeconds);
    const excess = scenario.excess(scenario.gateway);
    tally.record(excess);
    if (excess > 0) {
      worstShare = Math.max(worstShare, excess / (scenario.limitNow?.() ?? scenario.limitW));
    }
    if (loadW !== undefined) {
      sinceJump = Math.abs(loadW() - load) > 0.05 * scenario.limitW ? 0 : sinceJump + 1;
      load = loadW();
      (sinceJump === 0 ? jumpStep : sinceJump === 1 ? nextStep : otherSteps).record(excess);
      if (sinceJump === 0 && jumpStep.steps > 1) {
        laterJumps.record(excess);
      }
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await scenario.gateway.close();
  const jumps =
    loadW === undefined
      ? ''
      : `; in the step a load jumps in ${Math.round(jumpStep.worstOvershootW)} W, ${jumpStep.steps - jumpStep.within} of ${jumpStep.steps} such steps over (after the first ${Math.round(laterJumps.worstOvershootW)} W); the step after ${Math.round(nextStep.worstOvershootW)} W; any other step ${Math.round(otherSteps.worstOvershootW)} W`;
  process.stdout.write(
    `${name}: ${tally.steps} steps, within limit ${(tally.share * 100).toFixed(3)} % (${tally.steps - tally.within} steps over), worst overshoot ${Math.round(tally.worstOvershootW)} W (${(worstShare * 100).toFixed(1)} % of the limit${jumps}); a simulated day took ${seconds.toFixed(1)} s\n`,
  );
}

/** Runs to 11:50 local, steps the load by `watts` at 12:00 and gives the time until the meter is back within the limit for good (within 60 s). */
async function settling(name: string, scenario: Scenario & { stepLoad: (watts: number) => void }, watts: number): Promise<void> {
  const { gateway } = scenario;
  // The control loop runs from 11:50 so its headroom has learned the noise; the plant alone before that.
  const warmUpFrom = summerDay + 10 * 3_600_000 + 50 * 60_000;
  gateway.site.advance((warmUpFrom - gateway.site.now) / 1000, 1);
  const stepAt = warmUpFrom + 10 * 60_000;
  while (gateway.site.now < stepAt - 1) {
    await gateway.step(stepSeconds);
  }
  const before = scenario.excess(gateway);
  scenario.stepLoad(watts);
  let lastOver = -1;
  let worst = 0;
  for (let step = 1; step <= 600; step += 1) {
    await gateway.step(stepSeconds);
    const excess = scenario.excess(gateway);
    if (excess > 0) {
      lastOver = step;
      worst = Math.max(worst, excess);
    }
  }
  await gateway.close();
  const settled = lastOver < 0 ? 0 : lastOver * stepSeconds;
  process.stdout.write(
    `${name}: load step of ${watts} W at 12:00 (excess before ${Math.round(before)} W): back within the limit for good after ${settled.toFixed(1)} s, worst overshoot ${Math.round(worst)} W\n`,
  );
}

/** `node dist/bench/control.bench.js [name...]` runs the figures whose name starts with one of the names given (all without). */
const only = process.argv.slice(2);

async function run(name: string, figure: () => Promise<void>): Promise<void> {
  if (only.length === 0 || only.some((prefix) => name.startsWith(prefix))) {
    await figure();
  }
}

async function main(): Promise<void> {
  await run('powerLimiter', () => day('powerLimiter, feed-in limit 30 kW, 100 kW PV, noisy 20 kW load', feedIn(11)));
  await run('batteryPeakShaver', () => day('batteryPeakShaver, consumption limit 55 kW, 50 kW battery, noisy 40 kW load with 20 kW peaks', peakShaving(12)));
  await run('batteryPeakShaver', () =>
    day('batteryPeakShaver from 90 % state of charge, consumption limit 55 kW, 50 kW battery, noisy 40 kW load with 20 kW peaks', peakShaving(12, 90)),
  );
  await run('powerLimiter', () => settling('powerLimiter settling', feedIn(21), -10_000));
  await run('batteryPeakShaver', () => settling('batteryPeakShaver settling', peakShaving(22), 20_000));
  await run('cascadeBatteryPowerLimiter', () =>
    day('cascadeBatteryPowerLimiter, consumption limit 50 kW, 10 kW + 30 kW batteries, noisy 48 kW load with 6 kW peaks', cascade(31)),
  );
  await run('cascadeBatteryPowerLimiter', () => settling('cascadeBatteryPowerLimiter settling', cascade(41), 10_000));
  await run('batteryPowerReservationLimiter', () =>
    day(
      'batteryPowerReservationLimiter, soft limit 60 kW / 10 kW, 50 kW battery with 20 kW / 10 kW reserved, cloud dispatch beyond it',
      batteryReservation(32),
    ),
  );
  await run('batteryPowerReservationLimiter', () =>
    settling('batteryPowerReservationLimiter settling (charging at the capped cloud dispatch)', batteryReservation(42), 20_000),
  );
  await run('powerReservationLimiter', () =>
    day('powerReservationLimiter, 50 kW capacity, 15 kW feed-in reserved, 100 kW PV, noisy 20 kW load', powerReservation(33)),
  );
  await run('powerReservationLimiter', () => settling('powerReservationLimiter settling', powerReservation(43), -10_000));
  await run('apparentPowerLimiter', () => day('apparentPowerLimiter, 40 kVA, 100 kW PV, noisy 20 kW load at power factor 0.9', apparentPower(34)));
  await run('apparentPowerLimiter', () => settling('apparentPowerLimiter settling', apparentPower(44), -10_000));
  await run('temperaturePowerLimiter', () => day('temperaturePowerLimiter, 100 kW PV through a 75 kW transformer derated from 70 °C', temperature(35)));
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
});
