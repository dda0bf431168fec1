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
  /**
   * The SoC band next to each SoC limit over which the battery management tapers the power it
   * allows, % (default 5; 0: full power up to the limit, then none).
   */
  taperStateOfCharge?: number;
  /** The share of the power limit still allowed right at the SoC limit, where the battery management then cuts it, 0-1 (default 0.05). */
  taperFloor?: number;
  /** Time constant of reaching a setpoint, ms (default 500). */
  powerResponseMs?: number;
  /** Nominal DC voltage, V (default 400). */
  dcVoltage?: number;
}

/**
 * A battery: a setpoint (W, positive discharging) reached with a first-order lag, within its power
 * and SoC limits. Like a real battery management system (a discharge current limit falling as the
 * cells near their cut-off voltage, a constant-voltage phase near full) it tapers the power it
 * allows linearly over the last `taperStateOfCharge` % before either SoC limit, down to
 * `taperFloor` of its limit, and reports that allowance (maxChargePower, maxDischargePower), so
 * an empty battery fades out over minutes instead of dropping its full power in one step.
 */
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
  private readonly taperStateOfCharge: number;
  private readonly taperFloor: number;

  constructor(options: BatteryOptions) {
    this.capacityWh = options.capacityWh;
    this.stateOfCharge = options.stateOfCharge ?? 50;
    this.chargeLimit = options.maxChargePower;
    this.dischargeLimit = options.maxDischargePower;
    this.efficiency = options.efficiency ?? 0.95;
    this.minStateOfCharge = options.minStateOfCharge ?? 5;
    this.maxStateOfCharge = options.maxStateOfCharge ?? 95;
    this.powerResponseMs = options.powerResponseMs ?? 500;
    this.taperStateOfCharge = options.taperStateOfCharge ?? 5;
    this.taperFloor = options.taperFloor ?? 0.05;
    this.nominalDcVoltage = options.dcVoltage ?? 400;
  }

  /** Largest charge power now, W: tapered near the upper SoC limit, 0 at it. */
  get maxChargePower(): number {
    return this.stateOfCharge >= this.maxStateOfCharge ? 0 : this.chargeLimit * this.taper(this.maxStateOfCharge - this.stateOfCharge);
  }

  /** Largest discharge power now, W: tapered near the lower SoC limit, 0 at it. */
  get maxDischargePower(): number {
    return this.stateOfCharge <= this.minStateOfCharge ? 0 : this.dischargeLimit * this.taper(this.stateOfCharge - this.minStateOfCharge);
  }

  /** The share of its power limit the battery allows `distance` % of SoC away from a SoC limit. */
  private taper(distance: number): number {
    if (distance >= this.taperStateOfCharge) {
      return 1;
    }
    return this.taperFloor + ((1 - this.taperFloor) * distance) / this.taperStateOfCharge;
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
