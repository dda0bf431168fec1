import { Site } from './site';
import { SolarPlant } from './solar';

const noonUtc = Date.parse('2026-06-21T12:00:00Z');

describe('plant solar', () => {
  it('a solar limit holds production at the limit, never above what the sun gives', () => {
    const site = new Site({ seed: 1, start: noonUtc, weather: { cloudsPerHour: 0 } });
    const solar = site.add(new SolarPlant({ nominalPower: 10_000, powerResponseMs: 1000 }));
    site.advance(30, 0.1);
    expect(solar.activePower).toBeCloseTo(solar.availablePower, 3);
    solar.setpoint = 3000;
    site.advance(1, 0.1);
    // One time constant: 63% of the way.
    expect(solar.activePower).toBeCloseTo(3000 + (solar.availablePower - 3000) * Math.exp(-1), 0);
    site.advance(20, 0.1);
    expect(solar.activePower).toBeCloseTo(3000, 3);
  });
});
