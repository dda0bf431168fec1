import type { Environment, PlantAsset } from './asset';
import { lagFactor } from './physics';

export interface LoadOptions {
  /** Base consumption, W. */
  base: number;
  /** Standard deviation of the noise around it, W (default 0). */
  noise?: number;
  /** How long the noise stays correlated, s (default 5; 0 for white noise at every step). */
  noiseTimeConstantS?: number;
  /** Peaks (a kettle, a compressor): extra W, how many start per hour, and how long they last in s. */
  peakPower?: number;
  peaksPerHour?: number;
  peakDurationS?: readonly [number, number];
}

/** A household or site load: base plus correlated noise plus occasional peaks; consumption, so its activePower is negative. */
export class Load implements PlantAsset {
  activePower: number;
  /** Consumption now, W (positive). */
  consumption: number;
  base: number;
  private readonly noise: number;
  private readonly noiseTimeConstantMs: number;
  private readonly peakPower: number;
  private readonly peaksPerHour: number;
  private readonly peakDurationS: readonly [number, number];
  private noiseValue = 0;
  private peakEndsAt = 0;

  constructor(options: LoadOptions) {
    this.base = options.base;
    this.noise = options.noise ?? 0;
    this.noiseTimeConstantMs = (options.noiseTimeConstantS ?? 5) * 1000;
    this.peakPower = options.peakPower ?? 0;
    this.peaksPerHour = options.peaksPerHour ?? 0;
    this.peakDurationS = options.peakDurationS ?? [60, 300];
    this.consumption = this.base;
    this.activePower = -this.base;
  }

  get peakActive(): boolean {
    return this.peakEndsAt > 0;
  }

  step(dtSeconds: number, environment: Environment): void {
    const pull = lagFactor(dtSeconds, this.noiseTimeConstantMs);
    // An AR(1) process with the same stationary deviation whatever the step.
    this.noiseValue += -this.noiseValue * pull + environment.random.normal() * this.noise * Math.sqrt(pull * (2 - pull));
    if (this.peakEndsAt > 0 && environment.now >= this.peakEndsAt) {
      this.peakEndsAt = 0;
    }
    if (this.peakEndsAt === 0 && environment.random.chance(this.peaksPerHour, dtSeconds)) {
      this.peakEndsAt = environment.now + environment.random.between(this.peakDurationS[0], this.peakDurationS[1]) * 1000;
    }
    this.consumption = Math.max(0, this.base + this.noiseValue + (this.peakEndsAt > 0 ? this.peakPower : 0));
    this.activePower = 0 - this.consumption;
  }
}
