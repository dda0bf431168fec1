import { JumpWatch, readinessWeight } from './battery-peak-shaver';
import { SeededRandom } from '../simulators/plant';

/** Feeds `watch` a noisy site (500 W deviation around `level`) for `steps` steps of 0.1 s from `now`; returns the time after. */
function noisy(watch: JumpWatch, random: SeededRandom, level: number, steps: number, now: number): number {
  let at = now;
  for (let step = 0; step < steps; step += 1) {
    at += 100;
    watch.observe(level + random.normal() * 500, at);
  }
  return at;
}

describe('JumpWatch', () => {
  it('learns a 20 kW load switching on as a jump, not the noise, and is raised until the load is off again', () => {
    const watch = new JumpWatch();
    const random = new SeededRandom(3);
    let now = noisy(watch, random, 40_000, 2_000, 0);
    expect(watch.jumpW).toBe(0);
    expect(watch.raised).toBe(false);
    now = noisy(watch, random, 60_000, 1, now);
    expect(watch.jumpW).toBeGreaterThan(17_000);
    expect(watch.jumpW).toBeLessThan(23_000);
    now = noisy(watch, random, 60_000, 100, now);
    expect(watch.raised).toBe(true);
    noisy(watch, random, 40_000, 1, now);
    expect(watch.raised).toBe(false);
  });

  it('forgets a jump over a week unless one as large comes again', () => {
    const watch = new JumpWatch();
    const random = new SeededRandom(4);
    let now = noisy(watch, random, 40_000, 2_000, 0);
    now = noisy(watch, random, 60_000, 1, now);
    const learned = watch.jumpW;
    watch.observe(40_000, now + 7 * 86_400_000);
    expect(watch.jumpW / learned).toBeCloseTo(Math.exp(-1), 2);
  });
});

describe('readinessWeight', () => {
  it('keeps no readiness up to the middle of the state-of-charge range and all of it 5 points above', () => {
    const range = { min: 10, max: 100 };
    expect(readinessWeight(40, range)).toBe(0);
    expect(readinessWeight(55, range)).toBe(0);
    expect(readinessWeight(57.5, range)).toBeCloseTo(0.5);
    expect(readinessWeight(60, range)).toBe(1);
    expect(readinessWeight(95, { min: 80, max: 100 })).toBe(1);
    expect(readinessWeight(85, { min: 80, max: 100 })).toBe(0);
  });
});
