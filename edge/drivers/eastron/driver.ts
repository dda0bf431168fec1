/**
 * The Eastron SDM630 meter driver (asset type eastron, meter category). The SDM630 gives its
 * readings as float32 input registers, most significant word first (Eastron SDM630 Modbus
 * protocol): phase voltages, currents and powers from 0x0000, totals and energies from 0x0034,
 * line voltages from 0x00C8. A poll reads them in two requests (0x0000-0x004B and
 * 0x00C8-0x00CD; the meter answers at most 40 values, 80 registers, a request).
 *
 * Signs: the SDM630's total and phase active power are positive when importing, the meter
 * convention of the reports. Its phase currents are magnitudes; each gets the sign of its
 * phase's active power (the site's current loops want signed currents, positive importing).
 * invertCurrent (our reading: the current transformers are mounted the other way round)
 * negates powers, currents and power factor, and swaps import and export energy.
 */
import type { AssetConfig, MeterAsset } from '../../../contracts/device/assets';
import type { ConnectionStatistics, DeviceReport, SetpointObservations } from '../../../contracts/hub/reports';
import { decodeNumber } from '../../modbus/codec';
import type { ModbusUnit, RegisterBlock, RegisterRange } from '../../modbus/link';
import { PolledAssetDriver } from '../common/polled-driver';
import { assetReport, noPhases, reading, type AcReading, type Phases } from '../common/report';
import type { AssetState, DriverContext } from '../driver';

/** SDM630 input registers (each a float32 in two registers). */
export const sdm630Registers = {
  phaseVoltage: [0x0000, 0x0002, 0x0004],
  phaseCurrent: [0x0006, 0x0008, 0x000a],
  phaseActivePower: [0x000c, 0x000e, 0x0010],
  activePower: 0x0034,
  apparentPower: 0x0038,
  reactivePower: 0x003c,
  powerFactor: 0x003e,
  frequency: 0x0046,
  /** kWh. */
  energyImport: 0x0048,
  energyExport: 0x004a,
  lineVoltage: [0x00c8, 0x00ca, 0x00cc],
} as const;
/** SDM630 holding register of the serial number (uint32). */
export const sdm630SerialNumber = 0xfc00;

/** What a poll reads: 0x0000-0x004B and 0x00C8-0x00CD. */
export const sdm630Ranges: readonly RegisterRange[] = [
  { address: 0x0000, length: 0x0012 },
  { address: sdm630Registers.activePower, length: 2 },
  { address: sdm630Registers.apparentPower, length: 8 },
  { address: sdm630Registers.frequency, length: 6 },
  { address: 0x00c8, length: 6 },
];
/** The SDM630 answers at most 40 values (80 registers) a request; the gaps in 0x0000-0x004B hold other readings it answers too. */
export const sdm630Requests = { blockLength: 80, blockGap: 40 } as const;

/** Slave id when the config names none (the SDM630's factory setting). */
export const eastronDefaultSlaveId = 1;
/** Wh in a kWh. */
const whPerKwh = 1000;

interface MeterReading extends AcReading {
  phaseActivePower: Phases;
  energyImport: number | null;
  energyExport: number | null;
}

/** A float32 reading to its 7 significant digits (230.1 rather than 230.10000610351562); null when not a number. */
function float32At(block: RegisterBlock, address: number): number | null {
  const registers = block.slice(address, 2);
  if (registers === undefined) {
    return null;
  }
  const value = decodeNumber(registers, 'float32', 'big');
  return Number.isFinite(value) ? Number(value.toPrecision(7)) : null;
}

function negated(value: number | null, invert: boolean): number | null {
  return value === null || !invert ? value : -value;
}

/** A magnitude with the sign of `power` (0 and unknown powers leave it positive). */
function signedBy(magnitude: number | null, power: number | null): number | null {
  if (magnitude === null) {
    return null;
  }
  return power !== null && power < 0 ? -Math.abs(magnitude) : Math.abs(magnitude);
}

/** The readings of an SDM630 block in the meter convention, invertCurrent applied. */
export function decodeSdm630(block: RegisterBlock, invert: boolean): MeterReading {
  const at = (address: number): number | null => float32At(block, address);
  const [p1, p2, p3] = sdm630Registers.phaseActivePower.map((address) => negated(at(address), invert));
  const [i1, i2, i3] = sdm630Registers.phaseCurrent.map((address) => at(address));
  const [v1, v2, v3] = sdm630Registers.phaseVoltage.map((address) => at(address));
  const [v12, v23, v31] = sdm630Registers.lineVoltage.map((address) => at(address));
  const kwhImport = at(sdm630Registers.energyImport);
  const kwhExport = at(sdm630Registers.energyExport);
  const wh = (kwh: number | null): number | null => (kwh === null ? null : Number((kwh * whPerKwh).toPrecision(12)));
  const phase = (value: number | null | undefined): number | null => value ?? null;
  return {
    activePower: negated(at(sdm630Registers.activePower), invert),
    reactivePower: negated(at(sdm630Registers.reactivePower), invert),
    apparentPower: at(sdm630Registers.apparentPower),
    powerFactor: negated(at(sdm630Registers.powerFactor), invert),
    frequency: at(sdm630Registers.frequency),
    phaseVoltage: { l1: phase(v1), l2: phase(v2), l3: phase(v3) },
    lineVoltage: { l12: phase(v12), l23: phase(v23), l31: phase(v31) },
    phaseCurrent: { l1: signedBy(phase(i1), phase(p1)), l2: signedBy(phase(i2), phase(p2)), l3: signedBy(phase(i3), phase(p3)) },
    phaseActivePower: { l1: phase(p1), l2: phase(p2), l3: phase(p3) },
    energyImport: wh(invert ? kwhExport : kwhImport),
    energyExport: wh(invert ? kwhImport : kwhExport),
  };
}

export class EastronDriver extends PolledAssetDriver {
  private lastReading: MeterReading | null = null;

  constructor(
    index: number,
    config: AssetConfig,
    private readonly unit: ModbusUnit,
    log: DriverContext['log'],
    clock: () => number = Date.now,
  ) {
    super(index, config, unit, log, clock);
  }

  private get meter(): MeterAsset {
    return this.config as MeterAsset;
  }

  protected async read(now: number): Promise<AssetState> {
    this.lastReading = null;
    const block = await this.unit.readBlocks('input', sdm630Ranges);
    const value = decodeSdm630(block, this.meter.invertCurrent === true);
    this.lastReading = value;
    return {
      readable: true,
      at: now,
      activePower: value.activePower,
      reactivePower: value.reactivePower,
      phaseCurrent: value.phaseCurrent,
      frequency: value.frequency,
    };
  }

  protected report(at: Date, _setpoints: SetpointObservations | undefined, connectionStatistics: ConnectionStatistics): DeviceReport | null {
    const value = this.state.readable ? this.lastReading : null;
    return assetReport('meterPower', this.index, at, {
      activePower: reading(value?.activePower),
      reactivePower: reading(value?.reactivePower),
      apparentPower: reading(value?.apparentPower),
      powerFactor: reading(value?.powerFactor),
      frequency: reading(value?.frequency),
      phaseVoltage: value?.phaseVoltage ?? noPhases,
      lineVoltage: value?.lineVoltage ?? { l12: null, l23: null, l31: null },
      phaseCurrent: value?.phaseCurrent ?? noPhases,
      phaseActivePower: value?.phaseActivePower ?? noPhases,
      energyImport: reading(value?.energyImport),
      energyExport: reading(value?.energyExport),
      connectionStatistics,
    });
  }

  /** The flash report: active power and the additionalProperties the config asks for (lineCurrent: the phase currents, equal in the SDM630's star connection). */
  protected override flashReport(at: Date): DeviceReport | null {
    const value = this.state.readable ? this.lastReading : null;
    const extra: readonly string[] = this.meter.enableFlashReport?.additionalProperties ?? [];
    return assetReport('meterPower.flash', this.index, at, {
      activePower: reading(value?.activePower),
      ...(extra.includes('reactivePower') ? { reactivePower: reading(value?.reactivePower) } : {}),
      ...(extra.includes('phaseVoltage') ? { phaseVoltage: value?.phaseVoltage ?? noPhases } : {}),
      ...(extra.includes('lineVoltage') ? { lineVoltage: value?.lineVoltage ?? { l12: null, l23: null, l31: null } } : {}),
      ...(extra.includes('phaseCurrent') ? { phaseCurrent: value?.phaseCurrent ?? noPhases } : {}),
      ...(extra.includes('lineCurrent') ? { lineCurrent: value?.phaseCurrent ?? noPhases } : {}),
    });
  }

  /** Eastron SDM630 and the serial number the meter holds; null when the meter cannot be read. */
  override async metadata(): Promise<Record<string, string | number | null> | null> {
    try {
      const registers = await this.unit.readHoldingRegisters(sdm630SerialNumber, 2);
      return { manufacturer: 'Eastron', model: 'SDM630', serialNumber: String(decodeNumber(registers, 'uint32', 'big')) };
    } catch {
      return null;
    }
  }
}

/** The SDM630 driver of an eastron asset; null for other types (a DriverFactory; `clock` for tests). */
export function createEastronDriver(index: number, config: AssetConfig, context: DriverContext, clock?: () => number): EastronDriver | null {
  const type: unknown = config.type;
  if (type !== 'eastron') {
    return null;
  }
  const unit = context.links.unit(config.communication, config.slaveId ?? eastronDefaultSlaveId, { timeoutMs: config.timeout, ...sdm630Requests });
  return new EastronDriver(index, config, unit, context.log, clock);
}
