import { HeatStorage } from './heat-storage';
import { Site } from './site';

const midnight = Date.parse('2026-06-21T00:00:00Z');

describe('plant heat storage', () => {
  it('heat storage heats at its setpoint, stops when full, and runs its thermostat without one', () => {
    const site = new Site({ seed: 1, start: midnight });
    const heat = site.add(new HeatStorage({ heaterPower: 6000, capacityWh: 1000, stateOfCharge: 95, heatDemand: 0, powerResponseMs: 0 }));
    heat.setpoint = -3000;
    site.advance(65, 1);
    expect(heat.stateOfCharge).toBe(100);
    expect(heat.temperature).toBe(90);
    site.step(1);
    expect(heat.activePower).toBe(0);
    heat.setpoint = null;
    expect(heat.powerRange).toEqual({ min: -6000, max: 0 });
  });
});
