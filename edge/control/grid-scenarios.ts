/**
 * Simulated days for the afrrLimiter, zonbalansPowerLimiter, gridOperatorHedno and
 * realTimeInterface loops and for deliverFCR: the plant, the gateway's control path over it
 * (SimulatedGateway) and the cloud's schedule. Their closed-loop tests run them.
 */
import type { ScheduleItem } from '../../contracts/device/commands';
import { Battery, Load, SeededRandom, Site, SolarPlant } from '../simulators/plant';
import { SimulatedGateway, summerDay } from './simulated-gateway';
import { deviceConfig } from './test-support';

const hourMs = 3_600_000;

/** The site of the feed-in scenarios: a noisy 20 kW load with 5 kW loads switching twice an hour, and a 100 kW PV roof (1 s response). */
function feedInSite(seed: number): { site: Site; load: Load; solar: SolarPlant } {
  const site = new Site({ seed, start: summerDay });
  const load = site.add(new Load({ base: 20_000, noise: 2_000, noiseTimeConstantS: 5, peakPower: 5_000, peaksPerHour: 2, peakDurationS: [60, 600] }));
  const solar = site.add(new SolarPlant({ nominalPower: 100_000, powerResponseMs: 1_000 }));
  return { site, load, solar };
}

function item(startAt: number, endAt: number, command: ScheduleItem['command']): ScheduleItem {
  return { startAt: new Date(startAt).toISOString(), endAt: new Date(endAt).toISOString(), command };
}

/** HEDNO's feed-in limits by hour of the day, W (the cloud passes each on as a limitPower item on the loop). */
export const hednoLimitsW = [60_000, 45_000, 50_000, 40_000] as const;

export function hednoLimitAt(now: number): number {
  return hednoLimitsW[Math.floor((now - summerDay) / hourMs) % hednoLimitsW.length] ?? hednoLimitsW[0];
}

/**
 * gridOperatorHedno over a day: the feed-in site behind HEDNO's hourly limits (hednoLimitsW in
 * turn), the PV with a fallback of 30 % of its nominal power.
 */
export function hednoScenario(seed: number, hours = 24): { gateway: SimulatedGateway } {
  const { site, solar } = feedInSite(seed);
  const config = deviceConfig(
    [{ type: 'demo-meter' }, { type: 'demo-solar', nominalActivePower: 100_000, powerResponseMs: 1_000, fallbackLimit: { activePowerPercentage: 30 } }],
    [{ type: 'gridOperatorHedno', meterAssetIndex: 0, limitableAssetIndices: [1], gracePeriod: 30, routerRestartTimeout: 20 }],
  );
  const gateway = new SimulatedGateway(site, config, [site.meter, solar]);
  const items = Array.from({ length: hours }, (_v, hour) =>
    item(summerDay + hour * hourMs, summerDay + (hour + 1) * hourMs, { type: 'limitPower', feedIn: hednoLimitAt(summerDay + hour * hourMs), consume: null }),
  );
  gateway.schedule.setSchedule({ controlLoopIndex: 0 }, items);
  return { gateway };
}

/** zonbalansPowerLimiter over a day: the feed-in site with a mean feed-in limit of 30 kW per quarter hour. */
export function zonbalansScenario(seed: number): { gateway: SimulatedGateway; limitW: number } {
  const limitW = 30_000;
  const { site, solar } = feedInSite(seed);
  const config = deviceConfig(
    [{ type: 'demo-meter' }, { type: 'demo-solar', nominalActivePower: 100_000, powerResponseMs: 1_000 }],
    [{ type: 'zonbalansPowerLimiter', meterAssetIndex: 0, limitableAssetIndices: [1], contractualLimit: { feedIn: limitW } }],
  );
  return { gateway: new SimulatedGateway(site, config, [site.meter, solar]), limitW };
}

/** The aFRR deltas of the day, one per quarter hour, W: seeded, within ±40 kW. */
export function afrrDeltas(seed: number): number[] {
  const random = new SeededRandom(seed);
  return Array.from({ length: 96 }, () => Math.round((random.next() * 2 - 1) * 40) * 1_000);
}

/**
 * afrrLimiter over a day: a 50 kW / 200 kWh battery (0.5 s response) and a 50 kW PV roof (1 s
 * response, aFRR reference signal response 30 s) behind a meter with contractual limits of 40 kW
 * feed-in and 60 kW consumption, over the noisy 20 kW load; a new delta every quarter hour.
 */
export function afrrScenario(seed: number): { gateway: SimulatedGateway; battery: Battery; limits: { feedIn: number; consumption: number }; deltas: number[] } {
  const site = new Site({ seed, start: summerDay });
  site.add(new Load({ base: 20_000, noise: 2_000, noiseTimeConstantS: 5, peakPower: 5_000, peaksPerHour: 2, peakDurationS: [60, 600] }));
  const solar = site.add(new SolarPlant({ nominalPower: 50_000, powerResponseMs: 1_000 }));
  const battery = site.add(new Battery({ capacityWh: 200_000, stateOfCharge: 50, maxChargePower: 50_000, maxDischargePower: 50_000, powerResponseMs: 500 }));
  const limits = { feedIn: 40_000, consumption: 60_000 };
  const config = deviceConfig(
    [
      { type: 'demo-meter' },
      { type: 'demo-solar', nominalActivePower: 50_000, powerResponseMs: 1_000, afrrReferenceSignalResponseMs: 30_000 },
      { type: 'demo-battery', nominalActivePower: 50_000, powerResponseMs: 500 },
    ],
    [{ type: 'afrrLimiter', meterAssetIndex: 0, batteryAssetIndices: [2], limitableAssetIndices: [1], contractualLimit: limits }],
  );
  const gateway = new SimulatedGateway(site, config, [site.meter, solar, battery]);
  const deltas = afrrDeltas(seed);
  const quarter = hourMs / 4;
  gateway.schedule.setSchedule(
    { controlLoopIndex: 0 },
    deltas.map((deltaSetpoint, slot) => item(summerDay + slot * quarter, summerDay + (slot + 1) * quarter, { type: 'applyAfrrDeltaSetpoint', deltaSetpoint })),
  );
  return { gateway, battery, limits, deltas };
}

/** realTimeInterface over a day: the feed-in site; the grid operator's client writes its limits over Modbus on `port`. */
export function realTimeInterfaceScenario(seed: number, port: number): { gateway: SimulatedGateway } {
  const { site, solar } = feedInSite(seed);
  const config = deviceConfig(
    [{ type: 'demo-meter' }, { type: 'demo-solar', nominalActivePower: 100_000, powerResponseMs: 1_000 }],
    [{ type: 'realTimeInterface', meterAssetIndex: 0, assetIndices: [1], port, reportingInterval: 10 }],
  );
  return { gateway: new SimulatedGateway(site, config, [site.meter, solar]) };
}

/**
 * deliverFCR: a 50 kW / 200 kWh battery (0.5 s response) dispatched at 10 kW with deliverFCR for
 * the day; the grid frequency wanders around 50 Hz (seeded, 40 mHz deviation, 30 s correlation)
 * with a 49.8 Hz dip each hour. The test moves site.meter.frequency with `frequencyAt`.
 */
/** How long the hourly frequency dip of the FCR scenario lasts, ms. */
export const fcrDipMs = 20_000;

export function fcrScenario(
  seed: number,
  hours: number,
): { gateway: SimulatedGateway; battery: Battery; frequency: (dtSeconds: number, now: number) => number } {
  const site = new Site({ seed, start: summerDay });
  site.add(new Load({ base: 10_000, noise: 1_000, noiseTimeConstantS: 5 }));
  const battery = site.add(new Battery({ capacityWh: 200_000, stateOfCharge: 50, maxChargePower: 50_000, maxDischargePower: 50_000, powerResponseMs: 500 }));
  const config = deviceConfig(
    [{ type: 'demo-meter' }, { type: 'demo-battery', nominalActivePower: 50_000, powerResponseMs: 500, powerMeterAssetIndex: 0 }],
    [],
  );
  const gateway = new SimulatedGateway(site, config, [site.meter, battery]);
  gateway.schedule.setSchedule({ assetIndex: 1 }, [
    item(summerDay, summerDay + hours * hourMs, { type: 'setBatteryOperation', dispatchPower: 10_000, deliverFCR: true, chargeToState: null }),
  ]);
  const random = new SeededRandom(seed + 1);
  let wander = 0;
  let smoothed = 50;
  const frequency = (dtSeconds: number, now: number): number => {
    // An Ornstein-Uhlenbeck wander of 40 mHz deviation and 30 s correlation, and a dip to 49.8 Hz for the first 20 s of every
    // hour, through the grid's inertia (a 2 s lag: the frequency moves at a finite rate).
    const decay = Math.exp(-dtSeconds / 30);
    wander = wander * decay + 0.04 * Math.sqrt(1 - decay * decay) * random.normal();
    const dip = (now - summerDay) % hourMs < fcrDipMs ? -0.2 : 0;
    smoothed += (50 + wander + dip - smoothed) * (1 - Math.exp(-dtSeconds / 2));
    return smoothed;
  };
  return { gateway, battery, frequency };
}
