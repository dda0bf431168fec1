/**
 * A map's points as register values and back: the driver decodes what it read, the simulator
 * encodes what it serves, with the same rules. Word order per point (else the map's); float32
 * to its 7 significant digits (230.1 rather than 230.10000610351562); scaled values to 12
 * significant digits, so that 5555 × 0.01 reads 55.55.
 */
import type { WordOrder } from '../../modbus/codec';
import { decodeNumber, decodeString, encodeNumber, encodeString, type NumericType } from '../../modbus/codec';
import { registerCount, type PointType, type RegisterMap, type RegisterPoint } from './schema';

const numericTypes: Record<Exclude<PointType, 'f64' | 'string' | 'bit'>, NumericType> = {
  u16: 'uint16',
  s16: 'int16',
  u32: 'uint32',
  s32: 'int32',
  f32: 'float32',
  u64: 'uint64',
  s64: 'int64',
};

/** The limits an integer type holds (a value beyond saturates, as a device's would). */
const integerLimits: Record<string, readonly [number, number]> = {
  u16: [0, 0xffff],
  s16: [-0x8000, 0x7fff],
  u32: [0, 0xffff_ffff],
  s32: [-0x8000_0000, 0x7fff_ffff],
  u64: [0, Number.MAX_SAFE_INTEGER],
  s64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

function inBigOrder(registers: readonly number[], order: WordOrder): number[] {
  return order === 'big' ? [...registers] : [...registers].reverse();
}

/** The raw value of `type` in `registers` (bits: 0 or 1). */
export function decodeRaw(registers: readonly number[], type: PointType, order: WordOrder): number | string {
  switch (type) {
    case 'string':
      return decodeString(registers);
    case 'bit':
      return registers[0] === 0 ? 0 : 1;
    case 'f64': {
      const buffer = Buffer.alloc(8);
      inBigOrder(registers.slice(0, 4), order).forEach((register, i) => buffer.writeUInt16BE(register & 0xffff, i * 2));
      return buffer.readDoubleBE(0);
    }
    default: {
      const raw = decodeNumber(registers, numericTypes[type], order);
      return type === 'f32' && Number.isFinite(raw) ? Number(raw.toPrecision(7)) : raw;
    }
  }
}

/** The registers holding raw `value` as `type`: integers rounded and saturated to the type. */
export function encodeRaw(value: number | string, type: PointType, order: WordOrder, length = 1): number[] {
  if (type === 'string') {
    return encodeString(String(value).slice(0, length * 2), length);
  }
  const number = Number(value);
  if (type === 'bit') {
    return [number === 0 ? 0 : 1];
  }
  if (type === 'f64') {
    const buffer = Buffer.alloc(8);
    buffer.writeDoubleBE(number, 0);
    return inBigOrder(
      [0, 2, 4, 6].map((offset) => buffer.readUInt16BE(offset)),
      order,
    );
  }
  if (type === 'f32') {
    return encodeNumber(number, 'float32', order);
  }
  const [min, max] = integerLimits[type] ?? [0, 0];
  return encodeNumber(Math.max(min, Math.min(max, Math.round(number))), numericTypes[type], order);
}

/** A value to 12 significant digits: drops binary noise of scaling. */
export function tidy(value: number): number {
  return Number(value.toPrecision(12));
}

export function orderOf(map: Pick<RegisterMap, 'wordOrder'>, point: { wordOrder?: WordOrder | undefined }): WordOrder {
  return point.wordOrder ?? map.wordOrder;
}

/** Reads registers by address (a RegisterBlock, or a bit image); undefined when not read. */
export type RegisterSource = (table: RegisterPoint['table'], address: number, length: number) => number[] | undefined;

/** The raw values of the points, by name; null for a point that was not read. */
export function rawValues(map: RegisterMap, read: RegisterSource): Map<string, number | string | null> {
  const raw = new Map<string, number | string | null>();
  for (const point of map.points) {
    if (!point.poll) {
      raw.set(point.name, null);
      continue;
    }
    const registers = read(point.table, point.address, registerCount(point));
    raw.set(point.name, registers === undefined ? null : decodeRaw(registers, point.type, orderOf(map, point)));
  }
  return raw;
}

/** A point's value in its unit (scale and scale factor applied); null when unread, marked unavailable, not a number or without its scale factor. */
export function pointValue(map: RegisterMap, point: RegisterPoint, raw: Map<string, number | string | null>): number | string | null {
  const value = raw.get(point.name) ?? null;
  if (value === null || typeof value === 'string') {
    return value;
  }
  if (!Number.isFinite(value) || point.unavailable.includes(value)) {
    return null;
  }
  let exponent = 0;
  if (point.scaleFactor !== undefined) {
    const factor = raw.get(point.scaleFactor);
    // SunSpec allows 10^-10..10^10; anything else (0x8000: not implemented) is no scale factor.
    if (typeof factor !== 'number' || Math.abs(factor) > 10) {
      return null;
    }
    exponent = factor;
  }
  return tidy(value * point.scale * 10 ** exponent);
}

/** The raw value that stands for `value` (the simulator's inverse of pointValue); scale factors from `raw`. */
export function rawOf(point: RegisterPoint, value: number | string, raw: Map<string, number | string | null>): number | string {
  if (typeof value === 'string' || point.type === 'string') {
    return value;
  }
  const factor = point.scaleFactor === undefined ? 0 : Number(raw.get(point.scaleFactor) ?? 0);
  const unscaled = value / point.scale / 10 ** factor;
  return point.type === 'f32' || point.type === 'f64' ? unscaled : Math.round(unscaled);
}
