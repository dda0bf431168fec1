import { WindTurbine } from './wind';

describe('plant wind turbine', () => {
  it('the wind turbine follows its power curve: nothing below cut-in or from cut-out, nominal from rated', () => {
    const turbine = new WindTurbine({ nominalPower: 2_000_000, cutInSpeed: 3, ratedSpeed: 12, cutOutSpeed: 25 });
    expect(turbine.powerAt(2.9)).toBe(0);
    expect(turbine.powerAt(7.5)).toBeCloseTo((2_000_000 * (7.5 ** 3 - 27)) / (1728 - 27), 6);
    expect(turbine.powerAt(12)).toBe(2_000_000);
    expect(turbine.powerAt(24.9)).toBe(2_000_000);
    expect(turbine.powerAt(25)).toBe(0);
  });
});
