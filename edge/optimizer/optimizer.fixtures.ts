/**
 * Sites for the optimizer's tests and benchmark: device configs parsed with the contracts' schema
 * (so every default the agent would see is there) and asset states as drivers report them.
 */
import { parseDeviceConfig, type DeviceConfig } from '../../contracts/device/config';
import type { AssetState } from '../drivers/driver';
import type { OptimizerConfig, OptimizerSite } from './optimizer.model';

const noLink = { type: 'none' } as const;

/** Asset configs of the demo types, with what the optimizer reads. */
export const demoAssets = {
  meter: (): Record<string, unknown> => ({ type: 'demo-meter', communication: noLink }),
  solar: (nominalActivePower: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    type: 'demo-solar',
    communication: noLink,
    nominalActivePower,
    ...extra,
  }),
  battery: (nominalActivePower: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    type: 'demo-battery',
    communication: noLink,
    nominalActivePower,
    ...extra,
  }),
  ev: (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: 'demo-ev', communication: noLink, ...extra }),
};

/** Asset states as a driver reports them, W. */
export const states = {
  meter: (activePower: number, at = 0): AssetState => ({ readable: true, at, activePower }),
  solar: (availablePower: number, activePower = availablePower, at = 0): AssetState => ({
    readable: true,
    at,
    activePower,
    availablePower,
    controllableRange: { min: 0, max: availablePower },
  }),
  battery: (maxCharge: number, maxDischarge: number, activePower = 0, stateOfCharge = 50, at = 0): AssetState => ({
    readable: true,
    at,
    activePower,
    stateOfCharge,
    controllableRange: { min: -maxCharge, max: maxDischarge },
  }),
  ev: (maxCharge: number, activePower = -maxCharge, at = 0): AssetState => ({
    readable: true,
    at,
    activePower,
    controllableRange: { min: -maxCharge, max: 0 },
  }),
  unreadable: (at = 0): AssetState => ({ readable: false, at }),
};

/** A device config with these assets and one optimizer loop (the loop's fields as given, defaults filled in). */
export function optimizerSite(assets: Record<string, unknown>[], loop: Record<string, unknown>): { device: DeviceConfig; loop: OptimizerConfig } {
  const device = parseDeviceConfig({ network: {}, reportingIntervalInSec: 60, assets, activeControl: [{ type: 'optimizer', ...loop }] });
  const parsed = device.activeControl[0];
  if (parsed === undefined || parsed.type !== 'optimizer') {
    throw new TypeError('the optimizer loop did not parse');
  }
  return { device, loop: parsed };
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so a synthetic site is the same every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The time the fixtures' sites are solved at: 2026-11-22 12:00 UTC. */
export const fixtureNow = Date.UTC(2026, 10, 22, 12);

export interface SyntheticSite {
  device: DeviceConfig;
  loop: OptimizerConfig;
  states: AssetState[];
  /** What the optimizer is given at one step. */
  input: OptimizerSite;
  /** Controllable assets (the size of the site). */
  controllable: number;
  nodes: number;
}

/**
 * A site of `controllableCount` controllable assets (a multiple of 10): feeders of ten (5 solar of
 * 15 kW (6 to 14 kW available), 3 batteries of 5 kW, 2 EV chargers of 11 kW), each with a feed-in limit of 10 kW; every
 * other feeder measured by a net sub-meter, the rest by an individual meter of its household load;
 * ten feeders to an area (an intermediate node with a consumption limit) once there are more than
 * ten; the root measured by a net grid meter with a feed-in limit of 500 W per controllable asset
 * and a consumption limit of 2 kW per asset. Production, charging and loads vary by feeder.
 */
export function syntheticSite(controllableCount: number, solverOptions: Record<string, unknown> = {}, seed = 7): SyntheticSite {
  const next = random(seed);
  const assets: Record<string, unknown>[] = [demoAssets.meter()];
  const assetStates: AssetState[] = [];
  const feederCount = Math.max(1, Math.round(controllableCount / 10));
  const feeders: Record<string, unknown>[] = [];
  let gridFlow = 0;
  for (let feeder = 0; feeder < feederCount; feeder += 1) {
    const controllable: number[] = [];
    let feederFlow = 0;
    for (let solar = 0; solar < 5; solar += 1) {
      const available = Math.round(6000 + 8000 * next());
      controllable.push(assets.length);
      assets.push(demoAssets.solar(15000, { fallbackLimit: { activePowerPercentage: 50 } }));
      assetStates[controllable[controllable.length - 1] ?? 0] = states.solar(available);
      feederFlow -= available;
    }
    for (let battery = 0; battery < 3; battery += 1) {
      controllable.push(assets.length);
      assets.push(demoAssets.battery(5000, { fallbackSetpoint: 0 }));
      assetStates[controllable[controllable.length - 1] ?? 0] = states.battery(5000, 5000, 0, Math.round(100 * next()));
    }
    for (let ev = 0; ev < 2; ev += 1) {
      const charging = Math.round(11000 * next());
      controllable.push(assets.length);
      assets.push(demoAssets.ev({ fallbackLimit: { activePower: -3700 } }));
      assetStates[controllable[controllable.length - 1] ?? 0] = states.ev(11000, -charging);
      feederFlow += charging;
    }
    const load = Math.round(2000 + 8000 * next());
    feederFlow += load;
    const meterIndex = assets.length;
    assets.push(demoAssets.meter());
    const net = feeder % 2 === 0;
    assetStates[meterIndex] = states.meter(net ? feederFlow : load);
    gridFlow += feederFlow;
    feeders.push({
      name: `feeder-${feeder + 1}`,
      constraint: { consumption: null, feedIn: 10000 },
      assets: { controllable, powerMeterable: [{ assetIndex: meterIndex, meter: net ? 'net' : 'individual' }] },
    });
  }
  assetStates[0] = states.meter(gridFlow);
  const children =
    feederCount <= 10
      ? feeders
      : Array.from({ length: Math.ceil(feederCount / 10) }, (_, area) => {
          const members = feeders.slice(area * 10, area * 10 + 10);
          return { name: `area-${area + 1}`, constraint: { consumption: members.length * 10 * 1500, feedIn: null }, children: members };
        });
  const topology = {
    name: 'site',
    constraint: { consumption: controllableCount * 2000, feedIn: controllableCount * 500 },
    assets: { controllable: [], powerMeterable: [{ assetIndex: 0, meter: 'net' }] },
    children,
  };
  const { device, loop } = optimizerSite(assets, { topology, solverOptions, basePower: 100000 });
  const nodes = 1 + feeders.length + (feederCount <= 10 ? 0 : children.length);
  return { device, loop, states: assetStates, input: { now: fixtureNow, assets: device.assets, states: assetStates }, controllable: feederCount * 10, nodes };
}
