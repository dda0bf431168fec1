import { peakShavingScenario, LimitTally } from './simulated-gateway';

const stepSeconds = 0.1;
const daySteps = (24 * 3600) / stepSeconds;

describe('batteryPeakShaver over a simulated day (controlLoopSleep 0.1 s, driven clock)', () => {
  it('holds consumption under its limit in at least 99.9 % of control steps', async () => {
    const { gateway, limitW } = peakShavingScenario(12);
    const tally = new LimitTally();
    let shavingSteps = 0;
    for (let step = 0; step < daySteps; step += 1) {
      await gateway.step(stepSeconds);
      tally.record(gateway.site.meter.activePower - limitW);
      const effective = gateway.arbiter.observations(1)?.effective;
      if (effective !== null && effective !== undefined && effective > 0) {
        shavingSteps += 1;
      }
    }
    await gateway.close();
    expect(shavingSteps).toBeGreaterThan(daySteps / 50);
    expect(tally.steps).toBe(daySteps);
    expect(tally.share).toBeGreaterThanOrEqual(0.999);
  });
});
