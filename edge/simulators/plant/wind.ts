import type { ControllableAsset, Environment } from './asset';
import { energyWh, producerPower } from './physics';

export interface WindOptions {
  nominalPower: number;
  /** m/s (defaults 3, 12, 25). */
  cutInSpeed?: number;
  ratedSpeed?: number;
  cutOutSpeed?: number;
  /** Rotor speed at rated wind, rpm (default 15). */
  ratedRotorSpeed?: number;
  powerResponseMs?: number;
}

/** A wind turbine: wind speed through a cubic power curve between cut-in and rated, stopped above cut-out. */
export class WindTurbine implements ControllableAsset {
  activePower = 0;
  availablePower = 0;
  setpoint: number | null = null;
  energyProduced = 0;
  windSpeed = 0;
  rotorSpeed = 0;
  readonly nominalPower: number;
  private readonly cutIn: number;
  private readonly rated: number;
  private readonly cutOut: number;
  private readonly ratedRotorSpeed: number;
  private readonly powerResponseMs: number;

  constructor(options: WindOptions) {
    this.nominalPower = options.nominalPower;
    this.cutIn = options.cutInSpeed ?? 3;
    this.rated = options.ratedSpeed ?? 12;
    this.cutOut = options.cutOutSpeed ?? 25;
    this.ratedRotorSpeed = options.ratedRotorSpeed ?? 15;
    this.powerResponseMs = options.powerResponseMs ?? 2000;
  }

  get powerRange(): { min: number; max: number } {
    return { min: 0, max: this.nominalPower };
  }

  /** The power curve: W at a wind speed. */
  powerAt(windSpeed: number): number {
    if (windSpeed < this.cutIn || windSpeed >= this.cutOut) {
      return 0;
    }
    if (windSpeed >= this.rated) {
      return this.nominalPower;
    }
    const cubes = (windSpeed ** 3 - this.cutIn ** 3) / (this.rated ** 3 - this.cutIn ** 3);
    return this.nominalPower * cubes;
  }

  get converterStatus(): 'running' | 'pause' | 'stop' {
    if (this.windSpeed >= this.cutOut) {
      return 'stop';
    }
    return this.availablePower > 0 ? 'running' : 'pause';
  }

  step(dtSeconds: number, environment: Environment): void {
    this.windSpeed = environment.windSpeed;
    this.availablePower = this.powerAt(this.windSpeed);
    this.activePower = producerPower(this.activePower, this.availablePower, this.setpoint, dtSeconds, this.powerResponseMs);
    this.rotorSpeed = this.availablePower > 0 ? this.ratedRotorSpeed * Math.min(1, this.windSpeed / this.rated) : 0;
    this.energyProduced += energyWh(this.activePower, dtSeconds);
  }
}
