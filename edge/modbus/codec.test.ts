import { decodeNumber, decodeString, decodeSunspec, encodeNumber, encodeString, scaled, unscaled, type NumericType, type WordOrder } from './codec';

describe('numbers in registers', () => {
  const cases: [NumericType, WordOrder, number | bigint, number[]][] = [
    ['uint16', 'big', 0, [0]],
    ['uint16', 'big', 65535, [0xffff]],
    ['uint16', 'mid-little', 4660, [0x1234]],
    ['int16', 'big', -1, [0xffff]],
    ['int16', 'big', -32768, [0x8000]],
    ['int16', 'mid-little', 32767, [0x7fff]],
    ['uint32', 'big', 0x12345678, [0x1234, 0x5678]],
    ['uint32', 'mid-little', 0x12345678, [0x5678, 0x1234]],
    ['uint32', 'big', 4294967295, [0xffff, 0xffff]],
    ['int32', 'big', -2, [0xffff, 0xfffe]],
    ['int32', 'mid-little', -2, [0xfffe, 0xffff]],
    ['int32', 'big', -2147483648, [0x8000, 0x0000]],
    ['float32', 'big', 230.5, [0x4366, 0x8000]],
    ['float32', 'mid-little', 230.5, [0x8000, 0x4366]],
    ['float32', 'big', -1.5, [0xbfc0, 0x0000]],
    ['float32', 'big', 0, [0, 0]],
    ['uint64', 'big', 0x0001000200030004, [0x0001, 0x0002, 0x0003, 0x0004]],
    ['uint64', 'mid-little', 0x0001000200030004, [0x0004, 0x0003, 0x0002, 0x0001]],
    ['int64', 'big', -1, [0xffff, 0xffff, 0xffff, 0xffff]],
    ['int64', 'big', -4294967296, [0xffff, 0xffff, 0x0000, 0x0000]],
    ['int64', 'mid-little', 123456789012, [0x1a14, 0xbe99, 0x001c, 0x0000]],
  ];

  it.each(cases)('%s %s: %p ↔ %p', (type, order, value, registers) => {
    expect(encodeNumber(value, type, order)).toEqual(registers);
    expect(decodeNumber(registers, type, order)).toBe(Number(value));
  });

  it('ignores registers beyond the type and refuses too few', () => {
    expect(decodeNumber([0x1234, 0x5678, 0x9999], 'uint32')).toBe(0x12345678);
    expect(() => decodeNumber([0x1234], 'int32')).toThrow('2 registers needed, 1 given');
  });

  it.each([
    [65536, 'uint16'],
    [-1, 'uint16'],
    [32768, 'int16'],
    [1.5, 'int32'],
    [2 ** 32, 'uint32'],
    [-(2n ** 63n) - 1n, 'int64'],
  ] as const)('refuses %p as %s', (value, type) => {
    expect(() => encodeNumber(value, type)).toThrow(RangeError);
  });

  it('rounds float32 to single precision', () => {
    expect(decodeNumber(encodeNumber(0.1, 'float32'), 'float32')).toBe(Math.fround(0.1));
  });
});

describe('strings in registers', () => {
  it.each([
    ['SunS', 2, [0x5375, 0x6e53]],
    ['Fronius', 4, [0x4672, 0x6f6e, 0x6975, 0x7300]],
    ['', 2, [0, 0]],
  ])('%p in %p registers ↔ %p', (text, count, registers) => {
    expect(encodeString(text, count)).toEqual(registers);
    expect(decodeString(registers)).toBe(text);
  });

  it('cuts at the first NUL and drops trailing spaces', () => {
    expect(decodeString([0x4142, 0x2020, 0x0043])).toBe('AB');
    expect(decodeString([0x4142, 0x0043])).toBe('AB');
  });

  it('refuses text longer than its registers', () => {
    expect(() => encodeString('ABCDE', 2)).toThrow(RangeError);
  });
});

describe('SunSpec points', () => {
  it.each([
    [[0xffff], 'uint16', null],
    [[0xfffe], 'uint16', 65534],
    [[0x8000], 'int16', null],
    [[0x7fff], 'int16', 32767],
    [[0xfff6], 'int16', -10],
    [[0x0000], 'acc16', null],
    [[0xffff], 'enum16', null],
    [[0x8000], 'sunssf', null],
    [[0x7fff], 'sunssf', null],
    [[0xfffe], 'sunssf', -2],
    [[0x000a], 'sunssf', 10],
    [[0x000b], 'sunssf', null],
    [[0xffff, 0xffff], 'uint32', null],
    [[0x0001, 0x0000], 'uint32', 65536],
    [[0x8000, 0x0000], 'int32', null],
    [[0x0000, 0x0000], 'acc32', null],
    [[0x0000, 0x0064], 'acc32', 100],
    [[0x7fc0, 0x0000], 'float32', null],
    [[0xffc0, 0x0000], 'float32', null],
    [[0x7f80, 0x0000], 'float32', null],
    [[0x4366, 0x8000], 'float32', 230.5],
    [[0, 0, 0, 0], 'acc64', null],
    [[0, 0, 0, 7], 'acc64', 7],
  ] as const)('%p as %s is %p', (registers, type, value) => {
    expect(decodeSunspec(registers, type)).toBe(value);
  });

  it.each([
    [2345, -1, 234.5],
    [12, 3, 12000],
    [7, 0, 7],
    [3, -2, 0.03],
    [null, 0, null],
    [5, null, null],
  ])('scales %p by 10^%p to %p', (value, scaleFactor, result) => {
    expect(scaled(value, scaleFactor)).toBe(result);
  });

  it('unscales to the nearest step', () => {
    expect(unscaled(234.56, -1)).toBe(2346);
    expect(unscaled(12000, 3)).toBe(12);
  });
});
