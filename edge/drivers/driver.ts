/**
 * The contract between the edge agent, its control loops and the asset drivers (DESIGN.md:
 * edge/drivers/ one per asset type family). A driver owns one configured asset: it reads the
 * asset's registers, writes active-power setpoints unless the asset is readOnly, and turns what
 * it read into the asset's report of device-model.md section 3.9 (contracts/hub/reports.ts).
 *
 * Sign convention (contracts/hub/reports.ts): an asset's activePower is positive when it
 * delivers power (producing, discharging) and negative when it draws power (charging, heating);
 * a meter's activePower is positive when importing from the grid, negative when exporting.
 * Setpoints are active power in W in the asset's own convention.
 */
import type { AssetConfig } from '../../contracts/device/assets';
import type { AssetParameters } from '../../contracts/device/commands';
import type { ConnectionStatistics, DeviceReport, SetpointObservations } from '../../contracts/hub/reports';
import type { ModbusLinks } from '../modbus/link';

/** Who asks for a setpoint (device-model.md section 3.9: desired by source). */
export const setpointSources = ['cloud', 'activeControl', 'gridOperator', 'modbusServer', 'afrr'] as const;
export type SetpointSource = (typeof setpointSources)[number];

/** The range an active-power setpoint may take now, W in the asset's convention (a battery: -maxCharge..maxDischarge; solar: 0..available). */
export interface PowerRange {
  min: number;
  max: number;
}

/** What one poll read from an asset. Values the asset does not provide are undefined; a value it provides but could not be read now is null. */
export interface AssetState {
  /** False when the last poll failed (timeout, connection error, bad response). */
  readable: boolean;
  /** When the values were read, ms since the epoch. */
  at: number;
  activePower?: number | null;
  reactivePower?: number | null;
  /** Phase currents, A (meters, EV chargers). */
  phaseCurrent?: { l1: number | null; l2: number | null; l3: number | null };
  /** State of charge, % (batteries, heat storage). */
  stateOfCharge?: number | null;
  /** Power the asset could deliver without a limit, W (solar, wind). */
  availablePower?: number | null;
  /** The setpoint range the asset accepts now; undefined for assets that take no setpoint (meters, sensors). */
  controllableRange?: PowerRange | null;
  /** The setpoint the asset read back, W. */
  confirmedSetpoint?: number | null;
  /** Named temperatures, °C (temperature sensors; heat storage as `storage`). */
  temperatures?: Record<string, number | null>;
  /** Grid frequency, Hz (meters that read it): what deliverFCR droops on. */
  frequency?: number | null;
  /** Relay channel states (relays). */
  relayChannels?: ('on' | 'off' | null)[];
}

/** An asset-specific command a driver carries out besides setpoints (schedule items of section 3.7 that are not a power limit). */
export type DriverCommand =
  { kind: 'relays'; channels: ('on' | 'off')[] } | { kind: 'reactivePower'; var: number | null } | { kind: 'generator'; run: boolean | null };

export interface AssetDriver {
  /** The asset's index in the config's assets list. */
  readonly index: number;
  readonly config: AssetConfig;
  /** The latest state read (before the first poll: readable false). */
  readonly state: AssetState;
  /** Reads the asset. Never throws: a failure gives readable false, counts in the statistics, and never holds up other assets. */
  poll(): Promise<AssetState>;
  /** Writes an active-power setpoint (W, the asset's convention), or null to release it. A readOnly asset never writes and resolves false. */
  writeSetpoint(watts: number | null): Promise<boolean>;
  /** Carries out an asset-specific command; false when the asset cannot (readOnly, not this kind). */
  execute(command: DriverCommand): Promise<boolean>;
  /**
   * The asset's report (its type of section 3.9) from the latest state, with the setpoint layers
   * given and the request counters since the previous report of this kind (then reset). `flash`
   * gives the `.flash` variant for the types that have one; null when there is nothing to report.
   */
  buildReport(at: Date, setpoints: SetpointObservations | undefined, flash: boolean): DeviceReport | null;
  /** The asset's identity (manufacturer, model, serial, firmware) for getMetadata and assetIdentifiers; null where the asset gives none. */
  metadata(): Promise<Record<string, string | number | null> | null>;
  /** Request counters since the last report (read without resetting). */
  readonly statistics: ConnectionStatistics;
  /** Takes asset parameters (setAssetParameters: demoBattery errors and warnings, sagerFurnace schedule); false when this asset takes none of this kind. Absent: takes none. */
  applyParameters?(parameters: AssetParameters): boolean | Promise<boolean>;
  /** The asset's alarm reports since the last call (raised and cleared, each once). Absent: the asset raises none. */
  drainAlarms?(at: Date): DeviceReport[];
  close(): Promise<void>;
}

/** Makes the driver of a configured asset; null for a type no driver is built for yet (the agent reports it as unsupported). */
export type DriverFactory = (index: number, config: AssetConfig, context: DriverContext) => AssetDriver | null;

export interface DriverContext {
  /** Shares Modbus links between assets on the same TCP endpoint, UDP endpoint or serial port (edge/modbus). */
  readonly links: ModbusLinks;
  /** Logs what the operator should see in the journal. */
  readonly log: (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;
}
