import { Battery, EvCharger, Generator, HeatStorage, Load, Relay, SeededRandom, Site, SolarPlant, Weather, WindTurbine } from './plant';

const midnight = Date.parse('2026-06-21T00:00:00Z');
const noonUtc = Date.parse('2026-06-21T12:00:00Z');

describe('plant', () => {
  it('the same seed gives the same day', () => {
    const run = (seed: number): number[] => {
      const site = new Site({ seed, start: midnight });
      site.add(new Load({ base: 2000, noise: 300, peakPower: 3000, peaksPerHour: 2 }));
      site.add(new SolarPlant({ nominalPower: 10_000 }));
      site.add(new EvCharger());
      const readings: number[] = [];
      for (let hour = 0; hour < 24; hour += 1) {
        site.advance(3600, 10);
        readings.push(site.meter.activePower);
      }
      return readings;
    };
    expect(run(3)).toEqual(run(3));
    expect(run(3)).not.toEqual(run(4));
  });

  it('the generator is uniform in [0, 1) and its normals have mean 0 and deviation 1', () => {
    const random = new SeededRandom(1);
    let sum = 0;
    let squares = 0;
    let outside = 0;
    const n = 100_000;
    for (let i = 0; i < n; i += 1) {
      const u = random.next();
      outside += u >= 0 && u < 1 ? 0 : 1;
      const z = random.normal();
      sum += z;
      squares += z * z;
    }
    expect(outside).toBe(0);
    expect(Math.abs(sum / n)).toBeLessThan(0.02);
    expect(Math.abs(Math.sqrt(squares / n) - 1)).toBeLessThan(0.02);
  });

  it('irradiance is 0 at night and follows the sun by day, dimmed by clouds only', () => {
    const weather = new Weather({ utcOffsetHours: 0, sunrise: 6, sunset: 18, peakIrradiance: 1000 });
    expect(weather.clearSky(midnight)).toBe(0);
    expect(weather.clearSky(noonUtc)).toBe(1000);
    expect(weather.clearSky(Date.parse('2026-06-21T09:00:00Z'))).toBeCloseTo(1000 * Math.sin(Math.PI / 4) ** 1.5, 9);
    const random = new SeededRandom(5);
    let dimmed = 0;
    let above = 0;
    for (let t = 0; t < 3600; t += 1) {
      weather.step(1, noonUtc + t * 1000, random);
      above += weather.irradiance > weather.clearSky(noonUtc + t * 1000) ? 1 : 0;
      dimmed += weather.irradiance < 0.95 * weather.clearSky(noonUtc + t * 1000) ? 1 : 0;
    }
    expect(above).toBe(0);
    // Four clouds an hour of 30-300 s each dim part of the hour, not all of it.
    expect(dimmed).toBeGreaterThan(0);
    expect(dimmed).toBeLessThan(3600);
  });

  it('the wind turbine follows its power curve: nothing below cut-in or from cut-out, nominal from rated', () => {
    const turbine = new WindTurbine({ nominalPower: 2_000_000, cutInSpeed: 3, ratedSpeed: 12, cutOutSpeed: 25 });
    expect(turbine.powerAt(2.9)).toBe(0);
    expect(turbine.powerAt(7.5)).toBeCloseTo((2_000_000 * (7.5 ** 3 - 27)) / (1728 - 27), 6);
    expect(turbine.powerAt(12)).toBe(2_000_000);
    expect(turbine.powerAt(24.9)).toBe(2_000_000);
    expect(turbine.powerAt(25)).toBe(0);
  });

  it('a solar limit holds production at the limit, never above what the sun gives', () => {
    const site = new Site({ seed: 1, start: noonUtc, weather: { cloudsPerHour: 0 } });
    const solar = site.add(new SolarPlant({ nominalPower: 10_000, powerResponseMs: 1000 }));
    site.advance(30, 0.1);
    expect(solar.activePower).toBeCloseTo(solar.availablePower, 3);
    solar.setpoint = 3000;
    site.advance(1, 0.1);
    // One time constant: 63% of the way.
    expect(solar.activePower).toBeCloseTo(3000 + (solar.availablePower - 3000) * Math.exp(-1), 0);
    site.advance(20, 0.1);
    expect(solar.activePower).toBeCloseTo(3000, 3);
  });

  it('a battery reaches its setpoint with a first-order lag and stops at its SoC limits', () => {
    const site = new Site({ seed: 1, start: midnight });
    const battery = site.add(new Battery({ capacityWh: 1000, stateOfCharge: 50, maxChargePower: 2000, maxDischargePower: 2000, efficiency: 0.9, minStateOfCharge: 10, maxStateOfCharge: 90, powerResponseMs: 500 }));
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

  it('an EV charger never draws more than its limit, shared fairly between vehicles', () => {
    const site = new Site({ seed: 1, start: midnight });
    const ev = site.add(new EvCharger({ pointCount: 4, arrivalsPerHour: 0, powerResponseMs: 1000 }));
    ev.arrive(0, { energyWanted: 50_000, phases: 1, vehicleCurrent: 16 }, site.now);
    ev.arrive(1, { energyWanted: 50_000, phases: 3, vehicleCurrent: 32 }, site.now);
    ev.arrive(2, { energyWanted: 50_000, phases: 3, vehicleCurrent: 32 }, site.now);
    ev.setpoint = -30_000;
    let mostDrawn = 0;
    for (let i = 0; i < 600; i += 1) {
      site.step(0.1);
      mostDrawn = Math.max(mostDrawn, -ev.activePower);
    }
    expect(mostDrawn).toBeLessThanOrEqual(30_000 + 1e-6);
    // The single-phase car takes its 3,680 W; the others share the rest.
    expect(ev.points[0]?.power).toBeCloseTo(3680, 3);
    expect(ev.points[1]?.power).toBeCloseTo((30_000 - 3680) / 2, 3);
    // L1 carries the single-phase car and a third of the others.
    expect(ev.phaseCurrent[0]).toBeCloseTo((3680 + (30_000 - 3680) / 3) / 230, 6);
    expect(ev.phaseCurrent[1]).toBeCloseTo((30_000 - 3680) / 3 / 230, 6);
    ev.setpoint = -5000;
    site.step(0.1);
    expect(ev.activePower).toBeCloseTo(-5000, 6);
    expect(ev.points[3]?.status).toBe('available');
  });

  it('an EV session ends when the vehicle has its energy and the vehicle leaves at its time', () => {
    const site = new Site({ seed: 1, start: midnight });
    const ev = site.add(new EvCharger({ pointCount: 1, arrivalsPerHour: 0, powerResponseMs: 0 }));
    ev.arrive(0, { energyWanted: 1000, phases: 3, vehicleCurrent: 16, stayHours: 1 }, site.now);
    site.advance(600, 1);
    expect(ev.points[0]?.status).toBe('suspendedEv');
    expect(ev.points[0]?.sessionEnergy).toBeCloseTo(1000, -1);
    expect(ev.activePower).toBe(0);
    site.advance(3000, 1);
    expect(ev.points[0]?.status).toBe('available');
  });

  it('vehicles arrive at random and charge without a limit', () => {
    const site = new Site({ seed: 2, start: midnight });
    const ev = site.add(new EvCharger({ pointCount: 8, arrivalsPerHour: 1 }));
    site.advance(3600, 1);
    expect(ev.points.some((point) => point.connected)).toBe(true);
    expect(ev.activePower).toBeLessThan(0);
  });

  it('a generator starts after its delay and keeps running for its minimum runtime', () => {
    const site = new Site({ seed: 1, start: midnight });
    const generator = site.add(new Generator({ nominalPower: 10_000, minimumRuntimeS: 600, startDelayS: 10, powerResponseMs: 0 }));
    generator.command(true, site.now);
    site.advance(9, 1);
    expect(generator.status).toBe('standby');
    site.advance(1, 1);
    expect(generator.status).toBe('running');
    expect(generator.activePower).toBe(10_000);
    generator.command(false, site.now);
    site.advance(300, 1);
    expect(generator.status).toBe('running');
    site.advance(300, 1);
    expect(generator.status).toBe('standby');
    expect(generator.activePower).toBe(0);
    expect(generator.runningHours).toBeCloseTo(600 / 3600, 9);
  });

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

  it('the meter balances: load + relays + EV + heat - production - discharge, import positive, energy counted both ways', () => {
    const site = new Site({ seed: 9, start: noonUtc });
    const load = site.add(new Load({ base: 3000, noise: 500 }));
    const solar = site.add(new SolarPlant({ nominalPower: 8000 }));
    const battery = site.add(new Battery({ capacityWh: 10_000, maxChargePower: 3000, maxDischargePower: 3000 }));
    const ev = site.add(new EvCharger({ pointCount: 2, arrivalsPerHour: 0 }));
    const relay = site.add(new Relay({ channels: 1, channelLoads: [700], initial: ['on'] }));
    const heat = site.add(new HeatStorage({ heaterPower: 2000, capacityWh: 20_000, stateOfCharge: 10 }));
    ev.arrive(0, { energyWanted: 20_000, phases: 1, vehicleCurrent: 16 }, site.now);
    battery.setpoint = -2000;
    let imported = 0;
    let exported = 0;
    let worstImbalance = 0;
    for (let i = 0; i < 3000; i += 1) {
      site.step(0.1);
      const expected = load.consumption - relay.activePower - ev.activePower - heat.activePower - solar.activePower - battery.activePower;
      worstImbalance = Math.max(worstImbalance, Math.abs(site.meter.activePower - expected));
      const wh = (site.meter.activePower * 0.1) / 3600;
      imported += Math.max(0, wh);
      exported += Math.max(0, -wh);
    }
    expect(worstImbalance).toBeLessThan(1e-6);
    expect(relay.activePower).toBe(-700);
    expect(site.meter.energyImport).toBeCloseTo(imported, 6);
    expect(site.meter.energyExport).toBeCloseTo(exported, 6);
    // The single-phase car loads L1 more than the others.
    expect(site.meter.phasePowers[0] - site.meter.phasePowers[1]).toBeCloseTo(-ev.activePower, 6);
  });

  it('a noisy load keeps its deviation whatever the step and has its peaks', () => {
    const deviation = (dt: number, hours: number): number => {
      const site = new Site({ seed: 11, start: midnight });
      const load = site.add(new Load({ base: 2000, noise: 200, noiseTimeConstantS: 5 }));
      let squares = 0;
      const n = Math.round((hours * 3600) / dt);
      for (let i = 0; i < n; i += 1) {
        site.step(dt);
        squares += (load.consumption - 2000) ** 2;
      }
      return Math.sqrt(squares / n);
    };
    expect(Math.abs(deviation(0.1, 2) - 200)).toBeLessThan(25);
    expect(Math.abs(deviation(1, 10) - 200)).toBeLessThan(25);
    const site = new Site({ seed: 11, start: midnight });
    const load = site.add(new Load({ base: 2000, peakPower: 3000, peaksPerHour: 6 }));
    let peakSeconds = 0;
    let wrong = 0;
    for (let i = 0; i < 3600; i += 1) {
      site.step(1);
      peakSeconds += load.peakActive ? 1 : 0;
      wrong += load.consumption === (load.peakActive ? 5000 : 2000) ? 0 : 1;
    }
    expect(wrong).toBe(0);
    expect(peakSeconds).toBeGreaterThan(0);
    expect(peakSeconds).toBeLessThan(3600);
  });
});
