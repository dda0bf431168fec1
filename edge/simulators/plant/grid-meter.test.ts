import { Battery } from './battery';
import { EvCharger } from './ev-charger';
import { HeatStorage } from './heat-storage';
import { Load } from './load';
import { Relay } from './relay';
import { Site } from './site';
import { SolarPlant } from './solar';

const noonUtc = Date.parse('2026-06-21T12:00:00Z');

describe('plant grid meter', () => {
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
});
