/**
 * In-process drivers over the plant (no Modbus): AssetDriver implementations that read and write
 * plant assets directly, so a closed-loop test runs the real control loops against a simulated
 * day as fast as the CPU allows. They report what the Modbus demo drivers report (one builder,
 * edge/drivers/demo/readings.ts), on the site's clock. A `PlantLink` taken down makes the asset
 * unreadable (counted as timeouts), as a dead unit would be.
 */
import type { AssetConfig, MeterAsset } from '../../contracts/device/assets';
import type { ConnectionStatistics, DeviceReport, SetpointObservations } from '../../contracts/hub/reports';
import type { AssetState, DriverCommand, DriverContext, DriverFactory, PowerRange } from '../drivers/driver';
import { PolledAssetDriver, RequestCounter } from '../drivers/common/polled-driver';
import { flashReportOf, reportOf, setpointLimitsOf, stateOf, unreadState, type DemoKind, type DemoReadings } from '../drivers/demo/readings';
import type { AssetParameters } from '../../contracts/device/commands';
import { DemoBatteryAlarms } from '../drivers/demo/battery-alarms';
import { Battery, EvCharger, Generator, GridMeter, type HeatStorage, Relay, SolarPlant, WindTurbine, type Site } from './plant';

/** A plant asset with its kind. */
export type PlantBinding =
  | { kind: 'solar'; asset: SolarPlant }
  | { kind: 'wind'; asset: WindTurbine }
  | { kind: 'battery'; asset: Battery }
  | { kind: 'meter'; asset: GridMeter }
  | { kind: 'ev'; asset: EvCharger }
  | { kind: 'relay'; asset: Relay }
  | { kind: 'generator'; asset: Generator }
  | { kind: 'heat'; asset: HeatStorage };

/** Anything on a site a driver can be bound to. */
export type PlantTarget = PlantBinding['asset'];

/** The binding of a plant asset (its kind by class). */
export function bindingOf(asset: PlantTarget): PlantBinding {
  if (asset instanceof SolarPlant) {
    return { kind: 'solar', asset };
  }
  if (asset instanceof WindTurbine) {
    return { kind: 'wind', asset };
  }
  if (asset instanceof Battery) {
    return { kind: 'battery', asset };
  }
  if (asset instanceof GridMeter) {
    return { kind: 'meter', asset };
  }
  if (asset instanceof EvCharger) {
    return { kind: 'ev', asset };
  }
  if (asset instanceof Relay) {
    return { kind: 'relay', asset };
  }
  if (asset instanceof Generator) {
    return { kind: 'generator', asset };
  }
  return { kind: 'heat', asset };
}

/** What the asset would give when read now (the Modbus simulator encodes the same into registers). */
export function readPlant(binding: PlantBinding): DemoReadings[DemoKind] {
  switch (binding.kind) {
    case 'solar':
    case 'wind': {
      const a = binding.asset;
      const solar = {
        activePower: a.activePower,
        availablePower: a.availablePower,
        energyProduced: a.energyProduced,
        setpoint: a.setpoint,
        nominalPower: a.nominalPower,
      };
      return a instanceof WindTurbine ? { ...solar, windSpeed: a.windSpeed, rotorSpeed: a.rotorSpeed, converterStatus: a.converterStatus } : solar;
    }
    case 'battery': {
      const a = binding.asset;
      return {
        activePower: a.activePower,
        stateOfCharge: a.stateOfCharge,
        maxChargePower: a.maxChargePower,
        maxDischargePower: a.maxDischargePower,
        chargeLimit: -a.powerRange.min,
        dischargeLimit: a.powerRange.max,
        dcVoltage: a.dcVoltage,
        status: a.status,
        energyCharged: a.energyCharged,
        energyDischarged: a.energyDischarged,
        setpoint: a.setpoint,
      };
    }
    case 'meter': {
      const a = binding.asset;
      const v = a.phaseVoltage;
      return {
        activePower: a.activePower,
        phaseVoltage: [v, v, v],
        phaseCurrent: a.phaseCurrent,
        phaseActivePower: [...a.phasePowers],
        frequency: a.frequency,
        energyImport: a.energyImport,
        energyExport: a.energyExport,
      };
    }
    case 'ev': {
      const a = binding.asset;
      return {
        activePower: a.activePower,
        phaseCurrent: a.phaseCurrent,
        energyCharged: a.energyCharged,
        points: a.points.map((point) => ({
          status: point.status,
          power: point.power,
          phaseCurrent: point.current(a.phaseVoltage),
          sessionEnergy: point.sessionEnergy,
          vehicleStateOfCharge: point.connected ? point.vehicleStateOfCharge : null,
        })),
        setpoint: a.setpoint,
        maxPower: -a.powerRange.min,
      };
    }
    case 'relay':
      return { channels: [...binding.asset.channels] };
    case 'generator': {
      const a = binding.asset;
      return {
        activePower: a.activePower,
        status: a.status,
        fuelLevel: a.fuelLevel,
        runningHours: a.runningHours,
        energyProduced: a.energyProduced,
        setpoint: a.setpoint,
        nominalPower: a.nominalPower,
      };
    }
    default: {
      const a = binding.asset;
      return {
        activePower: a.activePower,
        temperature: a.temperature,
        stateOfCharge: a.stateOfCharge,
        storedEnergy: a.storedEnergy,
        setpoint: a.setpoint,
        heaterPower: a.heaterPower,
      };
    }
  }
}

/** Sets a plant asset's setpoint (W, asset convention; null releases); false for kinds without one. */
export function applySetpoint(binding: PlantBinding, watts: number | null): boolean {
  if (binding.kind === 'meter' || binding.kind === 'relay') {
    return false;
  }
  binding.asset.setpoint = watts;
  return true;
}

/** Carries out a relay or generator command on the plant; false for other kinds and commands. */
export function applyCommand(binding: PlantBinding, command: DriverCommand, now: number): boolean {
  if (binding.kind === 'relay' && command.kind === 'relays') {
    command.channels.forEach((state, i) => {
      if (i < binding.asset.channels.length) {
        binding.asset.channels[i] = state;
      }
    });
    return true;
  }
  if (binding.kind === 'generator' && command.kind === 'generator') {
    binding.asset.command(command.run, now);
    return true;
  }
  return false;
}

/** Whether a plant asset answers: down makes every request time out. */
export interface PlantLink {
  down: boolean;
}

export interface PlantDriverOptions {
  log?: DriverContext['log'];
  /** Shared by assets that go down together (a gateway in front of them); default one of its own. */
  link?: PlantLink;
}

/** An AssetDriver over one plant asset, on the site's clock. */
export class PlantDriver extends PolledAssetDriver {
  readonly binding: PlantBinding;
  readonly link: PlantLink;
  private lastReading: DemoReadings[DemoKind] | null = null;
  private readonly counter: RequestCounter;
  private readonly alarms: DemoBatteryAlarms | null;

  constructor(
    index: number,
    config: AssetConfig,
    target: PlantTarget,
    private readonly site: Site,
    options: PlantDriverOptions = {},
  ) {
    const counter = new RequestCounter();
    super(index, config, counter, options.log ?? (() => undefined), () => site.now);
    this.counter = counter;
    this.binding = bindingOf(target);
    this.link = options.link ?? { down: false };
    this.state = unreadState(this.binding.kind, this.binding.kind === 'relay' ? this.binding.asset.channels.length : 0);
    this.alarms = config.type === 'demo-battery' ? new DemoBatteryAlarms(index) : null;
  }

  /** demoBattery parameters, as the Modbus demo driver takes them. */
  applyParameters(parameters: AssetParameters): boolean {
    return this.alarms?.apply(parameters) ?? false;
  }

  drainAlarms(at: Date): DeviceReport[] {
    return this.alarms?.drain(at) ?? [];
  }

  protected async read(now: number): Promise<AssetState> {
    this.lastReading = null;
    this.request();
    const value = readPlant(this.binding);
    this.lastReading = value;
    return stateOf(this.binding.kind, value, now);
  }

  protected override setpointLimits(): PowerRange | null {
    return setpointLimitsOf(this.binding.kind, readPlant(this.binding));
  }

  protected override async write(watts: number | null): Promise<void> {
    this.request();
    applySetpoint(this.binding, watts);
  }

  protected override async carryOut(command: DriverCommand): Promise<boolean> {
    const fits = (this.binding.kind === 'relay' && command.kind === 'relays') || (this.binding.kind === 'generator' && command.kind === 'generator');
    if (!fits) {
      return false;
    }
    this.request();
    return applyCommand(this.binding, command, this.site.now);
  }

  protected report(at: Date, setpoints: SetpointObservations | undefined, statistics: ConnectionStatistics): DeviceReport | null {
    return reportOf(this.binding.kind, this.index, at, this.state.readable ? this.lastReading : null, this.state, setpoints, statistics);
  }

  protected override flashReport(at: Date, setpoints: SetpointObservations | undefined): DeviceReport | null {
    const meter = this.config.type === 'demo-meter' ? (this.config as MeterAsset) : undefined;
    return flashReportOf(this.binding.kind, this.index, at, this.state.readable ? this.lastReading : null, this.state, setpoints, meter);
  }

  override async metadata(): Promise<Record<string, string | number | null> | null> {
    return { manufacturer: 'Gridport', model: this.config.type, serialNumber: `PLANT-${this.index}`, firmwareVersion: null };
  }

  /** Counts one request, failing as a timeout when the link is down. */
  private request(): void {
    if (this.link.down) {
      this.counter.count('timeout');
      throw new Error('plant link down: request timed out');
    }
    this.counter.count('success');
  }
}

/**
 * A DriverFactory over a site: asset index i of the config drives `targets[i]` (undefined: no
 * driver). Links by asset index take assets down in tests.
 */
export function plantDriverFactory(
  site: Site,
  targets: readonly (PlantTarget | undefined)[],
  options: { log?: DriverContext['log']; links?: readonly (PlantLink | undefined)[] } = {},
): DriverFactory {
  return (index, config, context) => {
    const target = targets[index];
    if (target === undefined) {
      return null;
    }
    return new PlantDriver(index, config, target, site, { log: options.log ?? context.log, link: options.links?.[index] });
  };
}
