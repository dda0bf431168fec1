/**
 * A Modbus TCP server that serves any register map (edge/drivers/maps): each unit holds the
 * registers of its map, values set by point name in the point's unit (scale and scale factor
 * applied backwards), so a test states "the meter reads 3450.25 W" and the driver must decode
 * it. Reads within a table's mapped span are answered (registers between points read 0); reads
 * outside are refused with exception 2, as a device refuses unmapped registers. Writes are
 * taken only at the map's writable registers (setpoint, enable, release, direction, run,
 * relays) and refused with exception 2 elsewhere; a written value stays, so a driver reads its
 * setpoint back.
 */
import { type ServerTCP, type FCallback, type FCallbackVal, type IServiceVector } from 'modbus-serial';
import { encodeRaw, orderOf, pointValue, rawOf, rawValues } from '../drivers/maps/points';
import { registerCount, type PointTable, type RegisterMap, type RegisterPoint } from '../drivers/maps/schema';
import { freePort, listen } from './modbus-simulator';

export interface MapUnit {
  slaveId: number;
  map: RegisterMap;
  /** Values by point name, in the point's unit (W, V, %, the text of a string). */
  values?: Record<string, number | string>;
}

export interface MapSimulatorOptions {
  units: readonly MapUnit[];
  host?: string;
  port?: number;
}

export interface MapSimulator {
  readonly host: string;
  readonly port: number;
  connection(): { type: 'tcp'; ip: string; port: number };
  /** Sets a point's value (its unit). */
  set(slaveId: number, point: string, value: number | string): void;
  /** A point's value as the registers hold it now (its unit). */
  value(slaveId: number, point: string): number | string | null;
  /** A register (or bit) as it is now; undefined where nothing was put. */
  register(slaveId: number, table: PointTable, address: number): number | undefined;
  /** Write requests the unit received, refused ones included. */
  writes(slaveId: number): number;
  close(): Promise<void>;
}

const illegalDataAddress = 0x02;
const gatewayTargetFailed = 0x0b;

class ModbusException extends Error {
  constructor(
    readonly modbusErrorCode: number,
    message: string,
  ) {
    super(message);
  }
}

class MapUnitState {
  readonly tables: Record<PointTable, Map<number, number>> = { holding: new Map(), input: new Map(), coil: new Map(), discrete: new Map() };
  readonly spans: Record<PointTable, [number, number] | null> = { holding: null, input: null, coil: null, discrete: null };
  readonly writable: Record<'holding' | 'coil', Set<number>> = { holding: new Set(), coil: new Set() };
  writes = 0;

  constructor(readonly map: RegisterMap) {
    const widen = (table: PointTable, address: number, length: number): void => {
      const span = this.spans[table];
      this.spans[table] = span === null ? [address, address + length] : [Math.min(span[0], address), Math.max(span[1], address + length)];
    };
    for (const point of map.points) {
      widen(point.table, point.address, registerCount(point));
    }
    const setpoint = map.setpoint;
    const writable = (table: 'holding' | 'coil', address: number, length = 1): void => {
      widen(table, address, length);
      for (let i = 0; i < length; i += 1) {
        this.writable[table].add(address + i);
      }
    };
    if (setpoint !== undefined) {
      writable('holding', setpoint.address, registerCount(setpoint));
      for (const write of [...setpoint.enable, ...setpoint.release]) {
        writable('holding', write.address, write.type === 'u32' ? 2 : 1);
      }
      if (setpoint.direction !== undefined) {
        writable('holding', setpoint.direction.address);
      }
    }
    if (map.run !== undefined) {
      writable('holding', map.run.address);
    }
    if (map.relays !== undefined) {
      writable(map.relays.table, map.relays.address, map.relays.max);
    }
  }

  point(name: string): RegisterPoint {
    const point = this.map.points.find((candidate) => candidate.name === name);
    if (point === undefined) {
      throw new RangeError(`${this.map.type} has no point ${name}`);
    }
    return point;
  }

  private raw(): Map<string, number | string | null> {
    return rawValues(this.map, (table, address, length) => this.registers(table, address, length));
  }

  registers(table: PointTable, address: number, length: number): number[] {
    return Array.from({ length }, (_, i) => this.tables[table].get(address + i) ?? 0);
  }

  set(name: string, value: number | string): void {
    const point = this.point(name);
    const raw = rawOf(point, value, this.raw());
    encodeRaw(raw, point.type, orderOf(this.map, point), point.length ?? 1).forEach((register, i) => {
      this.tables[point.table].set(point.address + i, register);
    });
  }

  value(name: string): number | string | null {
    const point = this.point(name);
    const raw = this.raw();
    raw.set(
      point.name,
      rawValues({ ...this.map, points: [{ ...point, poll: true }] }, (table, address, length) => this.registers(table, address, length)).get(point.name) ??
        null,
    );
    return pointValue(this.map, point, raw);
  }

  read(table: PointTable, address: number, length: number): number[] {
    const span = this.spans[table];
    if (span === null || address < span[0] || address + length > span[1]) {
      throw new ModbusException(illegalDataAddress, `${table} ${address}-${address + length - 1} are not mapped`);
    }
    return this.registers(table, address, length);
  }

  write(table: 'holding' | 'coil', address: number, values: readonly number[]): void {
    this.writes += 1;
    if (!values.every((_, i) => this.writable[table].has(address + i))) {
      throw new ModbusException(illegalDataAddress, `${table} ${address}-${address + values.length - 1} of ${this.map.type} are not writable`);
    }
    values.forEach((value, i) => this.tables[table].set(address + i, value));
  }
}

/** Starts a server for `units` on a free port of `host` (or `port`); resolves once it listens. */
export async function startMapSimulator(options: MapSimulatorOptions): Promise<MapSimulator> {
  const host = options.host ?? '127.0.0.1';
  const units = new Map<number, MapUnitState>();
  for (const unit of options.units) {
    if (units.has(unit.slaveId)) {
      throw new RangeError(`slave id ${unit.slaveId} is given twice`);
    }
    const state = new MapUnitState(unit.map);
    // Scale factors first, so that the values scaled by them are put with them.
    const entries = Object.entries(unit.values ?? {}).sort(([a], [b]) => Number(isFactor(unit.map, b)) - Number(isFactor(unit.map, a)));
    for (const [name, value] of entries) {
      state.set(name, value);
    }
    units.set(unit.slaveId, state);
  }
  const unitOf = (slaveId: number): MapUnitState => {
    const unit = units.get(slaveId);
    if (unit === undefined) {
      throw new ModbusException(gatewayTargetFailed, `no unit ${slaveId}`);
    }
    return unit;
  };
  const answer = <T>(work: () => T, done: (error: Error | null, value?: T) => void): void => {
    let value: T;
    try {
      value = work();
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    done(null, value);
  };
  const vector: IServiceVector = {
    getHoldingRegister: (address: number, unitId: number, done: FCallbackVal<number>): void =>
      answer(
        () => unitOf(unitId).read('holding', address, 1)[0] ?? 0,
        (error, value) => done(error, value ?? 0),
      ),
    getMultipleHoldingRegisters: (address: number, length: number, unitId: number, done: FCallbackVal<number[]>): void =>
      answer(
        () => unitOf(unitId).read('holding', address, length),
        (error, value) => done(error, value ?? []),
      ),
    getInputRegister: (address: number, unitId: number, done: FCallbackVal<number>): void =>
      answer(
        () => unitOf(unitId).read('input', address, 1)[0] ?? 0,
        (error, value) => done(error, value ?? 0),
      ),
    getMultipleInputRegisters: (address: number, length: number, unitId: number, done: FCallbackVal<number[]>): void =>
      answer(
        () => unitOf(unitId).read('input', address, length),
        (error, value) => done(error, value ?? []),
      ),
    getCoil: (address: number, unitId: number, done: FCallbackVal<boolean>): void =>
      answer(
        () => unitOf(unitId).read('coil', address, 1)[0] === 1,
        (error, value) => done(error, value ?? false),
      ),
    getDiscreteInput: (address: number, unitId: number, done: FCallbackVal<boolean>): void =>
      answer(
        () => unitOf(unitId).read('discrete', address, 1)[0] === 1,
        (error, value) => done(error, value ?? false),
      ),
    setCoil: (address: number, value: boolean, unitId: number, done: FCallback): void =>
      answer(() => unitOf(unitId).write('coil', address, [value ? 1 : 0]), done),
    setRegister: (address: number, value: number, unitId: number, done: FCallback): void =>
      answer(() => unitOf(unitId).write('holding', address, [value]), done),
    setRegisterArray: (address: number, values: number[], unitId: number, done: FCallback): void =>
      answer(() => unitOf(unitId).write('holding', address, values), done),
  };
  let server: ServerTCP | undefined;
  let port = 0;
  for (let attempt = 0; server === undefined; attempt += 1) {
    port = options.port ?? (await freePort(host));
    try {
      server = await listen(vector, host, port);
    } catch (error) {
      if (options.port !== undefined || attempt >= 4) {
        throw error;
      }
    }
  }
  const running = server;
  running.on('socketError', () => undefined);
  running.on('error', () => undefined);
  let closed: Promise<void> | undefined;
  return {
    host,
    port,
    connection: () => ({ type: 'tcp', ip: host, port }),
    set: (slaveId, point, value) => unitOf(slaveId).set(point, value),
    value: (slaveId, point) => unitOf(slaveId).value(point),
    register: (slaveId, table, address) => unitOf(slaveId).tables[table].get(address),
    writes: (slaveId) => units.get(slaveId)?.writes ?? 0,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        running.close(() => resolve());
      });
      return closed;
    },
  };
}

function isFactor(map: RegisterMap, name: string): boolean {
  return map.points.some((point) => point.scaleFactor === name);
}
