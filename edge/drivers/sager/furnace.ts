/**
 * The Sager furnace driver (asset type sager-furnace, heat category): an electric heat-storage
 * furnace charged by its own schedule, which the cloud sets with setAssetParameters
 * (`{ type: 'sagerFurnace', schedule }`, device-model.md section 3.8) and the thermalPower
 * report echoes as the furnace holds it (section 3.9).
 *
 * No public Modbus document of Sager furnaces was found (searched 2026-11-28), so the register
 * map below is our assumption, kept as data so that the vendor's document, once at hand, is a
 * table to correct and not code to rewrite (docs/control-loops.md "Sager furnace"):
 * - the readings are a register map of edge/drivers/maps (checked by its schema, read by the
 *   generic map driver): holding registers, big word order, from 0;
 * - the schedule is `sagerScheduleLayout`: 12 slots of 5 holding registers from 100, each the
 *   charge (u16, 0.1 %; 0xFFFF: an empty slot), start and end (u32, seconds since 1970 UTC).
 *   The cloud's 11 entries go to slots 0-10 in one write (function 16); slot 11 is the
 *   furnace's own (a program set at its panel), never written, and reported as the furnace
 *   holds it: hence 11 entries in parameters and 12 in reports.
 */
import type { AssetConfig } from '../../../contracts/device/assets';
import type { AssetParameters } from '../../../contracts/device/commands';
import { commandLimits } from '../../../contracts/device/commands';
import type { ConnectionStatistics, DeviceReport, SetpointObservations } from '../../../contracts/hub/reports';
import type { ModbusUnit } from '../../modbus/link';
import type { AssetState, DriverContext } from '../driver';
import { MapDriver } from '../maps/driver';
import { decodeRaw, encodeRaw } from '../maps/points';
import { parseRegisterMap, type RegisterMapInput } from '../maps/schema';

/** The furnace's readings (our assumption, see above). */
export const sagerFurnaceMapInput = {
  type: 'sager-furnace',
  source: 'Gridport assumption (no public Sager Modbus document found, 2026-11-28): holding registers 0-5, big word order',
  report: 'thermalPower',
  defaultSlaveId: 1,
  points: [
    { name: 'activePower', address: 0, type: 's32', field: 'activePower' },
    { name: 'temperature', address: 2, type: 's16', scale: 0.1, field: 'temperature' },
    { name: 'stateOfCharge', address: 3, type: 'u16', scale: 0.1, field: 'stateOfCharge' },
    { name: 'storedEnergy', address: 4, type: 'u32', field: 'storedEnergy' },
  ],
  notes: 'The schedule is read and written by the sager-furnace driver (sagerScheduleLayout), not by points.',
} satisfies RegisterMapInput;

export const sagerFurnaceMap = parseRegisterMap(sagerFurnaceMapInput, 'built-in map sager-furnace');

/** Where and how the furnace keeps its schedule (our assumption, see above). */
export const sagerScheduleLayout = {
  address: 100,
  slots: commandLimits.sagerFurnaceReportEntries,
  /** Slots the cloud's schedule fills, from slot 0. */
  writableSlots: commandLimits.sagerFurnaceParameterEntries,
  registersPerSlot: 5,
  /** charge: u16 at offset 0, 0.1 % a step; start, end: u32 at offsets 1 and 3, s since 1970 UTC. */
  chargeScale: 0.1,
  emptyCharge: 0xffff,
} as const;

export interface SagerScheduleEntry {
  charge: number;
  startAt: string;
  endAt: string;
}

/** The registers of the writable slots holding `schedule` (the slots after it empty). */
export function encodeSchedule(schedule: readonly SagerScheduleEntry[]): number[] {
  const layout = sagerScheduleLayout;
  const registers: number[] = [];
  for (let slot = 0; slot < layout.writableSlots; slot += 1) {
    const entry = schedule[slot];
    if (entry === undefined) {
      registers.push(layout.emptyCharge, 0, 0, 0, 0);
      continue;
    }
    registers.push(
      Math.round(entry.charge / layout.chargeScale),
      ...encodeRaw(Math.floor(Date.parse(entry.startAt) / 1000), 'u32', 'big'),
      ...encodeRaw(Math.floor(Date.parse(entry.endAt) / 1000), 'u32', 'big'),
    );
  }
  return registers;
}

/** The entries of every slot that holds one, in slot order. */
export function decodeSchedule(registers: readonly number[]): SagerScheduleEntry[] {
  const layout = sagerScheduleLayout;
  const entries: SagerScheduleEntry[] = [];
  for (let slot = 0; slot < layout.slots; slot += 1) {
    const at = slot * layout.registersPerSlot;
    const charge = registers[at];
    if (charge === undefined || charge === layout.emptyCharge) {
      continue;
    }
    const seconds = (offset: number) => Number(decodeRaw(registers.slice(at + offset, at + offset + 2), 'u32', 'big'));
    entries.push({
      charge: Number((charge * layout.chargeScale).toFixed(1)),
      startAt: new Date(seconds(1) * 1000).toISOString(),
      endAt: new Date(seconds(3) * 1000).toISOString(),
    });
  }
  return entries;
}

export class SagerFurnaceDriver extends MapDriver {
  private schedule: SagerScheduleEntry[] | null = null;

  constructor(
    index: number,
    config: AssetConfig,
    private readonly furnace: ModbusUnit,
    log: DriverContext['log'],
    clock: () => number = Date.now,
  ) {
    super(index, config, sagerFurnaceMap, furnace, log, clock);
  }

  protected override async read(now: number): Promise<AssetState> {
    this.schedule = null;
    const state = await super.read(now);
    this.schedule = decodeSchedule(await this.readSlots());
    return state;
  }

  /**
   * Writes a sagerFurnace schedule into the furnace's slots 0-10 (in one request, the slots it
   * leaves empty cleared) and reads them back; false for other parameters, for a readOnly
   * asset, or when the furnace does not hold what was written.
   */
  async applyParameters(parameters: AssetParameters): Promise<boolean> {
    if (parameters.type !== 'sagerFurnace' || this.config.readOnly) {
      return false;
    }
    const written = encodeSchedule(parameters.schedule);
    try {
      await this.furnace.writeRegisters(sagerScheduleLayout.address, written);
      const held = await this.readSlots();
      if (written.some((value, i) => held[i] !== value)) {
        this.log('warn', 'the furnace does not hold the schedule written', { asset: this.index });
        return false;
      }
      this.schedule = decodeSchedule(held);
      return true;
    } catch (error) {
      this.log('warn', 'schedule not written', { asset: this.index, error: error instanceof Error ? error.message : String(error) });
      return false;
    }
  }

  private async readSlots(): Promise<number[]> {
    return this.furnace.readHoldingRegisters(sagerScheduleLayout.address, sagerScheduleLayout.slots * sagerScheduleLayout.registersPerSlot);
  }

  protected override report(at: Date, setpoints: SetpointObservations | undefined, statistics: ConnectionStatistics): DeviceReport | null {
    const report = super.report(at, setpoints, statistics);
    if (report === null) {
      return null;
    }
    const schedule = this.state.readable ? this.schedule : null;
    return { ...report, observations: { ...report.observations, ...(schedule === null ? {} : { schedule }) } } as DeviceReport;
  }
}

/** The driver of a sager-furnace asset; null for other types (a DriverFactory; `clock` for tests). */
export function createSagerFurnaceDriver(index: number, config: AssetConfig, context: DriverContext, clock?: () => number): SagerFurnaceDriver | null {
  if (config.type !== 'sager-furnace') {
    return null;
  }
  const unit = context.links.unit(config.communication, config.slaveId ?? sagerFurnaceMap.defaultSlaveId, {
    timeoutMs: config.timeout,
    blockLength: sagerFurnaceMap.requests.maxRegisters,
    blockGap: sagerFurnaceMap.requests.gap,
  });
  return new SagerFurnaceDriver(index, config, unit, context.log, clock);
}
