import { Battery } from './battery';
import { Site } from './site';

const midnight = Date.parse('2026-06-21T00:00:00Z');

describe('plant battery', () => {
  it('a battery reaches its setpoint with a first-order lag and stops at its SoC limits', () => {
    const site = new Site({ seed: 1, start: midnight });
    const battery = site.add(
      new Battery({
        capacityWh: 1000,
        stateOfCharge: 50,
        maxChargePower: 2000,
        maxDischargePower: 2000,
        efficiency: 0.9,
        minStateOfCharge: 10,
        maxStateOfCharge: 90,
        powerResponseMs: 500,
      }),
    );
    battery.setpoint = 1000;
    site.step(0.5);
    expect(battery.activePower).toBeCloseTo(1000 * (1 - Math.exp(-1)), 6);
    site.advance(3600, 1);
    expect(battery.stateOfCharge).toBeCloseTo(10, 9);
    expect(battery.activePower).toBe(0);
    expect(battery.maxDischargePower).toBe(0);
    // 40% of 1000 Wh taken out at 90% efficiency gives 360 Wh.
    expect(battery.energyDischarged).toBeCloseTo(360, 6);
    battery.setpoint = -5000;
    site.step(0.1);
    expect(battery.activePower).toBeGreaterThanOrEqual(-2000);
    site.advance(7200, 1);
    expect(battery.stateOfCharge).toBeCloseTo(90, 9);
    expect(battery.activePower).toBe(0);
    expect(battery.maxChargePower).toBe(0);
  });

  it('tapers its power over the last 5 % of SoC before either limit, down to 5 % of its limit, then cuts it', () => {
    const site = new Site({ seed: 1, start: midnight });
    const battery = site.add(new Battery({ capacityWh: 20_000, stateOfCharge: 12.5, maxChargePower: 8000, maxDischargePower: 10_000, powerResponseMs: 0 }));
    expect(battery.maxDischargePower).toBe(10_000);
    battery.stateOfCharge = 7.5;
    // Half way through the 5 % band: 0.05 + 0.95 × 0.5 of 10 kW.
    expect(battery.maxDischargePower).toBeCloseTo(5_250, 9);
    expect(battery.maxChargePower).toBe(8000);
    battery.setpoint = 10_000;
    site.step(0.1);
    expect(battery.activePower).toBeCloseTo(5_250, 9);
    // Down to the limit: the last watts are 5 % of 10 kW, then nothing.
    site.advance(3_600, 0.1);
    expect(battery.stateOfCharge).toBeCloseTo(5, 9);
    expect(battery.activePower).toBe(0);
    battery.stateOfCharge = 94;
    expect(battery.maxChargePower).toBeCloseTo(8000 * (0.05 + 0.95 * 0.2), 9);
    // Without a taper band the battery gives its full power up to the limit.
    const blunt = new Battery({ capacityWh: 20_000, stateOfCharge: 5.01, maxChargePower: 8000, maxDischargePower: 10_000, taperStateOfCharge: 0 });
    expect(blunt.maxDischargePower).toBe(10_000);
  });
});
