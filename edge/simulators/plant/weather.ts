import { approach, hourMs, lagFactor } from './physics';
import type { SeededRandom } from './random';

export interface WeatherOptions {
  /** Hours added to UTC for the local solar time (default 1, central Europe in winter). */
  utcOffsetHours?: number;
  /** Local hours of sunrise and sunset (default 6 and 20). */
  sunrise?: number;
  sunset?: number;
  /** Clear-sky irradiance at solar noon, W/m² (default 1000). */
  peakIrradiance?: number;
  /** Clouds passing per hour (default 4); each lasts 30-300 s and dims by 30-80%. */
  cloudsPerHour?: number;
  /** Mean wind speed, m/s (default 7). */
  meanWindSpeed?: number;
  /** Standard deviation of the gusts, m/s (default 1.5). */
  gustiness?: number;
}

/** Irradiance by time of day with passing clouds; wind as a slowly wandering mean with gusts. */
export class Weather {
  irradiance = 0;
  windSpeed: number;
  private readonly options: Required<WeatherOptions>;
  private cloudDepth = 0;
  private cloudTarget = 0;
  private cloudEndsAt = 0;
  private windMean: number;
  private gust = 0;

  constructor(options: WeatherOptions = {}) {
    this.options = {
      utcOffsetHours: options.utcOffsetHours ?? 1,
      sunrise: options.sunrise ?? 6,
      sunset: options.sunset ?? 20,
      peakIrradiance: options.peakIrradiance ?? 1000,
      cloudsPerHour: options.cloudsPerHour ?? 4,
      meanWindSpeed: options.meanWindSpeed ?? 7,
      gustiness: options.gustiness ?? 1.5,
    };
    this.windMean = this.options.meanWindSpeed;
    this.windSpeed = this.windMean;
  }

  /** Clear-sky irradiance at a time, W/m². */
  clearSky(now: number): number {
    const { sunrise, sunset, utcOffsetHours, peakIrradiance } = this.options;
    const hour = (((now / hourMs + utcOffsetHours) % 24) + 24) % 24;
    if (hour <= sunrise || hour >= sunset) {
      return 0;
    }
    const elevation = Math.sin((Math.PI * (hour - sunrise)) / (sunset - sunrise));
    return peakIrradiance * elevation * Math.sqrt(elevation);
  }

  step(dtSeconds: number, now: number, random: SeededRandom): void {
    if (now >= this.cloudEndsAt) {
      this.cloudTarget = 0;
    }
    if (this.cloudTarget === 0 && random.chance(this.options.cloudsPerHour, dtSeconds)) {
      this.cloudTarget = random.between(0.3, 0.8);
      this.cloudEndsAt = now + random.between(30_000, 300_000);
    }
    // A cloud's edge takes about 20 s to pass.
    this.cloudDepth = approach(this.cloudDepth, this.cloudTarget, dtSeconds, 20_000);
    this.irradiance = this.clearSky(now) * (1 - this.cloudDepth);

    // The mean wanders over half an hour; gusts come and go within about ten seconds.
    const meanPull = lagFactor(dtSeconds, 1_800_000);
    this.windMean += (this.options.meanWindSpeed - this.windMean) * meanPull + random.normal() * Math.sqrt(meanPull) * 2;
    const gustPull = lagFactor(dtSeconds, 10_000);
    this.gust += -this.gust * gustPull + random.normal() * Math.sqrt(2 * gustPull) * this.options.gustiness;
    this.windSpeed = Math.max(0, this.windMean + this.gust);
  }
}
