/**
 * Register values: numbers of 16 to 64 bits and ASCII strings in 16-bit Modbus registers, and
 * SunSpec's scale factors and not-implemented markers. Bytes within a register are big-endian
 * (Modbus); the word order is the asset's `endianness` (contracts/device/assets.ts):
 * 'big' puts the most significant register first (ABCD), 'mid-little' the least significant
 * register first with big-endian bytes in each (CDAB, "word swapped").
 */
import type { endiannesses } from '../../contracts/device/assets';

export type WordOrder = (typeof endiannesses)[number];

/** The registers each numeric type takes. */
export const registerCounts = {
  uint16: 1,
  int16: 1,
  uint32: 2,
  int32: 2,
  float32: 2,
  uint64: 4,
  int64: 4,
} as const;
export type NumericType = keyof typeof registerCounts;

/** The registers of a value, most significant first, whatever the word order. */
function inBigOrder(registers: readonly number[], order: WordOrder): number[] {
  return order === 'big' ? [...registers] : [...registers].reverse();
}

function bufferOf(registers: readonly number[], count: number, order: WordOrder): Buffer {
  if (registers.length < count) {
    throw new RangeError(`${count} registers needed, ${registers.length} given`);
  }
  const buffer = Buffer.alloc(count * 2);
  inBigOrder(registers.slice(0, count), order).forEach((register, index) => buffer.writeUInt16BE(register & 0xffff, index * 2));
  return buffer;
}

/** The value of `type` in the first registers given (more are ignored). 64-bit values beyond 2^53 lose precision. */
export function decodeNumber(registers: readonly number[], type: NumericType, order: WordOrder = 'big'): number {
  const buffer = bufferOf(registers, registerCounts[type], order);
  switch (type) {
    case 'uint16':
      return buffer.readUInt16BE(0);
    case 'int16':
      return buffer.readInt16BE(0);
    case 'uint32':
      return buffer.readUInt32BE(0);
    case 'int32':
      return buffer.readInt32BE(0);
    case 'float32':
      return buffer.readFloatBE(0);
    case 'uint64':
      return Number(buffer.readBigUInt64BE(0));
    case 'int64':
      return Number(buffer.readBigInt64BE(0));
  }
}

const integerRanges: Record<Exclude<NumericType, 'float32'>, readonly [bigint, bigint]> = {
  uint16: [0n, 0xffffn],
  int16: [-0x8000n, 0x7fffn],
  uint32: [0n, 0xffffffffn],
  int32: [-0x80000000n, 0x7fffffffn],
  uint64: [0n, 0xffffffffffffffffn],
  int64: [-0x8000000000000000n, 0x7fffffffffffffffn],
};

/** The registers holding `value` as `type`; integers must be whole and in range, float32 rounds to single precision. */
export function encodeNumber(value: number | bigint, type: NumericType, order: WordOrder = 'big'): number[] {
  const count = registerCounts[type];
  if (type === 'float32') {
    const buffer = Buffer.alloc(4);
    buffer.writeFloatBE(Number(value), 0);
    return inBigOrder([buffer.readUInt16BE(0), buffer.readUInt16BE(2)], order);
  }
  if (typeof value === 'number' && !Number.isInteger(value)) {
    throw new RangeError(`${value} is not a whole number for ${type}`);
  }
  const whole = BigInt(value);
  const [min, max] = integerRanges[type];
  if (whole < min || whole > max) {
    throw new RangeError(`${value} is outside ${type} (${min} to ${max})`);
  }
  // Two's complement in `count` registers, most significant first.
  const unsigned = BigInt.asUintN(count * 16, whole);
  const registers: number[] = [];
  for (let index = count - 1; index >= 0; index -= 1) {
    registers.push(Number((unsigned >> BigInt(index * 16)) & 0xffffn));
  }
  return inBigOrder(registers, order);
}

/** ASCII text of the registers, two characters each (first in the high byte); cut at the first NUL, trailing spaces dropped. */
export function decodeString(registers: readonly number[]): string {
  const bytes: number[] = [];
  for (const register of registers) {
    bytes.push((register >> 8) & 0xff, register & 0xff);
  }
  const end = bytes.indexOf(0);
  return Buffer.from(end === -1 ? bytes : bytes.slice(0, end))
    .toString('latin1')
    .trimEnd();
}

/** `text` in `count` registers, NUL-padded; longer text is refused. */
export function encodeString(text: string, count: number): number[] {
  const bytes = Buffer.from(text, 'latin1');
  if (bytes.length > count * 2) {
    throw new RangeError(`"${text}" takes more than ${count} registers`);
  }
  const registers: number[] = [];
  for (let index = 0; index < count; index += 1) {
    registers.push(((bytes[index * 2] ?? 0) << 8) | (bytes[index * 2 + 1] ?? 0));
  }
  return registers;
}

/** SunSpec point types (SunSpec Information Model Specification, point types), always in big word order. */
export const sunspecTypes = {
  uint16: 'uint16',
  int16: 'int16',
  acc16: 'uint16',
  enum16: 'uint16',
  bitfield16: 'uint16',
  count: 'uint16',
  sunssf: 'int16',
  uint32: 'uint32',
  int32: 'int32',
  acc32: 'uint32',
  enum32: 'uint32',
  bitfield32: 'uint32',
  float32: 'float32',
  uint64: 'uint64',
  int64: 'int64',
  acc64: 'uint64',
} as const satisfies Record<string, NumericType>;
export type SunspecType = keyof typeof sunspecTypes;

/** The raw values SunSpec marks "not implemented" by type (accumulators: 0; float32: NaN, checked apart). */
const notImplementedMarkers: Partial<Record<SunspecType, number>> = {
  uint16: 0xffff,
  int16: -0x8000,
  acc16: 0,
  enum16: 0xffff,
  bitfield16: 0xffff,
  sunssf: -0x8000,
  uint32: 0xffffffff,
  int32: -0x80000000,
  acc32: 0,
  enum32: 0xffffffff,
  bitfield32: 0xffffffff,
  acc64: 0,
};

/** Scale factors SunSpec allows (10^-10 to 10^10); anything else (0x8000, 0x7FFF, ...) is no scale factor. */
const scaleFactorLimit = 10;

/** A SunSpec point's value, or null when the device marks it not implemented. */
export function decodeSunspec(registers: readonly number[], type: SunspecType): number | null {
  const value = decodeNumber(registers, sunspecTypes[type], 'big');
  if (type === 'float32') {
    return Number.isFinite(value) ? value : null;
  }
  if (type === 'sunssf' && Math.abs(value) > scaleFactorLimit) {
    return null;
  }
  return notImplementedMarkers[type] === value ? null : value;
}

/** value × 10^scaleFactor, null when either is missing; rounded to drop binary noise (12 significant digits). */
export function scaled(value: number | null, scaleFactor: number | null): number | null {
  if (value === null || scaleFactor === null) {
    return null;
  }
  return Number((value * 10 ** scaleFactor).toPrecision(12));
}

/** The raw integer that stands for `value` at `scaleFactor` (the inverse of scaled), rounded to the nearest step. */
export function unscaled(value: number, scaleFactor: number): number {
  return Math.round(value / 10 ** scaleFactor);
}
