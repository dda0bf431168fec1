import { formatPower } from './power';

describe('formatPower', () => {
  it.each([
    [0, '0 W'],
    [-0, '0 W'],
    [0.5, '0.5 W'],
    [1, '1 W'],
    [12.345, '12.3 W'],
    [999, '999 W'],
    [999.4, '999 W'],
    [999.6, '1 kW'],
    [1000, '1 kW'],
    [1234, '1.23 kW'],
    [12_345, '12.3 kW'],
    [123_456, '123 kW'],
    [999_500, '1 MW'],
    [1_500_000, '1.5 MW'],
    [5_000_000, '5 MW'],
    [2_345_678_901, '2.35 GW'],
    [7_000_000_000_000, '7 TW'],
    [1_234_000_000_000_000, '1230 TW'],
    [-1500, '-1.5 kW'],
    [-999_600, '-1 MW'],
    [Number.NaN, '—'],
    [Number.POSITIVE_INFINITY, '—'],
  ])('%p W reads %p', (watts, expected) => {
    expect(formatPower(watts)).toBe(expected);
  });

  it.each([
    [1234.5678, '1.235 kW'],
    [999.6, '999.6 W'],
    [12_345_678, '12.346 MW'],
  ])('without rounding %p W reads %p', (watts, expected) => {
    expect(formatPower(watts, { round: false })).toBe(expected);
  });
});
