/**
 * Modbus TCP servers (modbus-serial ServerTCP) that serve plant assets with the demo register
 * maps (edge/drivers/demo/register-maps.ts): several units per server, each a demo type bound to
 * a plant asset. A read encodes what the plant gives at that moment; setpoint, relay and
 * generator writes go into the plant. Each unit counts the write requests it received (refused
 * ones too), so a test sees that a readOnly asset was never written.
 */
import net from 'node:net';
import { ServerTCP, type FCallback, type FCallbackVal, type IServiceVector } from 'modbus-serial';
import {
  dataLength,
  demoAddresses,
  demoKinds,
  encodeIdentity,
  encodeReading,
  generatorRunValues,
  setpointOf,
  type DemoAssetType,
  type RegisterImage,
} from '../drivers/demo/register-maps';
import { applyCommand, applySetpoint, bindingOf, readPlant, type PlantBinding, type PlantTarget } from './plant-drivers';
import type { Site } from './plant';

/** One unit of a simulator: a demo type answering for a plant asset at a slave id. */
export interface SimulatedUnit {
  slaveId: number;
  type: DemoAssetType;
  target: PlantTarget;
  /** Identity registers (1000-1023); defaults name Gridport, the type and the slave id. */
  identity?: { manufacturer: string; model: string; serialNumber: string };
}

export interface ModbusSimulatorOptions {
  units: readonly SimulatedUnit[];
  /** Default 127.0.0.1. */
  host?: string;
  /** Default: a free port. */
  port?: number;
  log?: (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;
}

export interface ModbusSimulator {
  readonly host: string;
  readonly port: number;
  /** Write requests unit `slaveId` received (refused ones included). */
  writes(slaveId: number): number;
  /** Read requests unit `slaveId` answered. */
  reads(slaveId: number): number;
  /** The tcp connection of the config (contracts/device/connection.ts) that reaches this simulator. */
  connection(): { type: 'tcp'; ip: string; port: number };
  /** While silent, every unit takes requests and never answers (a hung device or a cut cable): clients time out. */
  silence(silent: boolean): void;
  /** Stops serving and drops every client connection. */
  close(): Promise<void>;
}

/** Modbus exception codes the simulators answer with. */
export const illegalFunction = 0x01;
export const illegalDataAddress = 0x02;
export const illegalDataValue = 0x03;
export const gatewayTargetFailed = 0x0b;

/** An exception answer of a simulated unit (modbus-serial answers `modbusErrorCode`). */
export class ModbusException extends Error {
  constructor(
    readonly modbusErrorCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** A unit's registers and counters. */
class UnitState {
  readonly binding: PlantBinding;
  readonly image: RegisterImage;
  readonly length: number;
  reads = 0;
  writes = 0;

  constructor(
    readonly unit: SimulatedUnit,
    private readonly site: Site,
  ) {
    this.binding = bindingOf(unit.target);
    const count = this.binding.kind === 'ev' ? this.binding.asset.points.length : this.binding.kind === 'relay' ? this.binding.asset.channels.length : 0;
    this.length = dataLength(unit.type, count);
    this.image = new Array<number>(demoAddresses.identity + demoAddresses.identityLength).fill(0);
    encodeIdentity(unit.identity ?? { manufacturer: 'Gridport', model: unit.type, serialNumber: `SIM-${unit.slaveId}` }, this.image);
    this.refresh();
  }

  refresh(): void {
    encodeReading(this.binding.kind, readPlant(this.binding), this.image);
  }

  read(address: number, length: number): number[] {
    const inData = address + length <= this.length;
    const inIdentity = address >= demoAddresses.identity && address + length <= demoAddresses.identity + demoAddresses.identityLength;
    if (address < 0 || length < 1 || !(inData || inIdentity)) {
      throw new ModbusException(illegalDataAddress, `registers ${address}-${address + length - 1} are not mapped`);
    }
    this.refresh();
    this.reads += 1;
    return this.image.slice(address, address + length);
  }

  write(address: number, values: readonly number[]): void {
    this.writes += 1;
    const { kind } = this.binding;
    const end = address + values.length;
    if (kind === 'relay') {
      const channels = this.length - demoAddresses.relayChannels;
      if (address < demoAddresses.relayChannels || end > demoAddresses.relayChannels + channels || values.some((value) => value > 1)) {
        throw new ModbusException(
          illegalDataAddress,
          `relay channels are registers ${demoAddresses.relayChannels}-${demoAddresses.relayChannels + channels - 1}, 0 or 1`,
        );
      }
      values.forEach((value, i) => {
        if (this.binding.kind === 'relay') {
          this.binding.asset.channels[address - demoAddresses.relayChannels + i] = value === 1 ? 'on' : 'off';
        }
      });
      return;
    }
    const lastWritable = kind === 'generator' ? demoAddresses.generatorRun : demoAddresses.setpoint + 1;
    if (kind === 'meter' || address < demoAddresses.setpointMode || end > lastWritable + 1) {
      throw new ModbusException(illegalDataAddress, `registers ${address}-${end - 1} of ${this.unit.type} are not writable`);
    }
    // A write of part of the setpoint (mode or value alone) keeps the rest as the plant holds it now.
    this.refresh();
    const setpointRegisters = this.image.slice(demoAddresses.setpointMode, demoAddresses.setpoint + 2);
    values.forEach((value, i) => {
      const register = address + i;
      if (register === demoAddresses.generatorRun) {
        const run = value === generatorRunValues.run ? true : value === generatorRunValues.stop ? false : null;
        applyCommand(this.binding, { kind: 'generator', run }, this.site.now);
      } else {
        setpointRegisters[register - demoAddresses.setpointMode] = value;
      }
    });
    if (address <= demoAddresses.setpoint + 1) {
      applySetpoint(this.binding, setpointOf(setpointRegisters));
    }
  }
}

/** Answers a modbus-serial service vector's callback with what `work` gives, or with the error it throws (a ModbusException is answered as its exception code). */
export function answerWith<T>(work: () => T, done: (error: Error | null, value?: T) => void): void {
  let value: T;
  try {
    value = work();
  } catch (error) {
    done(error instanceof Error ? error : new Error(String(error)));
    return;
  }
  done(null, value);
}

/** A TCP port free on `host` now (another process may take it before it is bound: retry). */
export async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ host, port: 0 }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A modbus-serial ServerTCP listening on host:port, resolved once it listens. */
export async function listen(vector: IServiceVector, host: string, port: number): Promise<ServerTCP> {
  return new Promise((resolve, reject) => {
    const server = new ServerTCP(vector, { host, port, unitID: 255 });
    server.once('initialized', () => resolve(server));
    server.once('serverError', (error: Error | null) => {
      server.close(() => reject(error ?? new Error('server error')));
    });
  });
}

/**
 * Starts a Modbus TCP server for `units` of `site` on a free port of `host` (or `port`) and
 * resolves once it listens. Unknown unit ids are answered with exception 11 (gateway target
 * failed to respond), unmapped registers with exception 2.
 */
export async function startModbusSimulator(site: Site, options: ModbusSimulatorOptions): Promise<ModbusSimulator> {
  const host = options.host ?? '127.0.0.1';
  const units = new Map<number, UnitState>();
  for (const unit of options.units) {
    if (units.has(unit.slaveId)) {
      throw new RangeError(`slave id ${unit.slaveId} is given twice`);
    }
    if (demoKinds[unit.type] !== bindingOf(unit.target).kind) {
      throw new RangeError(`${unit.type} cannot serve a ${bindingOf(unit.target).kind} asset`);
    }
    units.set(unit.slaveId, new UnitState(unit, site));
  }
  const unitOf = (slaveId: number): UnitState => {
    const unit = units.get(slaveId);
    if (unit === undefined) {
      throw new ModbusException(gatewayTargetFailed, `no unit ${slaveId}`);
    }
    return unit;
  };
  let silent = false;
  // Callback style, so that a silent unit can leave a request unanswered (modbus-serial then sends nothing).
  const answer = <T>(work: () => T, done: (error: Error | null, value?: T) => void): void => {
    if (!silent) {
      answerWith(work, done);
    }
  };
  const vector: IServiceVector = {
    getHoldingRegister: (address: number, unitId: number, done: FCallbackVal<number>): void =>
      answer(
        () => unitOf(unitId).read(address, 1)[0] ?? 0,
        (error, value) => done(error, value ?? 0),
      ),
    getMultipleHoldingRegisters: (address: number, length: number, unitId: number, done: FCallbackVal<number[]>): void =>
      answer(
        () => unitOf(unitId).read(address, length),
        (error, value) => done(error, value ?? []),
      ),
    setRegister: (address: number, value: number, unitId: number, done: FCallback): void => answer(() => unitOf(unitId).write(address, [value]), done),
    setRegisterArray: (address: number, values: number[], unitId: number, done: FCallback): void => answer(() => unitOf(unitId).write(address, values), done),
  };

  let server: ServerTCP | undefined;
  let port = 0;
  for (let attempt = 0; server === undefined; attempt += 1) {
    port = options.port ?? (await freePort(host));
    try {
      server = await listen(vector, host, port);
    } catch (error) {
      // Another process may take the free port between finding and binding it: try another.
      if (options.port !== undefined || attempt >= 4) {
        throw error;
      }
    }
  }
  const running = server;
  // Clients that vanish mid-request are their business, not the simulator's.
  running.on('socketError', (error: Error | null) => options.log?.('info', 'simulator client error', { port, error: error?.message }));
  running.on('error', (error: Error | null) => options.log?.('info', 'simulator answer not sent', { port, error: error?.message }));
  let closed: Promise<void> | undefined;

  return {
    host,
    port,
    writes: (slaveId) => units.get(slaveId)?.writes ?? 0,
    reads: (slaveId) => units.get(slaveId)?.reads ?? 0,
    connection: () => ({ type: 'tcp', ip: host, port }),
    silence: (value) => {
      silent = value;
    },
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        running.close(() => resolve());
      });
      return closed;
    },
  };
}
