/**
 * Test fixtures of the control folder: a device config from a few assets and loops, snapshots,
 * and an AssetDriver that keeps its state in memory and records what was written to it (for the
 * arbiter and schedule tests; the Modbus paths are tested against real peers elsewhere).
 */
import type { AssetConfig } from '../../contracts/device/assets';
import { parseDeviceConfig, type DeviceConfig } from '../../contracts/device/config';
import { validateReport, type ConnectionStatistics, type DeviceReport, type SetpointObservations } from '../../contracts/hub/reports';
import type { AssetDriver, AssetState, DriverCommand } from '../drivers/driver';
import type { LoopStep, SiteSnapshot } from './loop';

export function deviceConfig(assets: readonly Record<string, unknown>[], activeControl: readonly Record<string, unknown>[] = []): DeviceConfig {
  return parseDeviceConfig({
    network: {},
    reportingIntervalInSec: 60,
    assets: assets.map((asset) => ({ communication: { type: 'none' }, ...asset })),
    activeControl,
  });
}

export function readable(values: Partial<AssetState>, at = 0): AssetState {
  return { readable: true, at, ...values };
}

export const unreadable: AssetState = { readable: false, at: 0 };

export function snapshot(config: DeviceConfig, now: number, assets: readonly (AssetState | undefined)[], extra: Partial<SiteSnapshot> = {}): SiteSnapshot {
  return { now, config, assets, ...extra };
}

const noStatistics: ConnectionStatistics = { success: 0, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };

/** An asset driver held in memory: `state` is what the test sets; writes and commands are recorded. */
export class RecordingDriver implements AssetDriver {
  state: AssetState;
  readonly writes: (number | null)[] = [];
  readonly commands: DriverCommand[] = [];
  /** What writeSetpoint answers (false: the asset refused or could not be reached). */
  accept = true;
  readonly statistics = noStatistics;

  constructor(
    readonly index: number,
    readonly config: AssetConfig,
    state: AssetState = readable({}),
  ) {
    this.state = state;
  }

  poll(): Promise<AssetState> {
    return Promise.resolve(this.state);
  }

  writeSetpoint(watts: number | null): Promise<boolean> {
    if (this.config.readOnly || !this.accept) {
      return Promise.resolve(false);
    }
    this.writes.push(watts);
    return Promise.resolve(true);
  }

  execute(command: DriverCommand): Promise<boolean> {
    this.commands.push(command);
    return Promise.resolve(true);
  }

  buildReport(_at: Date, _setpoints: SetpointObservations | undefined, _flash: boolean): DeviceReport | null {
    return null;
  }

  metadata(): Promise<null> {
    return Promise.resolve(null);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

export function recordingDrivers(config: DeviceConfig): RecordingDriver[] {
  return config.assets.map((asset, index) => new RecordingDriver(index, asset));
}

/** The entry of a list the test built, failing the test when it is missing. */
export function at<T>(list: readonly T[], index: number): T {
  const entry = list[index];
  if (entry === undefined) {
    throw new Error(`no entry ${index}`);
  }
  return entry;
}

/** A synchronous step's setpoints by asset index, rounded to whole watts (null: released). */
export function setpoints(step: LoopStep | Promise<LoopStep>): [number, number | null][] {
  if (step instanceof Promise) {
    throw new Error('synchronous loops only');
  }
  return [...step.setpoints.entries()].map(([index, value]) => [index, value === null ? null : Math.round(value)]);
}

/** The report, which must pass the report contract (else the test fails with its issues). */
export function valid(report: DeviceReport): DeviceReport {
  const result = validateReport(report);
  if (!result.ok) {
    throw new Error(`the report contract refuses this ${report.type} report: ${JSON.stringify(result.issues)}`);
  }
  return report;
}
