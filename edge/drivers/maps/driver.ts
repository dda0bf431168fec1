/**
 * The generic register-map driver: runs any checked map (schema.ts). A poll reads the map's
 * registers in as few requests as readBlocks makes of them (per table; coils and discrete
 * inputs one span each), decodes each point and fills the report field it names. The state the
 * loops see comes from the report's fields of the same name (activePower, reactivePower,
 * phaseCurrent, stateOfCharge, availablePower, channels), the setpoint range from the map's
 * setpoint, and the confirmed setpoint from the setpoint register read back.
 *
 * Rules every map shares (docs/edge.md "Register maps"): a group the map fills in part (one
 * phase of three) is reported with the rest null; a point that could not be read, is marked
 * unavailable or lacks its scale factor reads null; an enumeration value the map does not list
 * reads its enumDefault (else null); a meter map marked invertable turns with invertCurrent.
 */
import type { AssetConfig } from '../../../contracts/device/assets';
import type { ConnectionStatistics, DeviceReport, ReportType, SetpointObservations } from '../../../contracts/hub/reports';
import { reportDefinitions } from '../../../contracts/hub/reports';
import type { ModbusUnit, RegisterBlock, RegisterRange } from '../../modbus/link';
import { PolledAssetDriver } from '../common/polled-driver';
import { setpointObservations } from '../common/report';
import type { AssetState, DriverCommand, DriverContext, PowerRange } from '../driver';
import { decodeRaw, encodeRaw, orderOf, pointValue, rawValues } from './points';
import { quantityOf, setpointIn, type SetpointContext } from './setpoint';
import { registerCount, type RegisterMap, type RegisterPoint, type SetpointSpec } from './schema';

type Observations = Record<string, unknown>;
type Value = number | string | null;

/** Fields invertCurrent turns (meters): negated, and import/export swapped. */
const invertedFields = ['activePower', 'reactivePower', 'powerFactor', 'phaseCurrent', 'lineCurrent', 'phaseActivePower'];

function setPath(target: Observations, path: string, value: unknown): void {
  const parts = path.split('.');
  let node: Record<string, unknown> | unknown[] = target;
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    const key: string | number = Array.isArray(node) ? Number(part) : part;
    const container = node as Record<string | number, unknown>;
    if (last) {
      container[key] = value;
      return;
    }
    if (container[key] === undefined) {
      container[key] = /^\d+$/.test(parts[i + 1] ?? '') ? [] : {};
    }
    node = container[key] as Record<string, unknown> | unknown[];
  });
}

function getPath(source: Observations, path: string): unknown {
  let node: unknown = source;
  for (const part of path.split('.')) {
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  }
  return node;
}

function negate(value: unknown): unknown {
  if (typeof value === 'number') {
    return value === 0 ? 0 : -value;
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, negate(inner)]));
  }
  return value;
}

/** Every value of the observations null (a report of an asset that could not be read), its shape kept. */
function nulled(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(nulled);
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === 'point' ? inner : nulled(inner)]));
  }
  return null;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The observations a map's points give, with groups completed, EV points numbered, and the status enumerations mapped. */
export function observationsOf(map: RegisterMap, raw: Map<string, number | string | null>, invert: boolean): Observations {
  const observations: Observations = {};
  const values = new Map<string, Value>();
  for (const point of map.points) {
    values.set(point.name, pointValue(map, point, raw));
  }
  for (const point of map.points) {
    if (point.field === undefined) {
      continue;
    }
    let value: Value = values.get(point.name) ?? null;
    if (point.enum !== undefined) {
      const table = point.enum as Record<string, string>;
      const key = typeof value === 'string' ? value.trim() : String(raw.get(point.name) ?? '');
      value = value === null ? null : (table[key] ?? point.enumDefault ?? null);
    }
    setPath(observations, point.field, value);
  }
  for (const point of map.points) {
    if (point.field !== undefined && point.signOf !== undefined) {
      const magnitude = numberOrNull(getPath(observations, point.field));
      const sign = numberOrNull(getPath(observations, point.signOf));
      if (magnitude !== null) {
        setPath(observations, point.field, sign !== null && sign < 0 ? -Math.abs(magnitude) : Math.abs(magnitude));
      }
    }
  }
  complete(observations, reportDefinitions[map.report].observations);
  if (invert) {
    for (const field of invertedFields) {
      if (observations[field] !== undefined) {
        observations[field] = negate(observations[field]);
      }
    }
    if ('energyImport' in observations || 'energyExport' in observations) {
      [observations.energyImport, observations.energyExport] = [observations.energyExport ?? null, observations.energyImport ?? null];
    }
  }
  return observations;
}

/** Fills the members of object groups a map gives in part with null, and numbers list items (`point`). */
function complete(observations: Observations, fields: (typeof reportDefinitions)[ReportType]['observations']): void {
  for (const [key, field] of Object.entries(fields)) {
    const value = observations[key];
    if (value === undefined) {
      continue;
    }
    if (field.kind === 'object' && typeof value === 'object' && value !== null) {
      for (const member of Object.keys(field.fields)) {
        const group = value as Record<string, unknown>;
        group[member] ??= null;
      }
    }
    if (field.kind === 'array' && Array.isArray(value) && field.item.kind === 'object') {
      const itemFields = field.item.fields;
      value.forEach((item: unknown, index) => {
        const entry = (typeof item === 'object' && item !== null ? item : {}) as Observations;
        if ('point' in itemFields) {
          entry.point = index;
        }
        complete(entry, itemFields);
        value[index] = entry;
      });
    }
  }
}

/**
 * A report of a map's type. The map schema checked each field a point fills against the report's
 * definition, so the observations are that report's; the driver tests check them with validateReport.
 */
function reportOf(type: ReportType, asset: number, at: Date, observations: Observations): DeviceReport {
  return { type, at: at.toISOString(), asset, observations } as unknown as DeviceReport;
}

/** The phase voltage a charge current is reckoned with, V (the config's nominalPhaseVoltage). */
function phaseVoltageOf(config: AssetConfig): number {
  const voltage = (config as { nominalPhaseVoltage?: unknown }).nominalPhaseVoltage;
  return typeof voltage === 'number' ? voltage : 230;
}

export class MapDriver extends PolledAssetDriver {
  private observations: Observations | null = null;
  private raw = new Map<string, Value>();
  private confirmed: number | null = null;
  private readonly channels: number;

  constructor(
    index: number,
    config: AssetConfig,
    readonly map: RegisterMap,
    private readonly unit: ModbusUnit,
    log: DriverContext['log'],
    clock: () => number = Date.now,
  ) {
    super(index, config, unit, log, clock);
    const relays = (config as { relays?: unknown }).relays;
    this.channels = map.relays === undefined ? 0 : Math.min(map.relays.max, Array.isArray(relays) ? relays.length : map.relays.max);
  }

  private get invert(): boolean {
    return this.map.invertable && (this.config as { invertCurrent?: unknown }).invertCurrent === true;
  }

  /** The registers a poll reads, by table. */
  private ranges(): Record<RegisterPoint['table'], RegisterRange[]> {
    const ranges: Record<RegisterPoint['table'], RegisterRange[]> = { holding: [], input: [], coil: [], discrete: [] };
    for (const point of this.map.points.filter((candidate) => candidate.poll)) {
      ranges[point.table].push({ address: point.address, length: registerCount(point) });
    }
    const setpoint = this.map.setpoint;
    if (setpoint !== undefined && setpoint.readBack && !this.config.readOnly) {
      ranges.holding.push({ address: setpoint.address, length: registerCount(setpoint) });
      if (setpoint.negativeAddress !== undefined) {
        ranges.holding.push({ address: setpoint.negativeAddress, length: registerCount(setpoint) });
      }
      for (const write of setpoint.enable.slice(0, 1)) {
        ranges.holding.push({ address: write.address, length: write.type === 'u32' ? 2 : 1 });
      }
      if (setpoint.direction !== undefined) {
        ranges.holding.push({ address: setpoint.direction.address, length: 1 });
      }
    }
    if (this.map.relays !== undefined && this.channels > 0) {
      ranges[this.map.relays.table].push({ address: this.map.relays.address, length: this.channels });
    }
    return ranges;
  }

  private async readBits(table: 'coil' | 'discrete', ranges: readonly RegisterRange[]): Promise<RegisterBlock> {
    if (ranges.length === 0) {
      return { get: () => undefined, slice: () => undefined };
    }
    const start = Math.min(...ranges.map((range) => range.address));
    const end = Math.max(...ranges.map((range) => range.address + range.length));
    const bits = table === 'coil' ? await this.unit.readCoils(start, end - start) : await this.unit.readDiscreteInputs(start, end - start);
    const at = (address: number): number | undefined => {
      const bit = bits[address - start];
      return bit === undefined ? undefined : bit ? 1 : 0;
    };
    return {
      get: at,
      slice: (address, length) => {
        const values = Array.from({ length }, (_, i) => at(address + i));
        return values.every((value): value is number => value !== undefined) ? values : undefined;
      },
    };
  }

  protected async read(now: number): Promise<AssetState> {
    this.observations = null;
    const ranges = this.ranges();
    const empty: RegisterBlock = { get: () => undefined, slice: () => undefined };
    const blocks = {
      holding: ranges.holding.length === 0 ? empty : await this.unit.readBlocks('holding', ranges.holding),
      input: ranges.input.length === 0 ? empty : await this.unit.readBlocks('input', ranges.input),
      coil: await this.readBits('coil', ranges.coil),
      discrete: await this.readBits('discrete', ranges.discrete),
    };
    const missing: string[] = [];
    this.raw = rawValues(this.map, (table, address, length) => {
      const registers = blocks[table].slice(address, length);
      if (registers === undefined) {
        missing.push(`${table} ${address}`);
      }
      return registers;
    });
    if (missing.length > 0) {
      throw new RangeError(`registers not read: ${missing.join(', ')}`);
    }
    const observations = observationsOf(this.map, this.raw, this.invert);
    if (this.map.relays !== undefined) {
      const block = blocks[this.map.relays.table];
      observations.channels = Array.from({ length: this.channels }, (_, i) => {
        const value = block.get((this.map.relays?.address ?? 0) + i);
        return value === undefined ? null : value === 0 ? 'off' : 'on';
      });
    }
    this.observations = observations;
    this.confirmed = this.readBack(blocks.holding);
    return this.stateOf(observations, now);
  }

  private stateOf(observations: Observations, now: number): AssetState {
    const state: AssetState = { readable: true, at: now };
    for (const field of ['activePower', 'reactivePower', 'stateOfCharge', 'availablePower', 'frequency'] as const) {
      if (field in observations) {
        state[field] = numberOrNull(observations[field]);
      }
    }
    const currents = observations.phaseCurrent;
    if (typeof currents === 'object' && currents !== null) {
      const { l1, l2, l3 } = currents as Record<string, unknown>;
      state.phaseCurrent = { l1: numberOrNull(l1), l2: numberOrNull(l2), l3: numberOrNull(l3) };
    }
    if (Array.isArray(observations.channels)) {
      state.relayChannels = observations.channels as ('on' | 'off' | null)[];
    }
    if (this.map.setpoint !== undefined && !this.config.readOnly) {
      state.controllableRange = this.setpointLimits();
      if (this.map.setpoint.readBack) {
        state.confirmedSetpoint = this.confirmed;
      }
    }
    return state;
  }

  /** Nominal power, W: the map's nominal point, else the config's nominalActivePower. */
  private nominal(): number | null {
    const spec = this.map.setpoint;
    const point = spec?.nominalPoint === undefined ? undefined : this.map.points.find((candidate) => candidate.name === spec.nominalPoint);
    const fromPoint = point === undefined ? null : numberOrNull(pointValue(this.map, point, this.raw));
    const nominal = fromPoint ?? this.config.nominalActivePower ?? null;
    return nominal !== null && nominal > 0 ? nominal : null;
  }

  private bound(value: string | number | undefined): number | null {
    if (value === undefined) {
      return null;
    }
    if (typeof value === 'number') {
      return value;
    }
    const negative = value.startsWith('-');
    const read = numberOrNull(this.observations === null ? null : getPath(this.observations, negative ? value.slice(1) : value));
    return read === null ? null : negative ? -read : read;
  }

  protected override setpointLimits(): PowerRange | null {
    const spec = this.map.setpoint;
    if (spec === undefined || this.observations === null) {
      return null;
    }
    const nominal = this.nominal();
    const category = this.map.report;
    const fallback: [number | null, number | null] =
      nominal === null ? [null, null] : category === 'batteryPower' ? [-nominal, nominal] : category === 'evPower' ? [-nominal, 0] : [0, nominal];
    const min = spec.min === undefined ? fallback[0] : this.bound(spec.min);
    const max = spec.max === undefined ? fallback[1] : this.bound(spec.max);
    return min === null || max === null || min > max ? null : { min, max };
  }

  private setpointContext(): SetpointContext {
    return { nominal: this.nominal(), phaseVoltage: phaseVoltageOf(this.config) };
  }

  private readBack(block: RegisterBlock): number | null {
    const spec = this.map.setpoint;
    if (spec === undefined || !spec.readBack || this.config.readOnly) {
      return null;
    }
    return setpointIn(this.map, spec, block, this.setpointContext());
  }

  protected override async write(watts: number | null): Promise<void> {
    const spec = this.map.setpoint;
    if (spec === undefined) {
      throw new RangeError(`${this.config.type} takes no setpoint`);
    }
    if (watts === null && spec.release.length > 0) {
      for (const write of spec.release) {
        await this.writeValue(write);
      }
      return;
    }
    // Released without release writes: the setpoint goes to the largest the asset takes (percent: 100 %).
    const range = this.setpointLimits();
    const target = watts ?? (spec.kind === 'percent' ? (this.nominal() ?? 0) : this.map.report === 'evPower' ? (range?.min ?? 0) : (range?.max ?? 0));
    for (const write of spec.enable) {
      await this.writeValue(write);
    }
    let quantity = quantityOf(spec, target, this.setpointContext());
    if (spec.magnitude) {
      quantity = Math.abs(quantity);
    }
    const address = target < 0 && spec.negativeAddress !== undefined ? spec.negativeAddress : spec.address;
    const off = spec.off !== undefined && Math.abs(quantity) < spec.off.below ? spec.off.raw : undefined;
    const registers = off === undefined ? encodeRaw(quantity / spec.scale, spec.type, orderOf(this.map, spec)) : [off];
    if (registers.length === 1) {
      await this.writeRegister(address, registers[0] ?? 0);
    } else {
      await this.unit.writeRegisters(address, registers);
    }
    // The direction last: on devices where it is the command, it starts what the value set up.
    if (spec.direction !== undefined) {
      const { direction } = spec;
      await this.writeRegister(direction.address, target > 0 ? direction.positive : target < 0 ? direction.negative : (direction.zero ?? direction.positive));
    }
  }

  /** An enable or release write: one register, or a u32 in two in one request. */
  private async writeValue(write: SetpointSpec['enable'][number]): Promise<void> {
    if (write.type === 'u32') {
      await this.unit.writeRegisters(write.address, encodeRaw(write.value, 'u32', 'big'));
      return;
    }
    await this.writeRegister(write.address, write.value);
  }

  /** One register: function 6, or 16 for a map that says writeMultiple. */
  private async writeRegister(address: number, value: number): Promise<void> {
    if (this.map.writeMultiple) {
      await this.unit.writeRegisters(address, [value]);
      return;
    }
    await this.unit.writeRegister(address, value);
  }

  protected override async carryOut(command: DriverCommand): Promise<boolean> {
    const { relays, run } = this.map;
    if (command.kind === 'relays' && relays !== undefined) {
      const channels = command.channels.slice(0, this.channels);
      if (channels.length === 0) {
        return false;
      }
      if (relays.table === 'coil') {
        await this.unit.writeCoils(
          relays.address,
          channels.map((state) => state === 'on'),
        );
      } else {
        await this.unit.writeRegisters(
          relays.address,
          channels.map((state) => (state === 'on' ? 1 : 0)),
        );
      }
      return true;
    }
    if (command.kind === 'generator' && run !== undefined && command.run !== null) {
      await this.writeRegister(run.address, command.run ? run.run : run.stop);
      return true;
    }
    return false;
  }

  protected report(at: Date, setpoints: SetpointObservations | undefined, connectionStatistics: ConnectionStatistics): DeviceReport | null {
    const observations = this.state.readable && this.observations !== null ? this.observations : (nulled(this.lastShape()) as Observations);
    const definition = reportDefinitions[this.map.report].observations;
    const layers = 'setpoints' in definition ? setpointObservations(setpoints, this.state) : undefined;
    return reportOf(this.map.report, this.index, at, {
      ...observations,
      ...(layers === undefined ? {} : { setpoints: layers }),
      connectionStatistics,
    });
  }

  /** The shape of a report before any read: every field the map fills. */
  private lastShape(): Observations {
    const shape = observationsOf(this.map, new Map(), false);
    if (this.map.relays !== undefined) {
      shape.channels = Array.from({ length: this.channels }, () => null);
    }
    return shape;
  }

  protected override flashReport(at: Date, setpoints: SetpointObservations | undefined): DeviceReport | null {
    const type = `${this.map.report}.flash`;
    if (!(type in reportDefinitions)) {
      return null;
    }
    const observations = this.state.readable && this.observations !== null ? this.observations : (nulled(this.lastShape()) as Observations);
    const flash: Observations = { activePower: numberOrNull(observations.activePower) };
    const definition = reportDefinitions[type as ReportType].observations;
    if (this.map.report === 'meterPower') {
      const extra = (this.config as { enableFlashReport?: { additionalProperties?: readonly string[] } }).enableFlashReport?.additionalProperties ?? [];
      for (const property of extra) {
        const value = property === 'lineCurrent' ? (observations.lineCurrent ?? observations.phaseCurrent) : observations[property];
        if (value !== undefined) {
          flash[property] = value;
        }
      }
    } else {
      for (const field of ['reactivePower', 'stateOfCharge', 'windSpeed']) {
        if (field in definition && field in observations) {
          flash[field] = numberOrNull(observations[field]);
        }
      }
      const layers = setpointObservations(setpoints, this.state);
      if (layers !== undefined) {
        flash.setpoints = layers;
      }
    }
    return reportOf(type as ReportType, this.index, at, flash);
  }

  override async metadata(): Promise<Record<string, string | number | null> | null> {
    const identity = this.map.identity;
    if (identity === undefined) {
      return null;
    }
    const result: Record<string, string | number | null> = {};
    try {
      for (const [key, value] of Object.entries(identity)) {
        if (value === undefined) {
          continue;
        }
        if (typeof value === 'string') {
          result[key] = value;
          continue;
        }
        const point = this.map.points.find((candidate) => candidate.name === value.point);
        if (point === undefined) {
          continue;
        }
        const length = registerCount(point);
        const registers =
          point.table === 'input' ? await this.unit.readInputRegisters(point.address, length) : await this.unit.readHoldingRegisters(point.address, length);
        const decoded = pointValue(this.map, point, new Map([[point.name, decodeRaw(registers, point.type, orderOf(this.map, point))]]));
        result[key] = decoded === null ? null : String(decoded);
      }
    } catch {
      return null;
    }
    return result;
  }
}

/** The map driver of a configured asset on its Modbus unit (the map's default slave id and request limits). */
export function createMapDriver(index: number, config: AssetConfig, map: RegisterMap, context: DriverContext, clock?: () => number): MapDriver {
  const unit = context.links.unit(config.communication, config.slaveId ?? map.defaultSlaveId, {
    timeoutMs: config.timeout,
    blockLength: map.requests.maxRegisters,
    blockGap: map.requests.gap,
    ...(map.framing === 'ascii' ? { framing: 'ascii' as const } : {}),
  });
  return new MapDriver(index, config, map, unit, context.log, clock);
}
