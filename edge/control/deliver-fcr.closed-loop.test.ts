import { fcrDipMs, fcrScenario } from './grid-scenarios';
import { fcrDroop } from './schedule';
import { LimitTally, summerDay } from './simulated-gateway';

const hourMs = 3_600_000;

const stepSeconds = 0.1;

describe('setBatteryOperation deliverFCR over six simulated hours (controlLoopSleep 0.1 s, driven clock)', () => {
  it('follows the droop on the meter frequency within 5 % of its band in at least 99.9 % of steps', async () => {
    const hours = 6;
    const { gateway, battery, frequency } = fcrScenario(71, hours);
    // Dispatch 10 kW on a ±50 kW battery: the band both ways is 40 kW.
    const band = 40_000;
    const tally = new LimitTally();
    const setpoints = new LimitTally();
    // The arbiter writes when the value moved by more than 0.5 % of nominal power (250 W).
    const writeTolerance = 250;
    const edges = new LimitTally();
    let lowest = Infinity;
    let highest = -Infinity;
    const steps = (hours * 3600) / stepSeconds;
    for (let step = 0; step < steps; step += 1) {
      gateway.site.meter.frequency = frequency(stepSeconds, gateway.site.now + stepSeconds * 1000);
      await gateway.step(stepSeconds);
      const f = gateway.site.meter.frequency;
      const activation = Math.max(-1, Math.min(1, (fcrDroop.nominalHz - f) / fcrDroop.fullActivationHz));
      const expected = 10_000 + band * activation;
      const error = Math.abs(battery.activePower - expected) - 0.05 * band;
      // The dip's edges move the frequency 200 mHz in a few seconds: the 5 s after each count apart, as the settling.
      const sinceEdge = Math.min((gateway.site.now - summerDay) % hourMs, Math.abs(((gateway.site.now - summerDay) % hourMs) - fcrDipMs));
      if (sinceEdge <= 5_000) {
        edges.record(error);
      } else {
        tally.record(error);
      }
      const written = gateway.arbiter.observations(1)?.effective;
      setpoints.record(typeof written === 'number' ? Math.abs(written - expected) - writeTolerance : Infinity);
      lowest = Math.min(lowest, battery.activePower);
      highest = Math.max(highest, battery.activePower);
    }
    await gateway.close();
    expect(tally.share).toBeGreaterThanOrEqual(0.999);
    expect(setpoints.share).toBeGreaterThanOrEqual(0.999);
    // The hourly dips to 49.8 Hz call (nearly) the full band: the battery reached 49.5 kW.
    expect(highest).toBeGreaterThan(49_500);
    expect(lowest).toBeLessThan(0);
  });
});
