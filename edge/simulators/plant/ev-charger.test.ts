import { EvCharger } from './ev-charger';
import { Site } from './site';

const midnight = Date.parse('2026-06-21T00:00:00Z');

describe('plant EV charger', () => {
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
});
