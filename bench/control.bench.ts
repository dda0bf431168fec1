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

type Scenario = { gateway: SimulatedGateway; limitW: number; excess: (gateway: SimulatedGateway) => number };

function feedIn(seed: number): Scenario & { stepLoad: (watts: number) => void } {
  const { gateway, limitW, load } = feedInScenario(seed);
  return { gateway, limitW, excess: (g) => -g.site.meter.activePower - limitW, stepLoad: (watts) => (load.base += watts) };
}

function peakShaving(seed: number): Scenario & { stepLoad: (watts: number) => void } {
  const { gateway, limitW, load } = peakShavingScenario(seed);
  return { gateway, limitW, excess: (g) => g.site.meter.activePower - limitW, stepLoad: (watts) => (load.base += watts) };
}

async function day(name: string, scenario: Scenario): Promise<void> {
  const tally = new LimitTally();
  const started = process.hrtime.bigint();
  for (let step = 0; step < daySteps; step += 1) {
    await scenario.gateway.step(stepSeconds);
    tally.record(scenario.excess(scenario.gateway));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await scenario.gateway.close();
  process.stdout.write(
    `${name}: ${tally.steps} steps, within limit ${(tally.share * 100).toFixed(3)} % (${tally.steps - tally.within} steps over), worst overshoot ${Math.round(tally.worstOvershootW)} W; a simulated day took ${seconds.toFixed(1)} s\n`,
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
