/**
 * The demo drivers: one AssetDriver per demo type over a ModbusUnit, reading the demo register
 * maps (register-maps.ts) in one block per poll, writing setpoints (mode and value in one
 * request), relay channels and generator run requests. readOnly assets are never written; a
 * setpoint is clamped to the range the asset reported (before the first good poll there is
 * none, and a setpoint is refused).
 */
import { assetDefaults, type AssetConfig, type MeterAsset } from '../../../contracts/device/assets';
import type { AssetParameters } from '../../../contracts/device/commands';
import type { ConnectionStatistics, DeviceReport, SetpointObservations } from '../../../contracts/hub/reports';
import type { ModbusUnit } from '../../modbus/link';
import { PolledAssetDriver } from '../common/polled-driver';
import type { AssetState, DriverCommand, DriverContext, PowerRange } from '../driver';
import {
  decodeIdentity,
  decodeReading,
  demoAddresses,
  demoKinds,
  generatorRunValues,
  pollRanges,
  setpointRegisters,
  type DemoAssetType,
} from './register-maps';
import { DemoBatteryAlarms } from './battery-alarms';
import { flashReportOf, reportOf, setpointLimitsOf, stateOf, unreadState, type DemoKind, type DemoReadings } from './readings';

/** Slave id of a demo asset whose config names none. */
export const demoDefaultSlaveId = 1;

/** How many charge points (demo-ev) or channels (demo-relay) the asset's config gives; 0 for the other types. */
export function demoCountOf(config: AssetConfig): number {
  if (config.type === 'demo-ev') {
    return 'pointCount' in config && typeof config.pointCount === 'number'
      ? config.pointCount
      : (assetDefaults.pointCount['demo-ev'] ?? assetDefaults.pointCountOther);
  }
  if (config.type === 'demo-relay') {
    return 'relays' in config && Array.isArray(config.relays) ? config.relays.length : 0;
  }
  return 0;
}

export class DemoDriver extends PolledAssetDriver {
  readonly kind: DemoKind;
  private lastReading: DemoReadings[DemoKind] | null = null;
  private readonly count: number;
  private readonly alarms: DemoBatteryAlarms | null;

  constructor(
    index: number,
    config: AssetConfig,
    readonly type: DemoAssetType,
    private readonly unit: ModbusUnit,
    log: DriverContext['log'],
    clock: () => number = Date.now,
  ) {
    super(index, config, unit, log, clock);
    this.kind = demoKinds[type];
    this.count = demoCountOf(config);
    this.state = unreadState(this.kind, this.count);
    this.alarms = type === 'demo-battery' ? new DemoBatteryAlarms(index) : null;
  }

  /** demoBattery parameters: the error and warning codes a demo battery reports as alarms. */
  applyParameters(parameters: AssetParameters): boolean {
    return this.alarms?.apply(parameters) ?? false;
  }

  drainAlarms(at: Date): DeviceReport[] {
    return this.alarms?.drain(at) ?? [];
  }

  protected async read(now: number): Promise<AssetState> {
    this.lastReading = null;
    const block = await this.unit.readBlocks('holding', pollRanges(this.type, this.count));
    const value = decodeReading(this.kind, block, this.count);
    this.lastReading = value;
    return stateOf(this.kind, value, now);
  }

  protected override setpointLimits(): PowerRange | null {
    return this.lastReading === null ? null : setpointLimitsOf(this.kind, this.lastReading);
  }

  protected override async write(watts: number | null): Promise<void> {
    const { address, values } = setpointRegisters(watts);
    await this.unit.writeRegisters(address, values);
  }

  protected override async carryOut(command: DriverCommand): Promise<boolean> {
    if (this.kind === 'relay' && command.kind === 'relays') {
      const channels = command.channels.slice(0, this.count).map((state) => (state === 'on' ? 1 : 0));
      if (channels.length === 0) {
        return false;
      }
      await this.unit.writeRegisters(demoAddresses.relayChannels, channels);
      return true;
    }
    if (this.kind === 'generator' && command.kind === 'generator') {
      const value = command.run === true ? generatorRunValues.run : command.run === false ? generatorRunValues.stop : generatorRunValues.none;
      await this.unit.writeRegister(demoAddresses.generatorRun, value);
      return true;
    }
    return false;
  }

  protected report(at: Date, setpoints: SetpointObservations | undefined, statistics: ConnectionStatistics): DeviceReport | null {
    return reportOf(this.kind, this.index, at, this.state.readable ? this.lastReading : null, this.state, setpoints, statistics);
  }

  protected override flashReport(at: Date, setpoints: SetpointObservations | undefined): DeviceReport | null {
    const meter = this.type === 'demo-meter' ? (this.config as MeterAsset) : undefined;
    return flashReportOf(this.kind, this.index, at, this.state.readable ? this.lastReading : null, this.state, setpoints, meter);
  }

  override async metadata(): Promise<Record<string, string | number | null> | null> {
    try {
      const registers = await this.unit.readHoldingRegisters(demoAddresses.identity, demoAddresses.identityLength);
      return { ...decodeIdentity(registers), firmwareVersion: null };
    } catch {
      return null;
    }
  }
}

/** The demo driver of a configured demo asset, on its Modbus unit from the link pool. */
export function createDemoDriver(index: number, config: AssetConfig, type: DemoAssetType, context: DriverContext, clock?: () => number): DemoDriver {
  const unit = context.links.unit(config.communication, config.slaveId ?? demoDefaultSlaveId, { timeoutMs: config.timeout });
  return new DemoDriver(index, config, type, unit, context.log, clock);
}
