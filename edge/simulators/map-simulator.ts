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
import { createServer, type Socket } from 'node:net';
import { type ServerTCP, type FCallback, type FCallbackVal, type IServiceVector } from 'modbus-serial';
import { encodeRaw, orderOf, pointValue, rawOf, rawValues } from '../drivers/maps/points';
import { registerCount, type PointTable, type RegisterMap, type RegisterPoint } from '../drivers/maps/schema';
import { emptyStatistics } from '../drivers/common/report';
import { reportOf, stateOf } from '../drivers/demo/readings';
import { setpointIn } from '../drivers/maps/setpoint';
import { answerWith, freePort, gatewayTargetFailed, illegalDataAddress, illegalDataValue, illegalFunction, listen, ModbusException } from './modbus-simulator';
import type { Site } from './plant';
import { applyCommand, applySetpoint, bindingOf, readPlant, type PlantBinding, type PlantTarget } from './plant-drivers';

export interface MapUnit {
  slaveId: number;
  map: RegisterMap;
  /** Values by point name, in the point's unit (W, V, %, the text of a string). */
  values?: Record<string, number | string>;
  /**
   * A plant asset the unit serves: each read puts what the plant gives into the points by their
   * report field, and a setpoint, relay or run write goes into the plant. `nominalActivePower`
   * is what a % setpoint is of when the map names no nominal point; `phaseVoltage` reckons a
   * charge current (default 230 V).
   */
  plant?: { site: Site; target: PlantTarget; nominalActivePower?: number; phaseVoltage?: number };
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

/** Report observations as field paths and their values (`phaseCurrent.l1`, `points.0.status`). */
function flatten(value: unknown, prefix: string, into: Map<string, number | string>): void {
  if (typeof value === 'number' || typeof value === 'string') {
    into.set(prefix, value);
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      flatten(inner, prefix === '' ? key : `${prefix}.${key}`, into);
    }
  }
}

class MapUnitState {
  readonly tables: Record<PointTable, Map<number, number>> = { holding: new Map(), input: new Map(), coil: new Map(), discrete: new Map() };
  readonly spans: Record<PointTable, [number, number] | null> = { holding: null, input: null, coil: null, discrete: null };
  readonly writable: Record<'holding' | 'coil', Set<number>> = { holding: new Set(), coil: new Set() };
  writes = 0;

  private readonly binding: PlantBinding | undefined;

  constructor(
    readonly map: RegisterMap,
    private readonly plant?: MapUnit['plant'],
  ) {
    this.binding = plant === undefined ? undefined : bindingOf(plant.target);
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
      if (setpoint.negativeAddress !== undefined) {
        writable('holding', setpoint.negativeAddress, registerCount(setpoint));
      }
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
    this.refresh();
    return this.registers(table, address, length);
  }

  /** Puts what the plant gives now into the points, by their report field. */
  private refresh(): void {
    if (this.binding === undefined || this.plant === undefined) {
      return;
    }
    const { kind } = this.binding;
    const now = this.plant.site.now;
    const reading = readPlant(this.binding);
    const report = reportOf(kind, 0, new Date(now), reading, stateOf(kind, reading, now), undefined, emptyStatistics());
    const fields = new Map<string, number | string>();
    flatten(report.observations, '', fields);
    if (this.binding.kind === 'relay') {
      this.binding.asset.channels.forEach((state, i) =>
        this.tables[this.map.relays?.table ?? 'coil'].set((this.map.relays?.address ?? 0) + i, state === 'on' ? 1 : 0),
      );
    }
    for (const point of this.map.points) {
      const value = point.field === undefined ? undefined : fields.get(point.field);
      if (value !== undefined) {
        this.set(point.name, this.rawForEnum(point, value));
      }
    }
  }

  /** An enumeration's raw value for a report value (the first the map lists for it). */
  private rawForEnum(point: RegisterPoint, value: number | string): number | string {
    if (point.enum === undefined || typeof value !== 'string') {
      return value;
    }
    const entry = Object.entries(point.enum as Record<string, string>).find(([, mapped]) => mapped === value);
    if (entry === undefined) {
      return value;
    }
    return point.type === 'string' ? entry[0] : Number(entry[0]);
  }

  /** Carries a write into the plant: the setpoint the registers now hold, relay channels, a run request. */
  private toPlant(table: 'holding' | 'coil', address: number, length: number): void {
    if (this.binding === undefined || this.plant === undefined) {
      return;
    }
    const end = address + length;
    const touches = (start: number, count: number): boolean => address < start + count && start < end;
    const { setpoint, relays, run } = this.map;
    if (setpoint !== undefined && table === 'holding') {
      const addresses = [
        { address: setpoint.address, count: registerCount(setpoint) },
        ...(setpoint.negativeAddress === undefined ? [] : [{ address: setpoint.negativeAddress, count: registerCount(setpoint) }]),
        ...[...setpoint.enable, ...setpoint.release].map((write) => ({ address: write.address, count: write.type === 'u32' ? 2 : 1 })),
        ...(setpoint.direction === undefined ? [] : [{ address: setpoint.direction.address, count: 1 }]),
      ];
      if (addresses.some((entry) => touches(entry.address, entry.count))) {
        const nominalPoint = setpoint.nominalPoint === undefined ? undefined : this.value(setpoint.nominalPoint);
        const nominal = typeof nominalPoint === 'number' ? nominalPoint : (this.plant.nominalActivePower ?? null);
        const block = { slice: (start: number, count: number) => this.registers('holding', start, count) };
        applySetpoint(this.binding, setpointIn(this.map, setpoint, block, { nominal, phaseVoltage: this.plant.phaseVoltage ?? 230 }));
      }
    }
    if (relays !== undefined && table === relays.table && touches(relays.address, relays.max)) {
      const channels = this.registers(relays.table, relays.address, relays.max).map((value): 'on' | 'off' => (value === 0 ? 'off' : 'on'));
      applyCommand(this.binding, { kind: 'relays', channels }, this.plant.site.now);
    }
    if (run !== undefined && table === 'holding' && touches(run.address, 1)) {
      const value = this.tables.holding.get(run.address);
      applyCommand(this.binding, { kind: 'generator', run: value === run.run ? true : value === run.stop ? false : null }, this.plant.site.now);
    }
  }

  /** Function 6: refused with exception 1 by a unit whose map takes writes with function 16 only. */
  writeSingle(address: number, value: number): void {
    if (this.map.writeMultiple) {
      this.writes += 1;
      throw new ModbusException(illegalFunction, `${this.map.type} takes register writes with function 16 only`);
    }
    this.write('holding', address, [value]);
  }

  write(table: 'holding' | 'coil', address: number, values: readonly number[]): void {
    this.writes += 1;
    if (!values.every((_, i) => this.writable[table].has(address + i))) {
      throw new ModbusException(illegalDataAddress, `${table} ${address}-${address + values.length - 1} of ${this.map.type} are not writable`);
    }
    values.forEach((value, i) => this.tables[table].set(address + i, value));
    this.toPlant(table, address, values.length);
  }
}

function unitStates(options: MapSimulatorOptions): Map<number, MapUnitState> {
  const units = new Map<number, MapUnitState>();
  for (const unit of options.units) {
    if (units.has(unit.slaveId)) {
      throw new RangeError(`slave id ${unit.slaveId} is given twice`);
    }
    const state = new MapUnitState(unit.map, unit.plant);
    // Scale factors first, so that the values scaled by them are put with them.
    const entries = Object.entries(unit.values ?? {}).sort(([a], [b]) => Number(isFactor(unit.map, b)) - Number(isFactor(unit.map, a)));
    for (const [name, value] of entries) {
      state.set(name, value);
    }
    units.set(unit.slaveId, state);
  }
  return units;
}

/** Starts a server for `units` on a free port of `host` (or `port`); resolves once it listens. */
export async function startMapSimulator(options: MapSimulatorOptions): Promise<MapSimulator> {
  const host = options.host ?? '127.0.0.1';
  const units = unitStates(options);
  const unitOf = (slaveId: number): MapUnitState => {
    const unit = units.get(slaveId);
    if (unit === undefined) {
      throw new ModbusException(gatewayTargetFailed, `no unit ${slaveId}`);
    }
    return unit;
  };
  const vector: IServiceVector = {
    getHoldingRegister: (address: number, unitId: number, done: FCallbackVal<number>): void =>
      answerWith(
        () => unitOf(unitId).read('holding', address, 1)[0] ?? 0,
        (error, value) => done(error, value ?? 0),
      ),
    getMultipleHoldingRegisters: (address: number, length: number, unitId: number, done: FCallbackVal<number[]>): void =>
      answerWith(
        () => unitOf(unitId).read('holding', address, length),
        (error, value) => done(error, value ?? []),
      ),
    getInputRegister: (address: number, unitId: number, done: FCallbackVal<number>): void =>
      answerWith(
        () => unitOf(unitId).read('input', address, 1)[0] ?? 0,
        (error, value) => done(error, value ?? 0),
      ),
    getMultipleInputRegisters: (address: number, length: number, unitId: number, done: FCallbackVal<number[]>): void =>
      answerWith(
        () => unitOf(unitId).read('input', address, length),
        (error, value) => done(error, value ?? []),
      ),
    getCoil: (address: number, unitId: number, done: FCallbackVal<boolean>): void =>
      answerWith(
        () => unitOf(unitId).read('coil', address, 1)[0] === 1,
        (error, value) => done(error, value ?? false),
      ),
    getDiscreteInput: (address: number, unitId: number, done: FCallbackVal<boolean>): void =>
      answerWith(
        () => unitOf(unitId).read('discrete', address, 1)[0] === 1,
        (error, value) => done(error, value ?? false),
      ),
    setCoil: (address: number, value: boolean, unitId: number, done: FCallback): void =>
      answerWith(() => unitOf(unitId).write('coil', address, [value ? 1 : 0]), done),
    setRegister: (address: number, value: number, unitId: number, done: FCallback): void => answerWith(() => unitOf(unitId).writeSingle(address, value), done),
    setRegisterArray: (address: number, values: number[], unitId: number, done: FCallback): void =>
      answerWith(() => unitOf(unitId).write('holding', address, values), done),
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
  return simulatorHandle(units, host, port, (done) => running.close(() => done()));
}

function isFactor(map: RegisterMap, name: string): boolean {
  return map.points.some((point) => point.scaleFactor === name);
}

/** The longitudinal redundancy check of Modbus ASCII: the two's complement of the byte sum. */
export function asciiLrc(bytes: readonly number[]): number {
  return -bytes.reduce((sum, byte) => sum + byte, 0) & 0xff;
}

/** A Modbus ASCII frame: ':', the bytes and their LRC in upper-case hex, CR LF. */
export function asciiFrame(bytes: readonly number[]): string {
  return `:${[...bytes, asciiLrc(bytes)].map((byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join('')}\r\n`;
}

const word = (bytes: readonly number[], at: number): number => ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);

/**
 * The answer of `units` to one ASCII frame's text (between ':' and CR LF), as bytes; null when
 * nothing is answered: a malformed frame or a wrong LRC (dropped, as the serial line spec asks),
 * or a unit that is not on the bus (silence, as on RS485).
 */
function answerAsciiFrame(units: ReadonlyMap<number, MapUnitState>, text: string): number[] | null {
  if (text.length < 6 || text.length % 2 !== 0 || !/^[0-9A-Fa-f]+$/.test(text)) {
    return null;
  }
  const bytes = Array.from({ length: text.length / 2 }, (_, i) => parseInt(text.slice(i * 2, i * 2 + 2), 16));
  const lrc = bytes.pop();
  const [slaveId = 0, code = 0] = bytes;
  const unit = units.get(slaveId);
  if (lrc !== asciiLrc(bytes) || unit === undefined) {
    return null;
  }
  try {
    if ((code === 3 || code === 4) && bytes.length === 6) {
      const count = word(bytes, 4);
      if (count < 1 || count > 125) {
        throw new ModbusException(illegalDataValue, `${count} registers`);
      }
      const values = unit.read(code === 3 ? 'holding' : 'input', word(bytes, 2), count);
      return [slaveId, code, count * 2, ...values.flatMap((value) => [value >> 8, value & 0xff])];
    }
    if (code === 6 && bytes.length === 6) {
      unit.writeSingle(word(bytes, 2), word(bytes, 4));
      return bytes;
    }
    if (code === 16 && bytes.length >= 7) {
      const count = word(bytes, 4);
      if (count < 1 || count > 123 || bytes[6] !== count * 2 || bytes.length !== 7 + count * 2) {
        throw new ModbusException(illegalDataValue, 'register count and byte count disagree');
      }
      unit.write(
        'holding',
        word(bytes, 2),
        Array.from({ length: count }, (_, i) => word(bytes, 7 + i * 2)),
      );
      return bytes.slice(0, 6);
    }
    throw new ModbusException(illegalFunction, `function ${code} is not served over ASCII`);
  } catch (error) {
    if (error instanceof ModbusException) {
      return [slaveId, code | 0x80, error.modbusErrorCode];
    }
    throw error;
  }
}

/**
 * The same units answering Modbus ASCII frames over TCP (functions 3, 4, 6 and 16), for the
 * families that speak only ASCII on their RS485 bus (ABL's EVCC). A test joins a pseudo-terminal
 * to the port with socat, so the client opens a real serial port and frames ASCII on it.
 */
export async function startMapAsciiSimulator(options: MapSimulatorOptions): Promise<MapSimulator> {
  const host = options.host ?? '127.0.0.1';
  const units = unitStates(options);
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.setEncoding('latin1');
    let buffer = '';
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        const start = buffer.indexOf(':');
        const end = start < 0 ? -1 : buffer.indexOf('\r\n', start);
        if (start < 0 || end < 0) {
          buffer = start < 0 ? '' : buffer.slice(start);
          return;
        }
        const answer = answerAsciiFrame(units, buffer.slice(start + 1, end));
        buffer = buffer.slice(end + 2);
        if (answer !== null) {
          socket.write(asciiFrame(answer), 'latin1');
        }
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('error', () => undefined);
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
  return simulatorHandle(units, host, port, (done) => {
    for (const socket of sockets) {
      socket.destroy();
    }
    server.close(() => done());
  });
}

/** The handle of a map simulator over its units, closed once by `shut` however often close() is called. */
function simulatorHandle(units: ReadonlyMap<number, MapUnitState>, host: string, port: number, shut: (done: () => void) => void): MapSimulator {
  const unitOf = (slaveId: number): MapUnitState => {
    const unit = units.get(slaveId);
    if (unit === undefined) {
      throw new RangeError(`no unit ${slaveId}`);
    }
    return unit;
  };
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
      closed ??= new Promise<void>((resolve) => shut(resolve));
      return closed;
    },
  };
}
