/**
 * The contract of an active-control loop on the edge (device-model.md sections 3.5, 3.6): the
 * agent runs each configured loop every `controlLoopSleep` seconds over the latest state of the
 * site, takes the setpoints it asks for as the `activeControl` layer of each asset (the most
 * restrictive when several loops steer one asset), and sends its status report at the loop's
 * `reportingInterval` (contracts/hub/reports.ts: `${type}Status`, `rtiStatus`).
 */
import type { AssetParameters } from '../../contracts/device/commands';
import type { DeviceConfig } from '../../contracts/device/config';
import type { ControlLoop as ControlLoopConfig, ControlLoopType } from '../../contracts/device/control-loops';
import type { DeviceReport } from '../../contracts/hub/reports';
import type { AssetState, DriverCommand, SetpointSource } from '../drivers/driver';

/** The site as a loop sees it at one step. */
export interface SiteSnapshot {
  /** ms since the epoch (the agent's clock; tests drive it). */
  now: number;
  config: DeviceConfig;
  /** The latest state of every configured asset, by asset index (undefined for an asset without a driver). */
  assets: readonly (AssetState | undefined)[];
  /** Limits the cloud's schedule sets now (schedule items of section 3.7 addressed to this loop, or limitPower items), W; null: none. */
  scheduledLimit?: { consumption: number | null; feedIn: number | null };
  /** The aFRR delta the cloud's schedule asks of this loop now (applyAfrrDeltaSetpoint items addressed to an afrrLimiter), W, positive delivering; absent: none. */
  scheduledAfrrDelta?: number;
  /** Setpoints the cloud asks for now (the desired setpoint of source cloud, section 3.9), W in the asset's convention, by asset index; the optimizer keeps assets as close to them as its constraints allow. */
  cloudSetpoints?: ReadonlyMap<number, number>;
  /**
   * What each asset would be set to without the activeControl layer, by asset index (null: free;
   * SetpointArbiter.baselines): the dispatch a battery loop keeps to while the limits allow.
   * Without it a loop takes 0 (idle) for the batteries it holds.
   */
  baseline?: readonly (number | null | undefined)[];
}

/** What one step asks for. */
export interface LoopStep {
  /** Active-power setpoints per asset index, W in the asset's convention; null releases the asset. Assets not named keep what the loop asked before. */
  setpoints: Map<number, number | null>;
  /** The setpoint layer the setpoints go to; activeControl when not given (the modbusServer loop fills its own layer). */
  layer?: SetpointSource;
  /** Asset commands to carry out through AssetDriver.execute, by asset index (a generator's start and stop). */
  commands?: Map<number, DriverCommand>;
}

export interface ControlLoop {
  /** The loop's index in the config's activeControl list. */
  readonly index: number;
  readonly type: ControlLoopType;
  readonly config: ControlLoopConfig;
  /** Seconds between steps (controlLoopSleep). */
  readonly sleepSeconds: number;
  step(site: SiteSnapshot): LoopStep | Promise<LoopStep>;
  /** The loop's status report (`${type}Status`), from its last step. */
  statusReport(at: Date): DeviceReport;
  /** Reports the loop raised since the last call besides its status (alarms such as optimizer unsolvable or a meter too often unreadable), oldest first. */
  drainReports(at: Date): DeviceReport[];
  /** Takes parameters (setAssetParameters: hedno localMode for gridOperatorHedno); false when the loop takes none of this kind. Absent: takes none. */
  applyParameters?(parameters: AssetParameters): boolean;
  /** Frees what the loop holds (a Modbus server's port). */
  close(): Promise<void>;
}

/** Makes the loop of a configured activeControl entry; null for a type not built yet (the agent reports it as unsupported and runs the others). */
export type ControlLoopFactory = (index: number, config: ControlLoopConfig, device: DeviceConfig) => ControlLoop | null;
