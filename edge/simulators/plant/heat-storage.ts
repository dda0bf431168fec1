import type { ControllableAsset } from './asset';
import { approach, clamp, energyWh } from './physics';

export interface HeatStorageOptions {
  /** Heater power, W. */
  heaterPower: number;
  capacityWh: number;
  /** % at the start (default 50). */
  stateOfCharge?: number;
  /** Storage temperature at 0% and 100%, °C (defaults 40 and 90). */
  minTemperature?: number;
  maxTemperature?: number;
  /** Heat drawn from the storage (hot water, heating), W (default 500). */
  heatDemand?: number;
  powerResponseMs?: number;
}

/**
 * Heat storage with an electric heater: a setpoint (W, 0 or negative, the heater's draw) heats
 * it; without one a thermostat heats at full power from 20% to 90%. Full at 100% (the heater stops).
 */
export class HeatStorage implements ControllableAsset {
  activePower = 0;
  setpoint: number | null = null;
  stateOfCharge: number;
  readonly heaterPower: number;
  readonly capacityWh: number;
  private readonly minTemperature: number;
  private readonly maxTemperature: number;
  private readonly heatDemand: number;
  private readonly powerResponseMs: number;
  private thermostatOn = false;

  constructor(options: HeatStorageOptions) {
    this.heaterPower = options.heaterPower;
    this.capacityWh = options.capacityWh;
    this.stateOfCharge = options.stateOfCharge ?? 50;
    this.minTemperature = options.minTemperature ?? 40;
    this.maxTemperature = options.maxTemperature ?? 90;
    this.heatDemand = options.heatDemand ?? 500;
    this.powerResponseMs = options.powerResponseMs ?? 1000;
  }

  get powerRange(): { min: number; max: number } {
    return { min: -this.heaterPower, max: 0 };
  }

  get temperature(): number {
    return this.minTemperature + ((this.maxTemperature - this.minTemperature) * this.stateOfCharge) / 100;
  }

  get storedEnergy(): number {
    return (this.capacityWh * this.stateOfCharge) / 100;
  }

  step(dtSeconds: number): void {
    if (this.stateOfCharge <= 20) {
      this.thermostatOn = true;
    } else if (this.stateOfCharge >= 90) {
      this.thermostatOn = false;
    }
    const wanted = this.setpoint === null ? (this.thermostatOn ? -this.heaterPower : 0) : clamp(this.setpoint, -this.heaterPower, 0);
    const target = this.stateOfCharge >= 100 ? 0 : wanted;
    this.activePower = approach(this.activePower, target, dtSeconds, this.powerResponseMs);
    const heatWh = energyWh(-this.activePower - this.heatDemand, dtSeconds);
    this.stateOfCharge = clamp(this.stateOfCharge + (heatWh / this.capacityWh) * 100, 0, 100);
  }
}
