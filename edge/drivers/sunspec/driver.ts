/**
 * The SunSpec inverter driver (asset types sunspec-series100 and sunspec-series700, solar).
 * On the first poll it finds the device's model chain (models.ts) and reads the common model
 * (identity for metadata); every poll then reads the measurement, nameplate and control models
 * in as few requests as readBlocks can make of them.
 *
 * series100: inverter model 101/102/103 (integers with scale factors) or 111/112/113 (floats),
 * nameplate 120 and settings 121 for the maximum power, immediate controls 123 for the limit.
 * series700: DER AC measurement 701, DER capacity 702, DER AC controls 704.
 *
 * A setpoint in W becomes the active power limit in % of the inverter's maximum power (WMax of
 * model 121 or 702, else its rating, else the config's nominalActivePower) with the limit
 * enabled; releasing the setpoint disables the limit. The limit read back is the confirmed
 * setpoint. Available power is known while the inverter tracks the maximum power point
 * (operating state MPPT): then it is what the inverter delivers; otherwise null.
 */
import type { AssetConfig } from '../../../contracts/device/assets';
import type { ConnectionStatistics, DeviceReport, SetpointObservations } from '../../../contracts/hub/reports';
import { unscaled } from '../../modbus/codec';
import { ModbusRequestError, type ModbusUnit, type RegisterBlock, type RegisterRange } from '../../modbus/link';
import { PolledAssetDriver } from '../common/polled-driver';
import { assetReport, flashObservations, noPhases, reading, setpointObservations, type AcReading, type Phases } from '../common/report';
import type { AssetState, DriverContext, PowerRange } from '../driver';
import {
  commonModel,
  controlsModel,
  controlsPoints,
  derCapacityModel,
  derCapacityPoints,
  derControlsModel,
  derControlsPoints,
  derMeasurementModel,
  derMeasurementPoints,
  discoverModels,
  findModel,
  floatInverterModels,
  floatInverterPoints,
  integerInverterModels,
  integerInverterPoints,
  modelRegisters,
  mpptState,
  nameplateModel,
  nameplatePoints,
  pointAddress,
  pointValue,
  rawPoint,
  settingsModel,
  settingsPoints,
  stringPoint,
  SunspecMapError,
  type SunspecModel,
} from './models';

/**
 * The types this driver serves: the two generic SunSpec types and the solar types whose
 * vendors document SunSpec Modbus (inverter models 101-103/111-113 with 120, 121, 123):
 * Fronius (Fronius Datamanager / GEN24 "SunSpec Modbus" interface, float or int+SF), SMA
 * Sunny Tripower and SMA inverters ("SunSpec Modbus profile", unit 126), SolarEdge ("SunSpec
 * Logging in SolarEdge Inverters" technical note; no model 123, so read only).
 */
export const sunspecAssetTypes = {
  'sunspec-series100': 'series100',
  'sunspec-series700': 'series700',
  fronius: 'series100',
  'sma-sunny-tripower': 'series100',
  'sma-inverter': 'series100',
  'solaredge-inverter': 'series100',
} as const;
/** The slave id of each type when the config names none (vendor defaults: SMA's SunSpec profile answers at 126). */
export const sunspecDefaultSlaveIds: Partial<Record<SunspecAssetType, number>> = { 'sma-sunny-tripower': 126, 'sma-inverter': 126 };
export type SunspecAssetType = keyof typeof sunspecAssetTypes;
type Series = (typeof sunspecAssetTypes)[SunspecAssetType];

/** Slave id when the config names none (SunSpec devices ship with unit 1 or 126; 1 is the common default). */
export const sunspecDefaultSlaveId = 1;
/** SunSpec enable registers: 1 enables a function, 0 disables it. */
const enabled = 1;
const disabled = 0;

/** What one poll read, in the units of the report. */
interface SolarReading extends AcReading {
  phaseActivePower?: Phases;
  energyProduced: number | null;
  dcPower?: number | null;
  dcVoltage?: number | null;
  dcCurrent?: number | null;
  /** The limit in force, % of WMax: the limit when enabled, 100 when disabled, null when unknown or without controls. */
  limitPercentage: number | null;
  /** True while the limit is enabled. */
  limitEnabled: boolean;
  /** The maximum power the limit is a percentage of, W. */
  maxPower: number | null;
  /** The scale factor of the limit register (series100 WMaxLimPct_SF, series700 WMaxLim_SF). */
  limitScaleFactor: number | null;
  available: boolean;
}

/** The models a series reads, once found in the chain. */
interface Chain {
  common: SunspecModel | undefined;
  measurement: SunspecModel;
  capacity: SunspecModel[];
  controls: SunspecModel | undefined;
}

/** A power factor in -1..1: series100 gives percent; anything outside is a bad reading. */
function powerFactorOf(value: number | null, percent: boolean): number | null {
  if (value === null) {
    return null;
  }
  const factor = percent ? value / 100 : value;
  return Math.abs(factor) <= 1 ? factor : null;
}

function firstKnown(...values: (number | null | undefined)[]): number | null {
  for (const value of values) {
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
      return value;
    }
  }
  return null;
}

export class SunspecDriver extends PolledAssetDriver {
  private chain: Chain | null = null;
  private identity: Record<string, string | number | null> | null = null;
  private lastReading: SolarReading | null = null;

  constructor(
    index: number,
    config: AssetConfig,
    readonly series: Series,
    private readonly unit: ModbusUnit,
    log: DriverContext['log'],
    clock: () => number = Date.now,
  ) {
    super(index, config, unit, log, clock);
  }

  /** The models found, in chain order (empty before discovery). */
  get models(): SunspecModel[] {
    const chain = this.chain;
    return chain === null
      ? []
      : [chain.common, chain.measurement, ...chain.capacity, chain.controls].filter((model): model is SunspecModel => model !== undefined);
  }

  private async discover(): Promise<Chain> {
    const models = await discoverModels(this.unit);
    const measurementIds = this.series === 'series100' ? [...integerInverterModels, ...floatInverterModels] : [derMeasurementModel];
    const measurement = findModel(models, measurementIds);
    if (measurement === undefined) {
      throw new SunspecMapError(
        `no ${this.series === 'series100' ? 'inverter model (101-103, 111-113)' : 'DER AC measurement model (701)'} among models ${models.map((model) => model.id).join(', ')}`,
      );
    }
    const capacityIds = this.series === 'series100' ? [nameplateModel, settingsModel] : [derCapacityModel];
    const chain: Chain = {
      common: findModel(models, [commonModel.id]),
      measurement,
      capacity: models.filter((model) => capacityIds.includes(model.id)),
      controls: findModel(models, [this.series === 'series100' ? controlsModel : derControlsModel]),
    };
    this.identity = await this.readIdentity(chain.common, models);
    this.log('info', 'SunSpec models found', { asset: this.index, models: models.map((model) => model.id) });
    return chain;
  }

  private async readIdentity(common: SunspecModel | undefined, models: readonly SunspecModel[]): Promise<Record<string, string | number | null>> {
    const identity: Record<string, string | number | null> = { sunspecModels: models.map((model) => model.id).join(',') };
    if (common === undefined) {
      return identity;
    }
    const block = await this.unit.readBlocks('holding', [{ address: common.address + 2, length: Math.min(common.length, 64) }]);
    const registers = modelRegisters(block, { ...common, length: Math.min(common.length, 64) }) ?? [];
    return {
      manufacturer: stringPoint(registers, commonModel.manufacturer),
      model: stringPoint(registers, commonModel.model),
      serialNumber: stringPoint(registers, commonModel.serialNumber),
      firmwareVersion: stringPoint(registers, commonModel.version),
      options: stringPoint(registers, commonModel.options),
      ...identity,
    };
  }

  protected async read(now: number): Promise<AssetState> {
    this.lastReading = null;
    const chain = this.chain ?? (await this.discover());
    this.chain = chain;
    const ranges: RegisterRange[] = [chain.measurement, ...chain.capacity, ...(chain.controls === undefined ? [] : [chain.controls])].map((model) => ({
      address: model.address + 2,
      length: model.length,
    }));
    let block: RegisterBlock;
    try {
      block = await this.unit.readBlocks('holding', ranges);
    } catch (error) {
      // A unit that refuses the models it listed has changed its map: find the chain again next time.
      if (error instanceof ModbusRequestError && error.failure === 'responseError') {
        this.chain = null;
      }
      throw error;
    }
    const value = this.series === 'series100' ? this.decodeSeries100(block, chain) : this.decodeSeries700(block, chain);
    this.lastReading = value;
    const controllable = chain.controls !== undefined;
    const confirmed = value.limitEnabled && value.limitPercentage !== null && value.maxPower !== null ? (value.limitPercentage / 100) * value.maxPower : null;
    return {
      readable: true,
      at: now,
      activePower: value.activePower,
      reactivePower: value.reactivePower,
      phaseCurrent: value.phaseCurrent,
      availablePower: value.available ? value.activePower : null,
      ...(controllable ? { controllableRange: value.maxPower === null ? null : { min: 0, max: value.maxPower }, confirmedSetpoint: confirmed } : {}),
    };
  }

  private decodeSeries100(block: RegisterBlock, chain: Chain): SolarReading {
    const model = chain.measurement;
    const float = (floatInverterModels as readonly number[]).includes(model.id);
    const table = float ? floatInverterPoints : integerInverterPoints;
    const value = (name: keyof typeof floatInverterPoints & keyof typeof integerInverterPoints): number | null => pointValue(block, model, table, name);
    const nameplate = findModel(chain.capacity, [nameplateModel]);
    const settings = findModel(chain.capacity, [settingsModel]);
    const maxPower = firstKnown(
      settings && pointValue(block, settings, settingsPoints, 'WMax'),
      nameplate && pointValue(block, nameplate, nameplatePoints, 'WRtg'),
      this.config.nominalActivePower,
    );
    const controls = chain.controls;
    const enable = controls && rawPoint(block, controls, controlsPoints.WMaxLim_Ena);
    const limit = controls && pointValue(block, controls, controlsPoints, 'WMaxLimPct');
    return {
      activePower: value('W'),
      reactivePower: value('VAr'),
      apparentPower: value('VA'),
      powerFactor: powerFactorOf(value('PF'), true),
      frequency: value('Hz'),
      phaseVoltage: { l1: value('PhVphA'), l2: value('PhVphB'), l3: value('PhVphC') },
      lineVoltage: { l12: value('PPVphAB'), l23: value('PPVphBC'), l31: value('PPVphCA') },
      phaseCurrent: { l1: value('AphA'), l2: value('AphB'), l3: value('AphC') },
      energyProduced: value('WH'),
      dcPower: value('DCW'),
      dcVoltage: value('DCV'),
      dcCurrent: value('DCA'),
      limitPercentage: this.limitPercentage(enable, limit),
      limitEnabled: enable === enabled,
      maxPower,
      limitScaleFactor: controls === undefined ? null : rawPoint(block, controls, controlsPoints.WMaxLimPct_SF),
      available: rawPoint(block, model, table.St) === mpptState,
    };
  }

  private decodeSeries700(block: RegisterBlock, chain: Chain): SolarReading {
    const model = chain.measurement;
    const value = (name: keyof typeof derMeasurementPoints): number | null => pointValue(block, model, derMeasurementPoints, name);
    const capacity = findModel(chain.capacity, [derCapacityModel]);
    const maxPower = firstKnown(
      capacity && pointValue(block, capacity, derCapacityPoints, 'WMax'),
      capacity && pointValue(block, capacity, derCapacityPoints, 'WMaxRtg'),
      this.config.nominalActivePower,
    );
    const controls = chain.controls;
    const enable = controls && rawPoint(block, controls, derControlsPoints.WMaxLimPctEna);
    const limit = controls && pointValue(block, controls, derControlsPoints, 'WMaxLimPct');
    return {
      activePower: value('W'),
      reactivePower: value('Var'),
      apparentPower: value('VA'),
      powerFactor: powerFactorOf(value('PF'), false),
      frequency: value('Hz'),
      phaseVoltage: { l1: value('VL1'), l2: value('VL2'), l3: value('VL3') },
      lineVoltage: { l12: value('VL1L2'), l23: value('VL2L3'), l31: value('VL3L1') },
      phaseCurrent: { l1: value('AL1'), l2: value('AL2'), l3: value('AL3') },
      phaseActivePower: { l1: value('WL1'), l2: value('WL2'), l3: value('WL3') },
      energyProduced: value('TotWhInj'),
      limitPercentage: this.limitPercentage(enable, limit),
      limitEnabled: enable === enabled,
      maxPower,
      limitScaleFactor: controls === undefined ? null : rawPoint(block, controls, derControlsPoints.WMaxLim_SF),
      available: rawPoint(block, model, derMeasurementPoints.InvSt) === mpptState,
    };
  }

  private limitPercentage(enable: number | null | undefined, limit: number | null | undefined): number | null {
    if (enable === disabled) {
      return 100;
    }
    return enable === enabled && typeof limit === 'number' ? limit : null;
  }

  protected override setpointLimits(): PowerRange | null {
    const value = this.lastReading;
    if (this.chain?.controls === undefined || value === null || value.maxPower === null) {
      return null;
    }
    return { min: 0, max: value.maxPower };
  }

  /** Writes the limit in % of WMax and enables it, or disables it for null. */
  protected override async write(watts: number | null): Promise<void> {
    const controls = this.chain?.controls;
    const value = this.lastReading;
    if (controls === undefined || value === null || value.maxPower === null) {
      throw new SunspecMapError('no SunSpec controls model read yet');
    }
    const points =
      this.series === 'series100'
        ? { enable: controlsPoints.WMaxLim_Ena, limit: controlsPoints.WMaxLimPct }
        : { enable: derControlsPoints.WMaxLimPctEna, limit: derControlsPoints.WMaxLimPct };
    if (watts === null) {
      await this.unit.writeRegister(pointAddress(controls, points.enable), disabled);
      return;
    }
    const percent = Math.min(100, Math.max(0, (watts / value.maxPower) * 100));
    // uint16 register: a scale factor too fine for 100 % saturates rather than wraps.
    const raw = Math.min(0xffff, unscaled(percent, value.limitScaleFactor ?? 0));
    if (this.series === 'series700') {
      // WMaxLimPctEna and WMaxLimPct are neighbours: one request sets both.
      await this.unit.writeRegisters(pointAddress(controls, points.enable), [enabled, raw]);
      return;
    }
    await this.unit.writeRegister(pointAddress(controls, points.limit), raw);
    await this.unit.writeRegister(pointAddress(controls, points.enable), enabled);
  }

  protected report(at: Date, setpoints: SetpointObservations | undefined, connectionStatistics: ConnectionStatistics): DeviceReport | null {
    const value = this.state.readable ? this.lastReading : null;
    const layers = setpointObservations(setpoints, this.state);
    return assetReport('solarPower', this.index, at, {
      // Every quantity is there from the first report on, null until read.
      activePower: reading(value === null ? null : this.state.activePower),
      reactivePower: reading(value === null ? null : this.state.reactivePower),
      availablePower: reading(value === null ? null : this.state.availablePower),
      phaseCurrent: value === null ? noPhases : value.phaseCurrent,
      apparentPower: reading(value?.apparentPower),
      powerFactor: reading(value?.powerFactor),
      frequency: reading(value?.frequency),
      phaseVoltage: value === null ? noPhases : value.phaseVoltage,
      lineVoltage: value === null ? { l12: null, l23: null, l31: null } : value.lineVoltage,
      ...(this.series === 'series700' ? { phaseActivePower: value?.phaseActivePower ?? noPhases } : {}),
      activePowerLimitPercentage: reading(value?.limitPercentage),
      energyProduced: reading(value?.energyProduced),
      ...(this.series === 'series100' ? { dcPower: reading(value?.dcPower), dcVoltage: reading(value?.dcVoltage), dcCurrent: reading(value?.dcCurrent) } : {}),
      ...(layers === undefined ? {} : { setpoints: layers }),
      connectionStatistics,
    });
  }

  protected override flashReport(at: Date, setpoints: SetpointObservations | undefined): DeviceReport | null {
    return assetReport('solarPower.flash', this.index, at, flashObservations(this.state, setpoints));
  }

  /** Manufacturer, model, serial number and firmware version of the common model, the models found, and the maximum power; null when the device cannot be read. */
  override async metadata(): Promise<Record<string, string | number | null> | null> {
    try {
      this.chain = this.chain ?? (await this.discover());
    } catch {
      return null;
    }
    const maxPower = this.lastReading?.maxPower ?? null;
    return { ...this.identity, ...(maxPower === null ? {} : { nominalActivePower: maxPower }) };
  }
}

export function isSunspecAssetType(type: string): type is SunspecAssetType {
  return Object.hasOwn(sunspecAssetTypes, type);
}

/** The SunSpec driver of an asset of one of sunspecAssetTypes; null for other types (a DriverFactory; `clock` for tests). */
export function createSunspecDriver(index: number, config: AssetConfig, context: DriverContext, clock?: () => number): SunspecDriver | null {
  const type: unknown = config.type;
  if (typeof type !== 'string' || !isSunspecAssetType(type)) {
    return null;
  }
  const unit = context.links.unit(config.communication, config.slaveId ?? sunspecDefaultSlaveIds[type] ?? sunspecDefaultSlaveId, { timeoutMs: config.timeout });
  return new SunspecDriver(index, config, sunspecAssetTypes[type], unit, context.log, clock);
}
