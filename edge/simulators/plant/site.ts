import type { Environment, PlantAsset } from './asset';
import { GridMeter } from './grid-meter';
import { SeededRandom } from './random';
import { Weather, type WeatherOptions } from './weather';

export interface SiteOptions {
  /** Seed of the site's random generator. */
  seed: number;
  /** The site's clock at the start, ms since the epoch. */
  start: number;
  weather?: WeatherOptions;
  phaseVoltage?: number;
}

/**
 * A site: assets behind one grid meter, one seeded generator, one clock. Assets step in the
 * order they were added, so a seed gives the same day every time.
 */
export class Site implements Environment {
  now: number;
  readonly random: SeededRandom;
  readonly weather: Weather;
  readonly meter: GridMeter;
  readonly assets: PlantAsset[] = [];

  constructor(options: SiteOptions) {
    this.now = options.start;
    this.random = new SeededRandom(options.seed);
    this.weather = new Weather(options.weather);
    this.meter = new GridMeter(options.phaseVoltage ?? 230);
    this.weather.step(0, this.now, this.random);
    this.meter.measure(this.assets, 0);
  }

  get irradiance(): number {
    return this.weather.irradiance;
  }

  get windSpeed(): number {
    return this.weather.windSpeed;
  }

  /** Adds an asset behind the meter and returns it. */
  add<A extends PlantAsset>(asset: A): A {
    this.assets.push(asset);
    asset.step(0, this);
    this.meter.measure(this.assets, 0);
    return asset;
  }

  /** Advances the site by `dtSeconds` (more than 0). */
  step(dtSeconds: number): void {
    this.now += dtSeconds * 1000;
    this.weather.step(dtSeconds, this.now, this.random);
    for (const asset of this.assets) {
      asset.step(dtSeconds, this);
    }
    this.meter.measure(this.assets, dtSeconds);
  }

  /** Steps until `seconds` have passed, in steps of at most `maxStepSeconds`. */
  advance(seconds: number, maxStepSeconds = 1): void {
    let left = seconds;
    while (left > 1e-9) {
      const dt = Math.min(left, maxStepSeconds);
      this.step(dt);
      left -= dt;
    }
  }
}
