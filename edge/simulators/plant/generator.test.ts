import { Generator } from './generator';
import { Site } from './site';

const midnight = Date.parse('2026-06-21T00:00:00Z');

describe('plant generator', () => {
  it('a generator starts after its delay and keeps running for its minimum runtime', () => {
    const site = new Site({ seed: 1, start: midnight });
    const generator = site.add(new Generator({ nominalPower: 10_000, minimumRuntimeS: 600, startDelayS: 10, powerResponseMs: 0 }));
    generator.command(true, site.now);
    site.advance(9, 1);
    expect(generator.status).toBe('standby');
    site.advance(1, 1);
    expect(generator.status).toBe('running');
    expect(generator.activePower).toBe(10_000);
    generator.command(false, site.now);
    site.advance(300, 1);
    expect(generator.status).toBe('running');
    site.advance(300, 1);
    expect(generator.status).toBe('standby');
    expect(generator.activePower).toBe(0);
    expect(generator.runningHours).toBeCloseTo(600 / 3600, 9);
  });
});
