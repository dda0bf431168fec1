import { EvCharger } from './ev-charger';
import { Load } from './load';
import { Site } from './site';
import { SolarPlant } from './solar';

const midnight = Date.parse('2026-06-21T00:00:00Z');

describe('plant site', () => {
  it('the same seed gives the same day', () => {
    const run = (seed: number): number[] => {
      const site = new Site({ seed, start: midnight });
      site.add(new Load({ base: 2000, noise: 300, peakPower: 3000, peaksPerHour: 2 }));
      site.add(new SolarPlant({ nominalPower: 10_000 }));
      site.add(new EvCharger());
      const readings: number[] = [];
      for (let hour = 0; hour < 24; hour += 1) {
        site.advance(3600, 10);
        readings.push(site.meter.activePower);
      }
      return readings;
    };
    expect(run(3)).toEqual(run(3));
    expect(run(3)).not.toEqual(run(4));
  });
});
