import { Load } from './load';
import { Site } from './site';

const midnight = Date.parse('2026-06-21T00:00:00Z');

describe('plant load', () => {
  it('a noisy load keeps its deviation whatever the step and has its peaks', () => {
    const deviation = (dt: number, hours: number): number => {
      const site = new Site({ seed: 11, start: midnight });
      const load = site.add(new Load({ base: 2000, noise: 200, noiseTimeConstantS: 5 }));
      let squares = 0;
      const n = Math.round((hours * 3600) / dt);
      for (let i = 0; i < n; i += 1) {
        site.step(dt);
        squares += (load.consumption - 2000) ** 2;
      }
      return Math.sqrt(squares / n);
    };
    expect(Math.abs(deviation(0.1, 2) - 200)).toBeLessThan(25);
    expect(Math.abs(deviation(1, 10) - 200)).toBeLessThan(25);
    const site = new Site({ seed: 11, start: midnight });
    const load = site.add(new Load({ base: 2000, peakPower: 3000, peaksPerHour: 6 }));
    let peakSeconds = 0;
    let wrong = 0;
    for (let i = 0; i < 3600; i += 1) {
      site.step(1);
      peakSeconds += load.peakActive ? 1 : 0;
      wrong += load.consumption === (load.peakActive ? 5000 : 2000) ? 0 : 1;
    }
    expect(wrong).toBe(0);
    expect(peakSeconds).toBeGreaterThan(0);
    expect(peakSeconds).toBeLessThan(3600);
  });
});
