import { afrrScenario } from './grid-scenarios';
import { LimitTally } from './simulated-gateway';

const stepSeconds = 0.1;
const daySteps = (24 * 3600) / stepSeconds;

describe('afrrLimiter over a simulated day (controlLoopSleep 0.1 s, driven clock)', () => {
  it('delivers the quarter-hourly aFRR deltas within the site limits in at least 99.9 % of steps', async () => {
    const { gateway, limits } = afrrScenario(51);
    const [loop] = gateway.loops;
    const tally = new LimitTally();
    let worstShare = 0;
    // Delivery: the battery's power against its share (the afrr layer), from 2 s after the share moved.
    const tracking = new LimitTally();
    let lastShare: number | undefined;
    let movedAt = 0;
    let unallocatedSteps = 0;
    let alarms = 0;
    for (let step = 0; step < daySteps; step += 1) {
      await gateway.step(stepSeconds);
      const meter = gateway.site.meter.activePower;
      const excess = Math.max(meter - limits.consumption, -meter - limits.feedIn);
      tally.record(excess);
      worstShare = Math.max(worstShare, meter > 0 ? (meter - limits.consumption) / limits.consumption : (-meter - limits.feedIn) / limits.feedIn);
      const share = gateway.arbiter.desired(2).afrr;
      if (share === undefined || lastShare === undefined || Math.abs(share - lastShare) > 500) {
        movedAt = gateway.site.now;
      }
      lastShare = share;
      const effective = gateway.arbiter.observations(2)?.effective;
      if (share !== undefined && gateway.site.now - movedAt >= 2_000 && typeof effective === 'number') {
        tracking.record(Math.abs((gateway.site.assets[2]?.activePower ?? 0) - effective) - 0.05 * 50_000);
      }
      const report = loop?.statusReport(new Date(gateway.site.now));
      if (report?.type === 'afrrLimiterStatus' && report.observations.afrrDeltaSetpoint !== report.observations.afrrAllocated) {
        unallocatedSteps += 1;
      }
      alarms +=
        loop?.drainReports(new Date(gateway.site.now)).filter((r) => r.type === 'alarm' && r.observations.code === 'activeControl.afrrDeltaNotAllocated')
          .length ?? 0;
    }
    await gateway.close();
    expect(tally.share).toBeGreaterThanOrEqual(0.999);
    expect(worstShare).toBeLessThan(0.05);
    expect(tracking.share).toBeGreaterThanOrEqual(0.999);
    // The limits bind at times (a discharge at noon would push feed-in past 40 kW): the bounding and its alarm are exercised.
    expect(unallocatedSteps).toBeGreaterThan(0);
    expect(alarms).toBeGreaterThan(0);
  });
});
