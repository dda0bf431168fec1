/**
 * Control-loop figures over the plant (issue 6, "Done when"): over a simulated day at
 * controlLoopSleep 0.1 s on a driven clock, the share of control steps within the limit and the
 * worst overshoot, for the powerLimiter (feed-in) and the batteryPeakShaver (consumption); and the
 * settling time after a load step at noon. Run: npm run build && node dist/bench/control.bench.js
 * (docs/control-loops.md keeps the latest figures).
 */
import { feedInScenario, LimitTally, peakShavingScenario, summerDay, type SimulatedGateway } from '../edge/control/simulated-gateway';

const stepSeconds = 0.1;
const daySteps = (24 * 3600) / stepSeconds;

type Scenario = { gateway: SimulatedGateway; limitW: number; excess: (gateway: SimulatedGateway) => number; loadW: () => number };

function feedIn(seed: number): Scenario & { stepLoad: (watts: number) => void } {
  const { gateway, limitW, load } = feedInScenario(seed);
  return { gateway, limitW, excess: (g) => -g.site.meter.activePower - limitW, stepLoad: (watts) => (load.base += watts), loadW: () => load.consumption };
}

function peakShaving(seed: number): Scenario & { stepLoad: (watts: number) => void } {
  const { gateway, limitW, load } = peakShavingScenario(seed);
  return { gateway, limitW, excess: (g) => g.site.meter.activePower - limitW, stepLoad: (watts) => (load.base += watts), loadW: () => load.consumption };
}

/**
 * A simulated day: the share of steps within the limit and the worst overshoot; apart, the worst
 * overshoot of the step a load jumps in (by more than 5 % of the limit: no asset can have answered
 * yet) and of the step after it, and the worst of every other step (what the loop is answerable for).
 */
async function day(name: string, scenario: Scenario): Promise<void> {
  const tally = new LimitTally();
  const [jumpStep, nextStep, otherSteps] = [new LimitTally(), new LimitTally(), new LimitTally()];
  let load = scenario.loadW();
  let sinceJump = Infinity;
  const started = process.hrtime.bigint();
  for (let step = 0; step < daySteps; step += 1) {
    await scenario.gateway.step(stepSeconds);
    const excess = scenario.excess(scenario.gateway);
    tally.record(excess);
    sinceJump = Math.abs(scenario.loadW() - load) > 0.05 * scenario.limitW ? 0 : sinceJump + 1;
    load = scenario.loadW();
    (sinceJump === 0 ? jumpStep : sinceJump === 1 ? nextStep : otherSteps).record(excess);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await scenario.gateway.close();
  process.stdout.write(
    `${name}: ${tally.steps} steps, within limit ${(tally.share * 100).toFixed(3)} % (${tally.steps - tally.within} steps over), worst overshoot ${Math.round(tally.worstOvershootW)} W (${percent(tally.worstOvershootW, scenario.limitW)} of the limit; in the step a load jumps in ${Math.round(jumpStep.worstOvershootW)} W, ${jumpStep.steps - jumpStep.within} of ${jumpStep.steps} such steps over; the step after ${Math.round(nextStep.worstOvershootW)} W; any other step ${Math.round(otherSteps.worstOvershootW)} W); a simulated day took ${seconds.toFixed(1)} s\n`,
  );
}

function percent(watts: number, limitW: number): string {
  return `${((100 * watts) / limitW).toFixed(1)} %`;
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

async function main(): Promise<void> {
  await day('powerLimiter, feed-in limit 30 kW, 100 kW PV, noisy 20 kW load', feedIn(11));
  await day('batteryPeakShaver, consumption limit 55 kW, 50 kW battery, noisy 40 kW load with 20 kW peaks', peakShaving(12));
  await settling('powerLimiter settling', feedIn(21), -10_000);
  await settling('batteryPeakShaver settling', peakShaving(22), 20_000);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
});
