/**
 * What drivers see of Modbus (edge/modbus implements it over modbus-serial): a unit (slave id)
 * behind a TCP, UDP or serial link of the config (contracts/device/connection.ts). Links are
 * shared by every asset on the same endpoint; requests on one link are queued one at a time
 * (serial lines and most TCP gateways answer one request at a time), each with the asset's own
 * timeout, so a dead unit costs its own timeout and never blocks units on other links.
 */
import type { ConnectionStatistics } from '../../contracts/hub/reports';

/** Why a request failed, named as the request outcome counters of device-model.md section 3.9. */
export type ModbusFailure = Exclude<keyof ConnectionStatistics, 'success'>;

export interface RegisterRange {
  address: number;
  length: number;
}

/** Registers read by readBlocks, looked up by address. */
export interface RegisterBlock {
  /** The register at `address`; undefined when it was not read. */
  get(address: number): number | undefined;
  /** `length` registers from `address`; undefined when any of them was not read. */
  slice(address: number, length: number): number[] | undefined;
}

export interface ModbusUnit {
  readonly slaveId: number;
  readHoldingRegisters(address: number, length: number): Promise<number[]>;
  readInputRegisters(address: number, length: number): Promise<number[]>;
  readCoils(address: number, length: number): Promise<boolean[]>;
  readDiscreteInputs(address: number, length: number): Promise<boolean[]>;
  writeRegister(address: number, value: number): Promise<void>;
  writeRegisters(address: number, values: number[]): Promise<void>;
  writeCoil(address: number, value: boolean): Promise<void>;
  writeCoils(address: number, values: boolean[]): Promise<void>;
  /** Reads the ranges in as few requests as possible (neighbouring ranges merged, at most 125 registers a request). */
  readBlocks(table: 'holding' | 'input', ranges: readonly RegisterRange[]): Promise<RegisterBlock>;
  /** Request outcomes since the last take, then reset. */
  takeStatistics(): ConnectionStatistics;
  /** Request outcomes since the last take, not reset. */
  readonly statistics: ConnectionStatistics;
}

export interface UnitOptions {
  /** ms a request may take (the asset's `timeout`, default 500). */
  timeoutMs: number;
  /** Further attempts after a timeout or connection error (default 1). */
  retries?: number;
  /** Registers readBlocks may read across between two ranges rather than ask twice (default 8). */
  blockGap?: number;
  /** Most registers readBlocks asks for in one request, for units that take fewer than 125 (default 125). */
  blockLength?: number;
  /** ascii: Modbus ASCII frames on the serial line (devices that speak only ASCII); default RTU on serial, MBAP on TCP. */
  framing?: 'ascii';
}

/** The link pool: one link per endpoint, shared by the assets on it. */
export interface ModbusLinks {
  /** The unit `slaveId` on the asset's `communication` connection (tcp, udp or rs485). */
  unit(connection: unknown, slaveId: number, options: UnitOptions): ModbusUnit;
  close(): Promise<void>;
}

/** A failed Modbus request; `failure` names its outcome counter, `exceptionCode` the Modbus exception when the unit answered with one. */
export class ModbusRequestError extends Error {
  constructor(
    readonly failure: ModbusFailure,
    message: string,
    readonly exceptionCode?: number,
  ) {
    super(message);
    this.name = 'ModbusRequestError';
  }
}
