import type { ControllableAsset } from './asset';
import { approach, clamp, energyWh } from './physics';

export interface BatteryOptions {
  capacityWh: number;
  /** % at the start (default 50). */
  stateOfCharge?: number;
  maxChargePower: number;
  maxDischargePower: number;
  /** One-way efficiency, 0-1 (default 0.95): charging stores power × efficiency, discharging takes power / efficiency. */
  efficiency?: number;
  /** The battery's own SoC limits, % (defaults 5 and 95): it stops discharging at min and charging at max. */
  minStateOfCharge?: number;
  maxStateOfCharge?: number;
  /** Time constant of reaching a setpoint, ms (default 500). */
  powerResponseMs?: number;
  /** Nominal DC voltage, V (default 400). */
  dcVoltage?: number;
}

/** A battery: a setpoint (W, positive discharging) reached with a first-order lag, within its power and SoC limits. */
export class Battery implements ControllableAsset {
  activePower = 0;
  setpoint: number | null = null;
  stateOfCharge: number;
  energyCharged = 0;
  energyDischarged = 0;
  readonly capacityWh: number;
  readonly efficiency: number;
  readonly minStateOfCharge: number;
  readonly maxStateOfCharge: number;
  readonly nominalDcVoltage: number;
  private readonly chargeLimit: number;
  private readonly dischargeLimit: number;
  private readonly powerResponseMs: number;

  constructor(options: BatteryOptions) {
    this.capacityWh = options.capacityWh;
    this.stateOfCharge = options.stateOfCharge ?? 50;
    this.chargeLimit = options.maxChargePower;
    this.dischargeLimit = options.maxDischargePower;
    this.efficiency = options.efficiency ?? 0.95;
    this.minStateOfCharge = options.minStateOfCharge ?? 5;
    this.maxStateOfCharge = options.maxStateOfCharge ?? 95;
    this.powerResponseMs = options.powerResponseMs ?? 500;
    this.nominalDcVoltage = options.dcVoltage ?? 400;
  }

  /** Largest charge power now, W (0 at the upper SoC limit). */
  get maxChargePower(): number {
    return this.stateOfCharge >= this.maxStateOfCharge ? 0 : this.chargeLimit;
  }

  /** Largest discharge power now, W (0 at the lower SoC limit). */
  get maxDischargePower(): number {
    return this.stateOfCharge <= this.minStateOfCharge ? 0 : this.dischargeLimit;
  }

  get powerRange(): { min: number; max: number } {
    return { min: -this.chargeLimit, max: this.dischargeLimit };
  }

  /** DC voltage, V: rises a little with the charge. */
  get dcVoltage(): number {
    return this.nominalDcVoltage * (0.9 + (0.2 * this.stateOfCharge) / 100);
  }

  get status(): 'on' | 'off' {
    return this.activePower === 0 && this.setpoint === null ? 'off' : 'on';
  }

  step(dtSeconds: number): void {
    const target = clamp(this.setpoint ?? 0, -this.maxChargePower, this.maxDischargePower);
    let power = approach(this.activePower, target, dtSeconds, this.powerResponseMs);
    // Never past a SoC limit within the step: the battery management cuts the power there.
    const storedWh = (this.stateOfCharge / 100) * this.capacityWh;
    if (power > 0) {
      const availableWh = Math.max(0, storedWh - (this.minStateOfCharge / 100) * this.capacityWh);
      power = Math.min(power, (availableWh * this.efficiency * 3600) / dtSeconds, this.maxDischargePower);
      this.energyDischarged += energyWh(power, dtSeconds);
      this.stateOfCharge -= (energyWh(power, dtSeconds) / this.efficiency / this.capacityWh) * 100;
    } else if (power < 0) {
      const roomWh = Math.max(0, (this.maxStateOfCharge / 100) * this.capacityWh - storedWh);
      power = Math.max(power, -(roomWh * 3600) / (this.efficiency * dtSeconds), -this.maxChargePower);
      this.energyCharged += energyWh(-power, dtSeconds);
      this.stateOfCharge += ((-power * dtSeconds * this.efficiency) / 3600 / this.capacityWh) * 100;
    }
    this.activePower = power;
  }
}
