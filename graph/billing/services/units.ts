// A device's billable units (docs/billing.md, "Units"): counted from its config and its record.
// No database here: whether a continuous-support contact watches the device is found by the
// ledger (billing-ledger.ts) and handed in.
import type { BillingUnits } from '../../../contracts/billing';
import { categoryOfType, type AssetCategory } from '../../../contracts/device/asset-types';
import type { ControlLoopType } from '../../../contracts/device/control-loops';
import type { RateKey } from '../../../contracts/pricing';

/** The rate key of each asset category; misc (test) assets count nothing. */
const assetCategoryKeys: Record<AssetCategory, RateKey | null> = {
  solar: 'asset.solar',
  wind: 'asset.wind',
  battery: 'asset.battery',
  // Heat storage is priced as storage.
  heat: 'asset.battery',
  irradianceSensor: 'asset.environmentalSensor',
  windSensor: 'asset.environmentalSensor',
  temperatureSensor: 'asset.environmentalSensor',
  meter: 'asset.meter',
  ev: null,
  generator: 'asset.generator',
  relay: 'asset.relay',
  misc: null,
};

/** EV chargers by current: the AC types and the DC types (docs/billing.md). */
export const acChargerTypes = ['demo-ev', 'abl', 'alfen-ev-ng9xx', 'phoenix-contact-charx', 'ev-group', 'vd-sijs', 'flexecharge', 'peblar'] as const;
export const dcChargerTypes = ['alpitronic', 'siemens-sicharger', 'kempower'] as const;
const acSet: ReadonlySet<string> = new Set(acChargerTypes);
const dcSet: ReadonlySet<string> = new Set(dcChargerTypes);

/** The rate key of each control loop type. */
export const controlLoopKeys: Record<ControlLoopType, RateKey> = {
  powerLimiter: 'control.dso.a',
  proportionalPeakShaver: 'control.dso.a',
  batteryPeakShaver: 'control.dso.a',
  currentLimiter: 'control.dso.b',
  batteryCurrentLimiter: 'control.dso.b',
  apparentPowerLimiter: 'control.dso.b',
  afrrLimiter: 'control.afrr',
  gridOperatorHedno: 'control.tso',
  optimizer: 'control.optimizer',
  batteryPowerLimiter: 'control.gridguard.a.simple',
  temperaturePowerLimiter: 'control.gridguard.a.simple',
  generatorBatteryCharger: 'control.gridguard.a.simple',
  cascadeBatteryPowerLimiter: 'control.gridguard.a.complex',
  batteryPowerReservationLimiter: 'control.gridguard.a.complex',
  powerReservationLimiter: 'control.gridguard.a.complex',
  realTimeInterface: 'control.gridguard.b',
  modbusServer: 'control.gridguard.b',
  zonbalansPowerLimiter: 'control.gridguard.c',
};

/** Below this reporting interval (seconds) a device reports frequently. */
export const frequentReportingBelowSeconds = 60;

/** The rate key of one asset, or null when it counts nothing. */
export function assetRateKey(type: string): RateKey | null {
  const category = categoryOfType(type);
  if (category === undefined) {
    return null;
  }
  if (category === 'ev') {
    return acSet.has(type) ? 'asset.ev.ac' : dcSet.has(type) ? 'asset.ev.dc' : null;
  }
  return assetCategoryKeys[category];
}

/** What of a device the units are counted from. */
export interface UnitSource {
  config: Record<string, unknown> | null;
  iccid: string | null;
  /** A contact with the role continuous.support among the device's outage contacts (docs/billing.md). */
  continuousSupport: boolean;
}

function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null) : [];
}

/** A device's units by rate key; keys without units are absent. */
export function unitsOf({ config, iccid, continuousSupport }: UnitSource): BillingUnits {
  const units: BillingUnits = {};
  const add = (key: RateKey | null) => {
    if (key !== null) {
      units[key] = (units[key] ?? 0) + 1;
    }
  };
  if (config) {
    const assets = listOf(config.assets);
    for (const asset of assets) {
      add(typeof asset.type === 'string' ? assetRateKey(asset.type) : null);
    }
    for (const loop of listOf(config.activeControl)) {
      add(typeof loop.type === 'string' ? (controlLoopKeys[loop.type as ControlLoopType] ?? null) : null);
    }
    if (assets.some((asset) => typeof asset.enableFlashReport === 'object' && asset.enableFlashReport !== null)) {
      add('reporting.flash');
    }
    const interval = config.reportingIntervalInSec;
    if (typeof interval === 'number' && interval < frequentReportingBelowSeconds) {
      add('reporting.frequent');
    }
  }
  if (continuousSupport) {
    add('support.continuous');
  }
  if (iccid !== null && iccid.trim() !== '') {
    add('cellular');
  }
  return units;
}

/** How many units in all. */
export function unitTotal(units: BillingUnits): number {
  return Object.values(units).reduce((sum, count) => sum + (count ?? 0), 0);
}

/** The units of `after` above `before`, key by key (what a change adds); keys without any are absent. */
export function unitsAbove(after: BillingUnits, before: BillingUnits): BillingUnits {
  const added: BillingUnits = {};
  for (const [key, count] of Object.entries(after) as [RateKey, number][]) {
    const more = count - (before[key] ?? 0);
    if (more > 0) {
      added[key] = more;
    }
  }
  return added;
}

/** The most of each key in either: what a period has been charged for after a change. */
export function unitsMax(a: BillingUnits, b: BillingUnits): BillingUnits {
  const most: BillingUnits = { ...a };
  for (const [key, count] of Object.entries(b) as [RateKey, number][]) {
    most[key] = Math.max(most[key] ?? 0, count);
  }
  return most;
}
