import { feedInScenario, LimitTally } from './simulated-gateway';

const stepSeconds = 0.1;
const daySteps = (24 * 3600) / stepSeconds;

describe('powerLimiter over a simulated day (controlLoopSleep 0.1 s, driven clock)', () => {
  it('holds feed-in under its limit in at least 99.9 % of control steps', async () => {
    const { gateway, limitW } = feedInScenario(11);
    const tally = new LimitTally();
    let curtailedSteps = 0;
    for (let step = 0; step < daySteps; step += 1) {
      await gateway.step(stepSeconds);
      tally.record(-gateway.site.meter.activePower - limitW);
      if (gateway.arbiter.observations(1)?.effective !== null) {
        curtailedSteps += 1;
      }
    }
    await gateway.close();
    // The limit binds for hours around noon, so the test measures control, not an idle loop.
    expect(curtailedSteps).toBeGreaterThan(daySteps / 4);
    expect(tally.steps).toBe(daySteps);
    expect(tally.share).toBeGreaterThanOrEqual(0.999);
  });
});
