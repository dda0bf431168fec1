import { apparentPowerScenario, LimitTally, summerDay } from './simulated-gateway';

const stepSeconds = 0.1;
const daySteps = (24 * 3600) / stepSeconds;

describe('apparentPowerLimiter over a simulated day (controlLoopSleep 0.1 s, driven clock)', () => {
  it('holds the apparent power at the meter under its limit in at least 99.9 % of control steps', async () => {
    const { gateway, limitVA, meter } = apparentPowerScenario(34);
    const tally = new LimitTally();
    let curtailed = 0;
    for (let step = 0; step < daySteps; step += 1) {
      await gateway.step(stepSeconds);
      tally.record(Math.hypot(gateway.site.meter.activePower, meter.reactivePower) - limitVA);
      if (gateway.arbiter.observations(1)?.effective !== null) {
        curtailed += 1;
      }
    }
    await gateway.close();
    expect(curtailed).toBeGreaterThan(daySteps / 5);
    expect(tally.steps).toBe(daySteps);
    expect(tally.share).toBeGreaterThanOrEqual(0.999);
    expect(tally.worstOvershootW).toBeLessThan(0.05 * limitVA);
  });

  it('reports the apparent power and the active power the reactive power leaves, and falls back when the meter is blind', async () => {
    const { gateway, limitVA, meter } = apparentPowerScenario(39);
    gateway.site.advance((summerDay + 11 * 3_600_000 - gateway.site.now) / 1000, 1);
    for (let step = 0; step < 6_000; step += 1) {
      await gateway.step(stepSeconds);
    }
    const [loop] = gateway.loops;
    const status = loop?.statusReport(new Date(gateway.site.now)).observations as Record<string, unknown> | undefined;
    expect(status).toMatchObject({ state: 'active', apparentPowerLimit: limitVA });
    // The site draws about 10 kvar at power factor 0.9: the active power allowed is sqrt(40² - Q²) kW less the reactive headroom.
    const allowed = Number(status?.feedInLimit);
    expect(allowed).toBeLessThan(Math.sqrt(limitVA ** 2 - meter.reactivePower ** 2));
    expect(allowed).toBeGreaterThan(35_000);
    meter.link.down = true;
    for (let step = 0; step < 600; step += 1) {
      await gateway.step(stepSeconds);
    }
    expect(loop?.statusReport(new Date(gateway.site.now))).toMatchObject({ observations: { state: 'fallback', apparentPower: null, unreadableAssets: [0] } });
    expect(typeof gateway.arbiter.observations(1)?.effective).toBe('number');
    await gateway.close();
  });
});
