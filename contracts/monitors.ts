/**
 * Monitors and alarm kinds (device-model.md section 3.11; spec README "Operations"). A monitor
 * kind is the name of the alarms it raises ("Monitor kinds in section 3.11 are the alarm names").
 * Where the spec does not name a kind ("names not shown"), the names here are ours; they are
 * listed in docs/operations.md, "Monitors and alarms".
 */
import type { MonitorSettings } from './fleet';

/** The groups of monitor kinds (device-model.md 3.11). */
export const monitorGroups = [
  'device',
  'asset',
  'battery',
  'ev',
  'meter',
  'wind',
  'solar',
  'generator',
  'environmentalSensor',
  'temperaturePowerLimiter',
  'batteryPeakShaver',
  'activeControl',
  'destination',
] as const;
export type MonitorGroup = (typeof monitorGroups)[number];

/**
 * What a kind watches: the device (no asset), one asset, one control loop (the alarm names the
 * loop in its asset identifier), or a message destination (forwarding; no device).
 */
type Subject = 'device' | 'asset' | 'controller' | 'destination';

interface KindDefinition {
  group: MonitorGroup;
  subject: Subject;
  /** The issue title when an alarm of this kind opens one (console.md: 1 to 256 characters). */
  title: string;
}

/** Asset categories with an alarm kind and a metadata kind of their own (3.11: "names not shown"). */
export const assetAlarmCategories = ['battery', 'ev', 'meter', 'wind', 'solar', 'generator'] as const;
export type AssetAlarmCategory = (typeof assetAlarmCategories)[number];

/** Every monitor kind with its group, what it watches and the title of the issue it opens. */
export const monitorKinds = {
  'device.disconnect.duration': { group: 'device', subject: 'device', title: 'Device offline' },
  'device.disconnect.frequency.ethernet': { group: 'device', subject: 'device', title: 'Device often disconnects (ethernet)' },
  'device.disconnect.frequency.cellular': { group: 'device', subject: 'device', title: 'Device often disconnects (cellular)' },
  'device.cloud.connectivity': { group: 'device', subject: 'device', title: 'Device often unreachable from the cloud' },
  'device.cloud.cellular': { group: 'device', subject: 'device', title: 'Device connected over cellular' },
  'device.restart': { group: 'device', subject: 'device', title: 'Device restarts often' },
  'device.localConfigWriteFrequency': { group: 'device', subject: 'device', title: 'Device config often changed on site' },
  'device.failedToInitializeActiveControl': { group: 'device', subject: 'device', title: 'Active control failed to start' },
  'asset.connectivity': { group: 'asset', subject: 'asset', title: 'Asset unreachable' },
  'asset.powerUnresponsive': { group: 'asset', subject: 'asset', title: 'Asset does not follow its power setpoint' },
  'asset.setpointUnresponsive': { group: 'asset', subject: 'asset', title: 'Asset does not confirm its setpoint' },
  'battery.alarm': { group: 'battery', subject: 'asset', title: 'Battery reports an alarm' },
  'battery.metadataMismatch': { group: 'battery', subject: 'asset', title: 'Battery is not the configured one' },
  'ev.alarm': { group: 'ev', subject: 'asset', title: 'EV charger reports an alarm' },
  'ev.metadataMismatch': { group: 'ev', subject: 'asset', title: 'EV charger is not the configured one' },
  'meter.alarm': { group: 'meter', subject: 'asset', title: 'Meter reports an alarm' },
  'meter.metadataMismatch': { group: 'meter', subject: 'asset', title: 'Meter is not the configured one' },
  'wind.alarm': { group: 'wind', subject: 'asset', title: 'Wind turbine reports an alarm' },
  'wind.metadataMismatch': { group: 'wind', subject: 'asset', title: 'Wind turbine is not the configured one' },
  'solar.alarm': { group: 'solar', subject: 'asset', title: 'Solar inverter reports an alarm' },
  'solar.metadataMismatch': { group: 'solar', subject: 'asset', title: 'Solar inverter is not the configured one' },
  'generator.alarm': { group: 'generator', subject: 'asset', title: 'Generator reports an alarm' },
  'generator.metadataMismatch': { group: 'generator', subject: 'asset', title: 'Generator is not the configured one' },
  'environmentalSensor.constantTooLong': { group: 'environmentalSensor', subject: 'asset', title: 'Sensor value constant too long' },
  'temperaturePowerLimiter.fallback': { group: 'temperaturePowerLimiter', subject: 'controller', title: 'Temperature power limiter in fallback' },
  'batteryPeakShaver.stateOfChargeLow': { group: 'batteryPeakShaver', subject: 'controller', title: 'Peak shaver battery state of charge low' },
  'batteryPeakShaver.stateOfChargeHigh': { group: 'batteryPeakShaver', subject: 'controller', title: 'Peak shaver battery state of charge high' },
  'activeControl.slowControlLoop': { group: 'activeControl', subject: 'controller', title: 'Control loop too slow' },
  'activeControl.meterTooOftenUnreadable': { group: 'activeControl', subject: 'controller', title: 'Control loop meter too often unreadable' },
  'activeControl.sensorTooOftenUnreadable': { group: 'activeControl', subject: 'controller', title: 'Control loop sensor too often unreadable' },
  'activeControl.assetsTooOftenUnlimitable': { group: 'activeControl', subject: 'controller', title: 'Assets too often unlimitable' },
  'activeControl.assetsTooOftenUncontrollable': { group: 'activeControl', subject: 'controller', title: 'Assets too often uncontrollable' },
  'activeControl.powerFeedInTooHigh.contractual': { group: 'activeControl', subject: 'controller', title: 'Feed-in above the contractual limit' },
  'activeControl.powerFeedInTooHigh.physical': { group: 'activeControl', subject: 'controller', title: 'Feed-in above the physical limit' },
  'activeControl.powerConsumptionTooHigh.contractual': { group: 'activeControl', subject: 'controller', title: 'Consumption above the contractual limit' },
  'activeControl.powerConsumptionTooHigh.physical': { group: 'activeControl', subject: 'controller', title: 'Consumption above the physical limit' },
  'activeControl.currentFeedInTooHigh.contractual': { group: 'activeControl', subject: 'controller', title: 'Feed-in current above the limit' },
  'activeControl.currentConsumptionTooHigh.contractual': { group: 'activeControl', subject: 'controller', title: 'Consumption current above the limit' },
  'activeControl.modbusServerHeartbeatLost': { group: 'activeControl', subject: 'controller', title: 'Modbus server heartbeat lost' },
  'activeControl.afrrDeltaNotAllocated': { group: 'activeControl', subject: 'controller', title: 'aFRR delta not allocated' },
  /** gridOperatorHedno (docs/control-loops.md): no limit from the grid operator for routerRestartTimeout, and for the grace period. */
  'activeControl.gridOperatorRouterRestartHint': {
    group: 'activeControl',
    subject: 'controller',
    title: "Grid operator silent: restart the operator's router",
  },
  'activeControl.gridOperatorLost': { group: 'activeControl', subject: 'controller', title: 'Grid operator lost: assets at their fallback' },
  'activeControl.optimizerUnsolvable': { group: 'activeControl', subject: 'controller', title: 'Optimizer cannot solve' },
  /** Forwarding (docs/forwarding.md, "Monitoring"): the destination failed long enough to be paused. */
  'destination.paused': { group: 'destination', subject: 'destination', title: 'Message destination paused' },
  /** The destination's lag passed its monitorSettings.maxLagSeconds. */
  'destination.lag': { group: 'destination', subject: 'destination', title: 'Message destination lagging' },
} as const satisfies Record<string, KindDefinition>;

export type MonitorKind = keyof typeof monitorKinds;

/** The kinds a message destination's monitor raises. */
export type DestinationMonitorKind = 'destination.paused' | 'destination.lag';

export function isMonitorKind(value: string): value is MonitorKind {
  return Object.prototype.hasOwnProperty.call(monitorKinds, value);
}

/** The title of the issue an alarm of `kind` opens. */
export function issueTitleOf(kind: MonitorKind): string {
  return monitorKinds[kind].title;
}

/** Kinds the cloud evaluates from the values of reports and connection events (the others arrive as the agent's `alarm` reports). */
export const evaluatedFromValues: readonly MonitorKind[] = [
  'device.disconnect.duration',
  'device.disconnect.frequency.ethernet',
  'device.disconnect.frequency.cellular',
  'device.cloud.connectivity',
  'device.cloud.cellular',
  'device.restart',
  'device.localConfigWriteFrequency',
  'device.failedToInitializeActiveControl',
  'asset.connectivity',
  'asset.powerUnresponsive',
  'asset.setpointUnresponsive',
  ...assetAlarmCategories.map((category) => `${category}.metadataMismatch` as MonitorKind),
  'environmentalSensor.constantTooLong',
  'temperaturePowerLimiter.fallback',
];

/** A device's monitor settings with every default filled in. */
export type EffectiveMonitorSettings = Required<MonitorSettings>;

/**
 * The documented defaults (docs/operations.md, "Monitors and alarms"), within the spec's limits
 * (contracts/fleet.ts monitorSettingsSchema: thresholds 0-100 %, 1-10 bad connections,
 * disconnect interval at most 24 hours).
 */
export const defaultMonitorSettings: EffectiveMonitorSettings = {
  thresholdPercentage: 10,
  acceptableBadConnectionCount: 3,
  disconnectIntervalSeconds: 300,
  disabledMonitors: [],
};

/** Fixed windows of the monitors (not settings). */
export const monitorWindows = {
  /** Disconnects, restarts and on-site config writes are counted over this window. */
  frequencyWindowSeconds: 60 * 60,
  /** device.cloud.connectivity: the share of this window spent offline. */
  connectivityWindowSeconds: 24 * 60 * 60,
  /** environmentalSensor.constantTooLong: a sensor value unchanged this long. */
  constantTooLongSeconds: 60 * 60,
  /** An alarm of an auto-closed issue within this time reopens it (canReopen). */
  reopenWithinSeconds: 24 * 60 * 60,
} as const;

/** A device's stored monitorSettings (any JSON) with the defaults for what it leaves out or holds out of range. */
export function monitorSettingsOf(stored: unknown): EffectiveMonitorSettings {
  const value = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const within = (field: unknown, min: number, max: number, fallback: number): number =>
    typeof field === 'number' && Number.isFinite(field) && field >= min && field <= max ? field : fallback;
  return {
    thresholdPercentage: within(value.thresholdPercentage, 0, 100, defaultMonitorSettings.thresholdPercentage),
    acceptableBadConnectionCount: Math.round(within(value.acceptableBadConnectionCount, 1, 10, defaultMonitorSettings.acceptableBadConnectionCount)),
    disconnectIntervalSeconds: Math.round(within(value.disconnectIntervalSeconds, 1, 24 * 60 * 60, defaultMonitorSettings.disconnectIntervalSeconds)),
    disabledMonitors: Array.isArray(value.disabledMonitors) ? value.disabledMonitors.filter((kind): kind is string => typeof kind === 'string') : [],
  };
}

/** Whether `kind` is on for a device with these settings: every kind is, unless disabledMonitors names it or its group (`asset`, `activeControl`, ...). */
export function monitorEnabled(settings: EffectiveMonitorSettings, kind: MonitorKind): boolean {
  const group = monitorKinds[kind].group;
  return !settings.disabledMonitors.some((disabled) => disabled === kind || disabled === group);
}

/** How long an alarm stays recovering before it closes, by default (ALARM_RECOVERY_SECONDS). */
export const defaultAlarmRecoverySeconds = 600;
