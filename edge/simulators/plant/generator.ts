import type { ControllableAsset, Environment } from './asset';
import { approach, clamp, energyWh } from './physics';

export interface GeneratorOptions {
  nominalPower: number;
  /** Minimum runtime once started, s (default 0; the config gives minutes). */
  minimumRuntimeS?: number;
  /** Seconds from a start command to running (default 10). */
  startDelayS?: number;
  /** Fuel tank as Wh of electricity it gives (default 200 kWh), and the level at the start in %. */
  fuelCapacityWh?: number;
  fuelLevel?: number;
  powerResponseMs?: number;
}

/** A generator: started and stopped by command (a stop waits out the minimum runtime); while running a setpoint (0..nominal) sets its power, full power without one. */
export class Generator implements ControllableAsset {
  activePower = 0;
  setpoint: number | null = null;
  status: 'running' | 'standby' | 'off' = 'standby';
  energyProduced = 0;
  runningHours = 0;
  fuelLevel: number;
  /** The last start/stop command: true run, false stop, null none. */
  runRequest: boolean | null = null;
  readonly nominalPower: number;
  private readonly minimumRuntimeMs: number;
  private readonly startDelayMs: number;
  private readonly fuelCapacityWh: number;
  private readonly powerResponseMs: number;
  private startedAt = 0;
  private startRequestedAt = 0;

  constructor(options: GeneratorOptions) {
    this.nominalPower = options.nominalPower;
    this.minimumRuntimeMs = (options.minimumRuntimeS ?? 0) * 1000;
    this.startDelayMs = (options.startDelayS ?? 10) * 1000;
    this.fuelCapacityWh = options.fuelCapacityWh ?? 200_000;
    this.fuelLevel = options.fuelLevel ?? 100;
    this.powerResponseMs = options.powerResponseMs ?? 3000;
  }

  get powerRange(): { min: number; max: number } {
    return { min: 0, max: this.nominalPower };
  }

  /** Asks the generator to run or stop (null: back to standby without a request). */
  command(run: boolean | null, now: number): void {
    if (run === true && this.runRequest !== true) {
      this.startRequestedAt = now;
    }
    this.runRequest = run;
  }

  step(dtSeconds: number, environment: Environment): void {
    const { now } = environment;
    if (this.status !== 'running' && this.runRequest === true && this.fuelLevel > 0 && now - this.startRequestedAt >= this.startDelayMs) {
      this.status = 'running';
      this.startedAt = now;
    }
    const mayStop = now - this.startedAt >= this.minimumRuntimeMs;
    if (this.status === 'running' && ((this.runRequest !== true && mayStop) || this.fuelLevel <= 0)) {
      this.status = 'standby';
    }
    const target = this.status === 'running' ? clamp(this.setpoint ?? this.nominalPower, 0, this.nominalPower) : 0;
    this.activePower = approach(this.activePower, target, dtSeconds, this.powerResponseMs);
    if (this.status !== 'running' && this.activePower < 1) {
      this.activePower = 0;
    }
    const wh = energyWh(this.activePower, dtSeconds);
    this.energyProduced += wh;
    this.fuelLevel = Math.max(0, this.fuelLevel - (wh / this.fuelCapacityWh) * 100);
    if (this.status === 'running') {
      this.runningHours += dtSeconds / 3600;
    }
  }
}
