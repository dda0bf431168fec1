import { SeededRandom } from './random';
import { Weather } from './weather';

const midnight = Date.parse('2026-06-21T00:00:00Z');
const noonUtc = Date.parse('2026-06-21T12:00:00Z');

describe('plant weather', () => {
  it('irradiance is 0 at night and follows the sun by day, dimmed by clouds only', () => {
    const weather = new Weather({ utcOffsetHours: 0, sunrise: 6, sunset: 18, peakIrradiance: 1000 });
    expect(weather.clearSky(midnight)).toBe(0);
    expect(weather.clearSky(noonUtc)).toBe(1000);
    expect(weather.clearSky(Date.parse('2026-06-21T09:00:00Z'))).toBeCloseTo(1000 * Math.sin(Math.PI / 4) ** 1.5, 9);
    const random = new SeededRandom(5);
    let dimmed = 0;
    let above = 0;
    for (let t = 0; t < 3600; t += 1) {
      weather.step(1, noonUtc + t * 1000, random);
      above += weather.irradiance > weather.clearSky(noonUtc + t * 1000) ? 1 : 0;
      dimmed += weather.irradiance < 0.95 * weather.clearSky(noonUtc + t * 1000) ? 1 : 0;
    }
    expect(above).toBe(0);
    // Four clouds an hour of 30-300 s each dim part of the hour, not all of it.
    expect(dimmed).toBeGreaterThan(0);
    expect(dimmed).toBeLessThan(3600);
  });
});
