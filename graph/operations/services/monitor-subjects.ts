import { categoryOfType } from '../../../contracts/device/asset-types';
import { controlLoopDefaults } from '../../../contracts/device/control-loops';
import { assetAlarmCategories, monitorKinds, type MonitorKind } from '../../../contracts/monitors';

/** An asset of a config as the monitors name it: its identifier, else `asset <index>`. */
export interface MonitoredAsset {
  identifier: string;
  category: string | undefined;
}

/** A control loop of a config as the monitors name it: its identifier, else `control loop <index>`. */
export interface MonitoredLoop {
  identifier: string;
  type: string | undefined;
  /** Its step (controlLoopSleep) in ms: an iteration longer than that is slow. */
  stepMs: number;
}

export interface MonitorSubjects {
  assets: MonitoredAsset[];
  loops: MonitoredLoop[];
}

/** The assets and loops of a device's saved config, named as its alarms name them (the evaluator and the alarms share this). */
export function monitorSubjectsOf(config: unknown): MonitorSubjects {
  const value = (typeof config === 'object' && config !== null ? config : {}) as { assets?: unknown; activeControl?: unknown };
  const assets = Array.isArray(value.assets) ? (value.assets as { identifier?: unknown; type?: unknown }[]) : [];
  const loops = Array.isArray(value.activeControl) ? (value.activeControl as { identifier?: unknown; type?: unknown; controlLoopSleep?: unknown }[]) : [];
  return {
    assets: assets.map((asset, index) => ({
      identifier: typeof asset?.identifier === 'string' ? asset.identifier : `asset ${index}`,
      category: typeof asset?.type === 'string' ? categoryOfType(asset.type) : undefined,
    })),
    loops: loops.map((loop, index) => ({
      identifier: typeof loop?.identifier === 'string' ? loop.identifier : `control loop ${index}`,
      type: typeof loop?.type === 'string' ? loop.type : undefined,
      stepMs: typeof loop?.controlLoopSleep === 'number' ? loop.controlLoopSleep * 1000 : controlLoopDefaults.controlLoopSleep * 1000,
    })),
  };
}

/** Groups of loop kinds that only one loop type raises. */
const loopTypeOfGroup: Partial<Record<string, string>> = { batteryPeakShaver: 'batteryPeakShaver', temperaturePowerLimiter: 'temperaturePowerLimiter' };

/**
 * Whether an alarm of `monitor` on `assetIdentifier` still has a subject in a config: an asset
 * kind needs an asset of that name (of the kind's category for `<category>.alarm` and
 * `<category>.metadataMismatch`); a loop kind a loop of that name (of the kind's type for
 * `batteryPeakShaver.*` and `temperaturePowerLimiter.*`), or any such loop when the alarm names
 * none. Device kinds always apply.
 */
export function alarmApplies(monitor: MonitorKind, assetIdentifier: string | null, subjects: MonitorSubjects): boolean {
  const { subject, group } = monitorKinds[monitor];
  if (subject === 'device') {
    return true;
  }
  if (subject === 'asset') {
    const assets = subjects.assets.filter((asset) => assetIdentifier === null || asset.identifier === assetIdentifier);
    if ((assetAlarmCategories as readonly string[]).includes(group)) {
      return assets.some((asset) => asset.category === group);
    }
    return assets.length > 0;
  }
  const type = loopTypeOfGroup[group];
  return subjects.loops.some((loop) => (assetIdentifier === null || loop.identifier === assetIdentifier) && (type === undefined || loop.type === type));
}
