/**
 * SunSpec register maps for tests: a model chain as a real device lays it out ('SunS', each
 * model's ID, L and data registers, the end marker), with point values given raw (before
 * scale factors) by name.
 */
import { encodeNumber, encodeString, sunspecTypes, type NumericType } from '../../modbus/codec';
import { commonModel, sunspecMarker, type ModelPoints } from './models';

export interface TestModel {
  id: number;
  /** The data registers (without ID and L). */
  data: number[];
}

const unsigned: Record<NumericType, NumericType> = {
  uint16: 'uint16',
  int16: 'uint16',
  uint32: 'uint32',
  int32: 'uint32',
  float32: 'float32',
  uint64: 'uint64',
  int64: 'uint64',
};

/** `length` data registers with the named points set to their raw values; the rest 0. */
export function modelData(length: number, table: ModelPoints, values: Record<string, number>): number[] {
  const data = new Array<number>(length).fill(0);
  for (const [name, value] of Object.entries(values)) {
    const point = table[name];
    if (point === undefined) {
      throw new Error(`no point ${name}`);
    }
    const type = sunspecTypes[point.type];
    // A non-negative value goes in as unsigned, so that markers can be given as register values (0x8000 for an int16).
    const registers = encodeNumber(value, value < 0 || type === 'float32' ? type : unsigned[type]);
    registers.forEach((register, offset) => {
      data[point.offset + offset] = register;
    });
  }
  return data;
}

/** Common model 1 (66 registers). */
export function commonData(identity: { manufacturer: string; model: string; version: string; serialNumber: string; options?: string }): number[] {
  const data = new Array<number>(66).fill(0);
  const put = (field: { offset: number; length: number }, text: string): void => {
    encodeString(text, field.length).forEach((register, offset) => {
      data[field.offset + offset] = register;
    });
  };
  put(commonModel.manufacturer, identity.manufacturer);
  put(commonModel.model, identity.model);
  put(commonModel.options, identity.options ?? '');
  put(commonModel.version, identity.version);
  put(commonModel.serialNumber, identity.serialNumber);
  data[64] = 1;
  return data;
}

/** The holding registers of a chain at `base`, as register-server.py takes them. */
export function sunspecChain(base: number, models: readonly TestModel[]): Record<string, number[]> {
  const registers: number[] = [...sunspecMarker];
  for (const model of models) {
    registers.push(model.id, model.data.length, ...model.data);
  }
  registers.push(0xffff, 0);
  return { [String(base)]: registers };
}

/** The address of a model's first data register in a chain built by sunspecChain. */
export function dataAddress(base: number, models: readonly TestModel[], id: number): number {
  let address = base + 2;
  for (const model of models) {
    if (model.id === id) {
      return address + 2;
    }
    address += 2 + model.data.length;
  }
  throw new Error(`no model ${id}`);
}
