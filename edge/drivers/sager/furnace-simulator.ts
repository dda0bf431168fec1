/**
 * A Sager furnace over Modbus TCP, as the driver's register map assumes it (furnace.ts): the
 * readings at holding registers 0-5 and the 12 schedule slots from 100. It charges by its
 * schedule: while a slot's window holds the clock it draws the slot's charge (% of its heater
 * power) until the storage is full. Slots 0-10 take writes; slot 11 is the furnace's own (set at
 * its panel: `panelEntry`) and refuses them, as do the readings; reads outside the mapped
 * registers are refused with exception 2, as a device refuses unmapped registers.
 */
import type { ServerTCP, FCallback, FCallbackVal, IServiceVector } from 'modbus-serial';
import { answerWith, freePort, illegalDataAddress, listen, ModbusException } from '../../simulators/modbus-simulator';
import { encodeRaw } from '../maps/points';
import { decodeSchedule, encodeSchedule, sagerScheduleLayout, type SagerScheduleEntry } from './furnace';

export interface FurnaceSimulatorOptions {
  slaveId?: number;
  /** Heater power at 100 % charge, W. */
  heaterPower: number;
  /** Storage capacity, Wh. */
  capacityWh: number;
  /** Stored energy at the start, Wh. */
  storedWh?: number;
  /** The entry of slot 11, set at the furnace's panel. */
  panelEntry?: SagerScheduleEntry;
  clock: () => number;
  host?: string;
}

export interface FurnaceSimulator {
  readonly port: number;
  connection(): { type: 'tcp'; ip: string; port: number };
  /** The furnace's schedule as its slots hold it. */
  schedule(): SagerScheduleEntry[];
  /** Electric power it draws now, W (positive). */
  readonly heaterDraw: number;
  readonly storedWh: number;
  /** Charges over `seconds` ending at the clock's now, by the schedule in force. */
  advance(seconds: number): void;
  close(): Promise<void>;
}

const readings = { start: 0, length: 6 };
const slotsEnd = sagerScheduleLayout.address + sagerScheduleLayout.slots * sagerScheduleLayout.registersPerSlot;
const writableEnd = sagerScheduleLayout.address + sagerScheduleLayout.writableSlots * sagerScheduleLayout.registersPerSlot;

export async function startFurnaceSimulator(options: FurnaceSimulatorOptions): Promise<FurnaceSimulator> {
  const host = options.host ?? '127.0.0.1';
  const slaveId = options.slaveId ?? 1;
  const registers = new Map<number, number>();
  const emptySlots = encodeSchedule([]);
  emptySlots.forEach((value, i) => registers.set(sagerScheduleLayout.address + i, value));
  const own = options.panelEntry === undefined ? [sagerScheduleLayout.emptyCharge, 0, 0, 0, 0] : encodeSchedule([options.panelEntry]).slice(0, 5);
  own.forEach((value, i) => registers.set(writableEnd + i, value));
  let stored = options.storedWh ?? 0;
  let draw = 0;

  const slots = (): number[] => Array.from({ length: slotsEnd - sagerScheduleLayout.address }, (_, i) => registers.get(sagerScheduleLayout.address + i) ?? 0);
  const publish = (): void => {
    const share = stored / options.capacityWh;
    const values = [
      ...encodeRaw(-draw, 's32', 'big'),
      ...encodeRaw((20 + 600 * share) / 0.1, 's16', 'big'),
      ...encodeRaw((100 * share) / 0.1, 'u16', 'big'),
      ...encodeRaw(stored, 'u32', 'big'),
    ];
    values.forEach((value, i) => registers.set(readings.start + i, value));
  };
  publish();

  const check = (unitId: number, address: number, length: number, writing: boolean): void => {
    if (unitId !== slaveId) {
      throw new ModbusException(illegalDataAddress, `no unit ${unitId}`);
    }
    const end = address + length;
    const inReadings = address >= readings.start && end <= readings.start + readings.length;
    const inSlots = address >= sagerScheduleLayout.address && end <= (writing ? writableEnd : slotsEnd);
    if ((writing && !inSlots) || (!writing && !inReadings && !inSlots)) {
      throw new ModbusException(illegalDataAddress, `registers ${address}-${end - 1} are not ${writing ? 'writable' : 'mapped'}`);
    }
  };
  const read = (address: number, length: number, unitId: number): number[] => {
    check(unitId, address, length, false);
    return Array.from({ length }, (_, i) => registers.get(address + i) ?? 0);
  };
  const write = (address: number, values: readonly number[], unitId: number): void => {
    check(unitId, address, values.length, true);
    values.forEach((value, i) => registers.set(address + i, value));
  };
  const vector: IServiceVector = {
    getHoldingRegister: (address: number, unitId: number, done: FCallbackVal<number>): void =>
      answerWith(
        () => read(address, 1, unitId)[0] ?? 0,
        (error, value) => done(error, value ?? 0),
      ),
    getMultipleHoldingRegisters: (address: number, length: number, unitId: number, done: FCallbackVal<number[]>): void =>
      answerWith(
        () => read(address, length, unitId),
        (error, value) => done(error, value ?? []),
      ),
    setRegister: (address: number, value: number, unitId: number, done: FCallback): void => answerWith(() => write(address, [value], unitId), done),
    setRegisterArray: (address: number, values: number[], unitId: number, done: FCallback): void => answerWith(() => write(address, values, unitId), done),
  };
  const port = await freePort(host);
  const server: ServerTCP = await listen(vector, host, port);

  return {
    port,
    connection: () => ({ type: 'tcp', ip: host, port }),
    schedule: () => decodeSchedule(slots()),
    get heaterDraw() {
      return draw;
    },
    get storedWh() {
      return stored;
    },
    advance(seconds: number): void {
      const now = options.clock();
      const entry = decodeSchedule(slots()).find((candidate) => Date.parse(candidate.startAt) <= now && now < Date.parse(candidate.endAt));
      draw = stored >= options.capacityWh || entry === undefined ? 0 : (options.heaterPower * entry.charge) / 100;
      stored = Math.min(options.capacityWh, stored + (draw * seconds) / 3600);
      publish();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
