/**
 * The part of a driver that is the same for every asset type: the latest state, a poll that
 * never throws (a failure gives readable false with the asset's values null), readOnly assets
 * never written, setpoints clamped to the range the asset accepts, and the request counters.
 * A driver says how to read, how to write and how to build its report.
 */
import type { AssetConfig } from '../../../contracts/device/assets';
import type { ConnectionStatistics, DeviceReport, SetpointObservations } from '../../../contracts/hub/reports';
import type { AssetDriver, AssetState, DriverCommand, DriverContext, PowerRange } from '../driver';
import { clampSetpoint, emptyStatistics, unreadableState } from './report';

/** Where a driver's request counters come from (a ModbusUnit, or a counter of its own). */
export interface RequestStatistics {
  readonly statistics: ConnectionStatistics;
  takeStatistics(): ConnectionStatistics;
}

export abstract class PolledAssetDriver implements AssetDriver {
  state: AssetState = { readable: false, at: 0 };

  constructor(
    readonly index: number,
    readonly config: AssetConfig,
    protected readonly requests: RequestStatistics,
    protected readonly log: DriverContext['log'],
    protected readonly clock: () => number = Date.now,
  ) {}

  get statistics(): ConnectionStatistics {
    return this.requests.statistics;
  }

  async poll(): Promise<AssetState> {
    try {
      this.state = await this.read(this.clock());
    } catch (error) {
      if (this.state.readable) {
        this.log('warn', 'asset unreadable', { asset: this.index, type: this.config.type, error: error instanceof Error ? error.message : String(error) });
      }
      this.state = unreadableState(this.state, this.clock());
    }
    return this.state;
  }

  async writeSetpoint(watts: number | null): Promise<boolean> {
    const limits = this.setpointLimits();
    if (this.config.readOnly || limits === null) {
      return false;
    }
    try {
      await this.write(watts === null ? null : clampSetpoint(watts, limits));
      return true;
    } catch (error) {
      this.log('warn', 'setpoint not written', { asset: this.index, type: this.config.type, error: error instanceof Error ? error.message : String(error) });
      return false;
    }
  }

  async execute(command: DriverCommand): Promise<boolean> {
    if (this.config.readOnly) {
      return false;
    }
    try {
      return await this.carryOut(command);
    } catch (error) {
      this.log('warn', 'command not carried out', {
        asset: this.index,
        type: this.config.type,
        command: command.kind,
        error: error instanceof Error ? error.message : String(error),
      });
      return false;
    }
  }

  buildReport(at: Date, setpoints: SetpointObservations | undefined, flash: boolean): DeviceReport | null {
    if (flash) {
      return this.flashReport(at, setpoints);
    }
    return this.report(at, setpoints, this.requests.takeStatistics());
  }

  async metadata(): Promise<Record<string, string | number | null> | null> {
    return null;
  }

  async close(): Promise<void> {
    // The links belong to the pool, which closes them.
  }

  /** Reads the asset; throws when it cannot. */
  protected abstract read(now: number): Promise<AssetState>;

  /** The range a setpoint is clamped to (the asset's hardware range); null when the asset takes no setpoint. */
  protected setpointLimits(): PowerRange | null {
    return null;
  }

  /** Writes a setpoint already clamped (null releases it); throws when it cannot. */
  protected async write(watts: number | null): Promise<void> {
    throw new Error(`${this.config.type} takes no setpoint (${String(watts)} W asked)`);
  }

  /** Carries out a command; false when the asset has no such command. */
  protected async carryOut(_command: DriverCommand): Promise<boolean> {
    return false;
  }

  /** The asset's report with the counters since the previous one. */
  protected abstract report(at: Date, setpoints: SetpointObservations | undefined, statistics: ConnectionStatistics): DeviceReport | null;

  /** The `.flash` report; null for types without one. */
  protected flashReport(_at: Date, _setpoints: SetpointObservations | undefined): DeviceReport | null {
    return null;
  }
}

/** Request counters kept by the driver itself (drivers that do not go through a ModbusUnit). */
export class RequestCounter implements RequestStatistics {
  private counts: { -readonly [K in keyof ConnectionStatistics]: number } = emptyStatistics();

  get statistics(): ConnectionStatistics {
    return { ...this.counts };
  }

  count(outcome: keyof ConnectionStatistics): void {
    this.counts[outcome] += 1;
  }

  takeStatistics(): ConnectionStatistics {
    const taken = this.counts;
    this.counts = emptyStatistics();
    return taken;
  }
}
