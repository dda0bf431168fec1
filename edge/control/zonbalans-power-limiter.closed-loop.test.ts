import { zonbalansScenario } from './grid-scenarios';
import { LimitTally } from './simulated-gateway';
import { imbalanceSettlementPeriodMs } from './zonbalans-power-limiter';

const stepSeconds = 0.1;
const daySteps = (24 * 3600) / stepSeconds;

describe('zonbalansPowerLimiter over a simulated day (controlLoopSleep 0.1 s, driven clock)', () => {
  it('keeps the mean feed-in of every quarter hour under its limit, and the instant feed-in under twice it in at least 99.9 % of steps', async () => {
    const { gateway, limitW } = zonbalansScenario(41);
    const periods = new LimitTally();
    const instants = new LimitTally();
    let worstPeriodShare = 0;
    let highestMean = -Infinity;
    let period = Math.floor(gateway.site.now / imbalanceSettlementPeriodMs);
    let energy = 0;
    let curtailed = 0;
    let burst = 0;
    for (let step = 0; step < daySteps; step += 1) {
      await gateway.step(stepSeconds);
      const now = gateway.site.now;
      const current = Math.floor((now - 1) / imbalanceSettlementPeriodMs);
      const feedIn = -gateway.site.meter.activePower;
      energy += feedIn * stepSeconds;
      if (current !== period || step === daySteps - 1) {
        const mean = energy / (imbalanceSettlementPeriodMs / 1000);
        periods.record(mean - limitW);
        worstPeriodShare = Math.max(worstPeriodShare, (mean - limitW) / limitW);
        highestMean = Math.max(highestMean, mean);
        energy = 0;
        period = current;
      }
      instants.record(feedIn - 2 * limitW);
      if (gateway.arbiter.observations(1)?.effective !== null) {
        curtailed += 1;
      }
      if (feedIn > limitW) {
        burst += 1;
      }
    }
    await gateway.close();
    expect(curtailed).toBeGreaterThan(daySteps / 4);
    expect(periods.steps).toBe(96);
    expect(periods.within).toBe(96);
    // The budget is used: the sunny quarter hours end within 1 % under the limit.
    expect(highestMean).toBeGreaterThan(0.99 * limitW);
    // Quiet minutes' budget is spent later in the quarter hour: feed-in goes above the mean limit at times.
    expect(burst).toBeGreaterThan(0);
    expect(instants.share).toBeGreaterThanOrEqual(0.999);
    expect(instants.worstOvershootW).toBeLessThan(0.05 * 2 * limitW);
  });
});
