/**
 * modbusServer (device-model.md sections 3.5, 5, 9): a Modbus TCP server through which a local
 * controller reads the site's assets and steers them. Its setpoints fill the `modbusServer` layer
 * of each asset (edge/control/setpoints.ts). The controller must change the heartbeat register at
 * least every heartbeatTimeout seconds; when it does not, the layer is released, the status says
 * `fallback` and an alarm is raised. The register map is in docs/control-loops.md and below.
 */
import { ServerTCP } from 'modbus-serial';
import type { DeviceConfig } from '../../contracts/device/config';
import type { AssetState } from '../drivers/driver';
import type { LoopStep, SiteSnapshot } from './loop';
import { LoopBase, type LoopConfigOf } from './loop-base';
import { controlAlarmCodes, immediateRule } from './monitor';

/** The register map (holding registers, 0-based PDU addresses; input registers mirror them read-only). */
export const modbusServerRegisters = {
  /** The controller's heartbeat: any change of its value counts. */
  heartbeat: 0,
  /** 1 while the heartbeat is fresh (the controller's setpoints hold), 0 when it is lost. */
  controllerActive: 1,
  /** How many assets the server exposes. */
  assetCount: 2,
  /** The first register of the first asset's block; each asset has `assetBlockSize` registers. */
  assetBase: 100,
  assetBlockSize: 20,
  /** Offsets within an asset's block. int32 values take two registers, high word first. */
  asset: {
    /** int32 W, the asset's convention (meters: import positive). Read only. */
    activePower: 0,
    /** int32 W: the setpoint the controller asks for. Read and write. */
    setpoint: 2,
    /** 1: the setpoint holds; 0: the controller releases the asset. Read and write. */
    setpointEnabled: 4,
    /** int32 W: the setpoint the asset confirmed. Read only. */
    confirmedSetpoint: 5,
    /** 0.1 %: state of charge (batteries). Read only. */
    stateOfCharge: 7,
    /** int32 W: what a producer could deliver now. Read only. */
    availablePower: 8,
    /** 1 when the gateway could read the asset at its last poll. Read only. */
    readable: 10,
    /** The asset's index in the device config. Read only. */
    assetIndex: 11,
  },
} as const;

/** An int32 nobody could read; a 16-bit register nobody could read. */
export const notAvailableInt32 = -0x80000000;
export const notAvailableUint16 = 0xffff;

const writableOffsets: ReadonlySet<number> = new Set([
  modbusServerRegisters.asset.setpoint,
  modbusServerRegisters.asset.setpoint + 1,
  modbusServerRegisters.asset.setpointEnabled,
]);

export class ModbusException extends Error {
  constructor(
    message: string,
    readonly modbusErrorCode: number,
  ) {
    super(message);
  }
}
export const illegalAddress = (address: number): ModbusException => new ModbusException(`illegal data address ${address}`, 0x02);

export function int32Words(value: number | null | undefined): [number, number] {
  const int = typeof value === 'number' && Number.isFinite(value) ? Math.max(-0x7fffffff, Math.min(0x7fffffff, Math.round(value))) : notAvailableInt32;
  const unsigned = int >>> 0;
  return [unsigned >>> 16, unsigned & 0xffff];
}

export function wordsInt32(high: number, low: number): number {
  return ((high << 16) | low) >> 0;
}

export interface ModbusServerOptions {
  /** Host to listen on (default every interface). */
  host?: string;
  log?: (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;
}

/**
 * A Modbus TCP server over a loop's registers (modbusServer, realTimeInterface): holding and input
 * reads through `read`, writes through `write`; a multi-register write lands whole, so a loop step
 * never sees half an int32. `listening` resolves once it listens and rejects when it cannot (the
 * port taken), after `onFailure` and a log line; it is caught, so nobody need wait on it.
 */
export function serveLoopRegisters(
  loop: 'modbusServer' | 'realTimeInterface',
  config: { port: number; unitId: number },
  options: ModbusServerOptions,
  registers: { read: (address: number) => number; write: (address: number, values: number[]) => void },
  onFailure: (error: Error) => void,
): { server: ServerTCP; listening: Promise<void> } {
  const server = new ServerTCP(
    {
      getHoldingRegister: (address: number) => registers.read(address),
      getInputRegister: (address: number) => registers.read(address),
      setRegister: (address: number, value: number) => registers.write(address, [value]),
      setRegisterArray: (address: number, values: number[]) => registers.write(address, values),
    },
    { host: options.host ?? '0.0.0.0', port: config.port, unitID: config.unitId },
  );
  const listening = new Promise<void>((resolve, reject) => {
    server.on('initialized', () => resolve());
    server.on('serverError', (error: Error | null) => {
      const failure = error ?? new Error(`${loop} failed`);
      onFailure(failure);
      options.log?.('error', `${loop} could not listen`, { port: config.port, error: failure.message });
      reject(failure);
    });
  });
  listening.catch(() => undefined);
  server.on('socketError', (error: Error | null) => options.log?.('warn', `${loop} connection failed`, { error: error?.message }));
  return { server, listening };
}

export class ModbusServerLoop extends LoopBase<'modbusServer'> {
  private readonly registers: Uint16Array;
  private readonly server: ServerTCP;
  private readonly listening: Promise<void>;
  private heartbeatChanged = false;
  private lastHeartbeatAt: number | null = null;
  private fresh = false;
  private serverError: Error | null = null;

  constructor(index: number, config: LoopConfigOf<'modbusServer'>, device: DeviceConfig, options: ModbusServerOptions = {}) {
    super(index, 'modbusServer', config, device);
    const { assetBase, assetBlockSize } = modbusServerRegisters;
    this.registers = new Uint16Array(assetBase + assetBlockSize * config.assetIndices.length);
    this.registers[modbusServerRegisters.assetCount] = config.assetIndices.length;
    for (const [position, assetIndex] of config.assetIndices.entries()) {
      const base = assetBase + assetBlockSize * position;
      this.registers.set(int32Words(null), base + modbusServerRegisters.asset.activePower);
      this.registers[base + modbusServerRegisters.asset.assetIndex] = assetIndex;
    }
    const registers = this.registers;
    const read = (address: number): number => {
      const value = registers[address];
      if (value === undefined) {
        throw illegalAddress(address);
      }
      return value;
    };
    const write = (address: number, values: readonly number[]): void => {
      // Every register of the write must be writable: the heartbeat, or a setpoint register of an asset block.
      for (let offset = 0; offset < values.length; offset += 1) {
        if (!this.writable(address + offset)) {
          throw illegalAddress(address + offset);
        }
      }
      for (const [offset, value] of values.entries()) {
        if (address + offset === modbusServerRegisters.heartbeat && registers[address + offset] !== value) {
          this.heartbeatChanged = true;
        }
        registers[address + offset] = value;
      }
    };
    // A failed listen is reported through the status; the promise is for those who wait on it.
    ({ server: this.server, listening: this.listening } = serveLoopRegisters('modbusServer', config, options, { read, write }, (failure) => {
      this.serverError = failure;
      this.status.state = 'error';
    }));
  }

  /** Resolves once the server listens; rejects when it cannot (the port is taken). */
  ready(): Promise<void> {
    return this.listening;
  }

  private writable(address: number): boolean {
    if (address === modbusServerRegisters.heartbeat) {
      return true;
    }
    const { assetBase, assetBlockSize } = modbusServerRegisters;
    if (address < assetBase || address >= this.registers.length) {
      return false;
    }
    return writableOffsets.has((address - assetBase) % assetBlockSize);
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    if (this.heartbeatChanged) {
      this.heartbeatChanged = false;
      this.lastHeartbeatAt = site.now;
    }
    const wasFresh = this.fresh;
    this.fresh = this.lastHeartbeatAt !== null && site.now - this.lastHeartbeatAt < config.heartbeatTimeout * 1000;
    this.registers[modbusServerRegisters.controllerActive] = this.fresh ? 1 : 0;
    if (this.lastHeartbeatAt !== null) {
      this.monitor(
        controlAlarmCodes.modbusServerHeartbeatLost,
        site.now,
        !this.fresh,
        () => `no heartbeat change for ${config.heartbeatTimeout} s`,
        undefined,
        immediateRule,
      );
    }
    if (wasFresh && !this.fresh) {
      // The controller's setpoints no longer hold: clear the enables, so a controller that comes back starts from released assets.
      this.clearEnables();
    }

    const setpoints = new Map<number, number | null>();
    const unreadable: number[] = [];
    for (const [position, assetIndex] of config.assetIndices.entries()) {
      const state = site.assets[assetIndex];
      if (state?.readable !== true) {
        unreadable.push(assetIndex);
      }
      const base = modbusServerRegisters.assetBase + modbusServerRegisters.assetBlockSize * position;
      this.expose(base, state);
      const enabled = this.registers[base + modbusServerRegisters.asset.setpointEnabled] === 1;
      const high = this.registers[base + modbusServerRegisters.asset.setpoint] ?? 0;
      const low = this.registers[base + modbusServerRegisters.asset.setpoint + 1] ?? 0;
      setpoints.set(assetIndex, this.fresh && enabled ? wordsInt32(high, low) : null);
    }
    this.status.unreadableAssets = unreadable;
    this.status.state =
      this.serverError !== null ? 'error' : !this.fresh ? 'fallback' : [...setpoints.values()].some((value) => value !== null) ? 'active' : 'idle';
    return { setpoints, layer: 'modbusServer' };
  }

  private expose(base: number, state: AssetState | undefined): void {
    const readable = state?.readable === true;
    const { asset } = modbusServerRegisters;
    this.registers.set(int32Words(readable ? state.activePower : null), base + asset.activePower);
    this.registers.set(int32Words(readable ? state.confirmedSetpoint : null), base + asset.confirmedSetpoint);
    this.registers.set(int32Words(readable ? state.availablePower : null), base + asset.availablePower);
    const charge = readable ? state.stateOfCharge : null;
    this.registers[base + asset.stateOfCharge] = typeof charge === 'number' ? Math.round(Math.max(0, Math.min(100, charge)) * 10) : notAvailableUint16;
    this.registers[base + asset.readable] = readable ? 1 : 0;
  }

  private clearEnables(): void {
    for (let position = 0; position < this.config.assetIndices.length; position += 1) {
      this.registers[modbusServerRegisters.assetBase + modbusServerRegisters.assetBlockSize * position + modbusServerRegisters.asset.setpointEnabled] = 0;
    }
  }

  protected override extras(): Record<string, unknown> {
    return {
      clientConnected: this.server.socks.size > 0,
      lastHeartbeatAt: this.lastHeartbeatAt === null ? null : new Date(this.lastHeartbeatAt).toISOString(),
    };
  }

  override async close(): Promise<void> {
    for (const socket of this.server.socks.keys()) {
      socket.destroy();
    }
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
    });
  }
}
