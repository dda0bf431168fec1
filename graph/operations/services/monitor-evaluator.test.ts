import { straysFromSetpoint } from './monitor-evaluator';

describe('an asset and its power setpoint (asset.powerUnresponsive)', () => {
  const tolerance = 100;

  it('caps producers: only producing more than the setpoint fails it', () => {
    expect(straysFromSetpoint('solar', 40_000, 50_000, tolerance)).toBe(false);
    expect(straysFromSetpoint('wind', 50_050, 50_000, tolerance)).toBe(false);
    expect(straysFromSetpoint('generator', 50_200, 50_000, tolerance)).toBe(true);
  });

  it('caps consumers in their sign: an EV charger drawing less than it may follows its setpoint, drawing more does not', () => {
    expect(straysFromSetpoint('ev', -3_000, -11_000, tolerance)).toBe(false);
    expect(straysFromSetpoint('ev', 0, -11_000, tolerance)).toBe(false);
    expect(straysFromSetpoint('ev', -12_000, -11_000, tolerance)).toBe(true);
    expect(straysFromSetpoint('heat', -6_000, -5_000, tolerance)).toBe(true);
  });

  it('holds a battery to its target either way', () => {
    expect(straysFromSetpoint('battery', -1_000, -5_000, tolerance)).toBe(true);
    expect(straysFromSetpoint('battery', -9_000, -5_000, tolerance)).toBe(true);
    expect(straysFromSetpoint('battery', -5_050, -5_000, tolerance)).toBe(false);
  });
});
