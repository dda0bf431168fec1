import type { ControllableAsset, Environment } from './asset';
import { energyWh, producerPower } from './physics';

export interface SolarOptions {
  /** Peak power at 1000 W/m², W. */
  nominalPower: number;
  /** Time constant of the inverter's response to a limit, ms (default 1000). */
  powerResponseMs?: number;
}

/** A PV inverter: available power follows irradiance; a setpoint (0..nominal) limits it. */
export class SolarPlant implements ControllableAsset {
  activePower = 0;
  availablePower = 0;
  setpoint: number | null = null;
  /** Wh produced since the start (the inverter's counter). */
  energyProduced = 0;
  readonly nominalPower: number;
  private readonly powerResponseMs: number;

  constructor(options: SolarOptions) {
    this.nominalPower = options.nominalPower;
    this.powerResponseMs = options.powerResponseMs ?? 1000;
  }

  get powerRange(): { min: number; max: number } {
    return { min: 0, max: this.nominalPower };
  }

  step(dtSeconds: number, environment: Environment): void {
    this.availablePower = Math.min(this.nominalPower, (this.nominalPower * environment.irradiance) / 1000);
    this.activePower = producerPower(this.activePower, this.availablePower, this.setpoint, dtSeconds, this.powerResponseMs);
    this.energyProduced += energyWh(this.activePower, dtSeconds);
  }
}
