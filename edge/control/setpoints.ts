/**
 * The setpoint arbiter (device-model.md sections 3.9 and 4: "desired (per source) leads to
 * confirmed and effective values"). Each source (cloud, activeControl, gridOperator,
 * modbusServer, afrr) may desire a setpoint for an asset; the arbiter layers them into the one
 * effective setpoint, writes it through the asset's driver, and gives the asset's report its
 * setpoint observations. The layering rule is written down in docs/control-loops.md:
 *
 * 1. Producers (a cap) and consumers (a floor): the most restrictive desire wins, so no source can
 *    loosen another's limit; the grid operator's limit always holds.
 *    Batteries (a dispatch): the first present of gridOperator, modbusServer, activeControl, cloud.
 * 2. afrr is a delta on top of that (on what the asset would do free when nothing else steers it).
 * 3. When the meter the asset names (powerMeterAssetIndex) is unreadable, the asset's fallback
 *    (fallbackSetpoint, or fallbackLimit percent of nominal power) replaces a battery's dispatch and
 *    caps a producer or consumer.
 * 4. Limits from sources (limitPower schedule items), the asset's staticLimit and a battery's
 *    powerLimits clamp the value; a producer with a static cap is capped even when nobody steers it.
 * 5. The range the asset accepts now (controllableRange) clamps last; rampRate moves the written
 *    value towards the target, taking no longer than maxDelay.
 * 6. A value is written when it moved by more than a small deadband, when it appears or is released,
 *    every refresh period while held, and again a second after a failed write. readOnly assets are
 *    never written.
 *
 * Several loops may steer one asset in the same layer: for producers and consumers the most
 * restrictive holds; for batteries the loop listed first in activeControl.
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { AssetConfig } from '../../contracts/device/assets';
import type { SetpointObservations } from '../../contracts/hub/reports';
import type { AssetDriver, AssetState, PowerRange, SetpointSource } from '../drivers/driver';
import { minutesOfDay } from '../../contracts/device/time-window';
import type { LoopStep } from './loop';
import { clamp, rangeOf, steeringKindOf, type SteeringKind } from './site';

/** Battery precedence: who wins when several sources dispatch one battery. */
const dispatchPrecedence = ['gridOperator', 'modbusServer', 'activeControl', 'cloud'] as const;
/** Sources that set a limit or dispatch (afrr is a delta on top). */
const levelSources = ['cloud', 'activeControl', 'gridOperator', 'modbusServer'] as const;

export interface ArbiterOptions {
  /** Smallest change worth a write, W (default 0.5 % of nominal power, at least 10 W). */
  writeDeadbandW?: number;
  /** A held setpoint is written again after this long, ms (default 30 s), so a restarted asset gets it back. */
  refreshMs?: number;
  /** A failed write is retried after this long, ms (default 1 s). */
  retryMs?: number;
}

const defaults = { refreshMs: 30_000, retryMs: 1_000, minimumDeadbandW: 10, deadbandShare: 0.005 };

/** Who desired what: per source, per desirer (a loop's index, or -1 for a direct desire). */
type Desires = Map<SetpointSource, Map<number, number>>;

interface AssetRecord {
  desires: Desires;
  limits: Map<SetpointSource, PowerRange>;
  /** What the arbiter last wrote (null: released or never written). */
  written: number | null;
  writtenAt: number;
  /** The ramped value the arbiter heads for the target through. */
  ramp: number | null;
  rampAt: number;
  /** The target the ramp heads for, and its pace, W/s. */
  rampTarget: number | null;
  rampPerSecond: number;
  failedAt: number | null;
  confirmed: number | null;
}

function newRecord(): AssetRecord {
  return {
    desires: new Map(),
    limits: new Map(),
    written: null,
    writtenAt: 0,
    ramp: null,
    rampAt: 0,
    rampTarget: null,
    rampPerSecond: 0,
    failedAt: null,
    confirmed: null,
  };
}

const directDesirer = -1;

export class SetpointArbiter {
  private config: DeviceConfig;
  private records: AssetRecord[] = [];
  private readonly options: Required<Omit<ArbiterOptions, 'writeDeadbandW'>> & Pick<ArbiterOptions, 'writeDeadbandW'>;

  constructor(config: DeviceConfig, options: ArbiterOptions = {}) {
    this.config = config;
    this.options = { refreshMs: options.refreshMs ?? defaults.refreshMs, retryMs: options.retryMs ?? defaults.retryMs, writeDeadbandW: options.writeDeadbandW };
    this.records = config.assets.map(newRecord);
  }

  /** A new config: every desire and write state starts afresh (asset indices may mean other assets now). */
  configure(config: DeviceConfig): void {
    this.config = config;
    this.records = config.assets.map(newRecord);
  }

  /** A source's desired setpoint for an asset, W in the asset's convention; null withdraws it. */
  desire(index: number, source: SetpointSource, watts: number | null): void {
    this.setDesire(index, source, directDesirer, watts);
  }

  /**
   * A limit a source sets on an asset (a limitPower schedule item): the effective value stays in
   * the range; a producer or consumer steered by nobody is held at the range's edge. null lifts it.
   */
  limit(index: number, source: SetpointSource, range: PowerRange | null): void {
    const record = this.records[index];
    if (record === undefined) {
      return;
    }
    if (range === null) {
      record.limits.delete(source);
    } else {
      record.limits.set(source, range);
    }
  }

  /** Takes a loop's step: its setpoints go to its layer (activeControl unless it says); assets it does not name keep what it asked before. */
  applyLoopStep(loopIndex: number, step: LoopStep): void {
    const layer = step.layer ?? 'activeControl';
    for (const [index, watts] of step.setpoints) {
      this.setDesire(index, layer, loopIndex, watts);
    }
  }

  /** Withdraws everything a loop desired (the loop stopped or its config went). */
  releaseLoop(loopIndex: number): void {
    const desirer = loopIndex;
    for (const record of this.records) {
      for (const layer of record.desires.values()) {
        layer.delete(desirer);
      }
    }
  }

  /** The combined desire of each source for an asset (sources that desire nothing are absent). */
  desired(index: number): Partial<Record<SetpointSource, number>> {
    const record = this.records[index];
    const asset = this.config.assets[index];
    if (record === undefined || asset === undefined) {
      return {};
    }
    return combinedDesires(record.desires, steeringKindOf(asset));
  }

  /**
   * What each asset would be set to without the activeControl layer (null: free), by asset index:
   * the baseline a loop steers around (SiteSnapshot.baseline).
   */
  baselines(now: number, states: readonly (AssetState | undefined)[]): (number | null)[] {
    return this.config.assets.map((asset, index) => {
      const record = this.records[index];
      if (record === undefined) {
        return null;
      }
      const desired = combinedDesires(record.desires, steeringKindOf(asset));
      delete desired.activeControl;
      return this.target(asset, desired, record, states[index], this.meterReadable(asset, states), now);
    });
  }

  /**
   * Layers the desires of every asset into its effective setpoint and writes those that changed
   * (see the rule above). `drivers` by asset index; call once per control step, after the loops.
   */
  async apply(now: number, drivers: readonly (AssetDriver | undefined)[]): Promise<void> {
    const states = drivers.map((driver) => driver?.state);
    const writes: Promise<void>[] = [];
    for (const [index, asset] of this.config.assets.entries()) {
      const record = this.records[index];
      const driver = drivers[index];
      if (record === undefined || driver === undefined) {
        continue;
      }
      const state = states[index];
      record.confirmed = state?.readable === true && typeof state.confirmedSetpoint === 'number' ? state.confirmedSetpoint : record.confirmed;
      if (asset.readOnly || steeringKindOf(asset) === 'none') {
        continue;
      }
      const desired = combinedDesires(record.desires, steeringKindOf(asset));
      const target = this.target(asset, desired, record, state, this.meterReadable(asset, states), now);
      const value = this.ramped(asset, record, target, state, now);
      if (this.shouldWrite(asset, record, value, now)) {
        writes.push(this.write(driver, record, value, now));
      }
    }
    await Promise.all(writes);
  }

  /** The setpoint layers of an asset for its report; undefined for an asset that takes no setpoint. */
  observations(index: number): SetpointObservations | undefined {
    const record = this.records[index];
    const asset = this.config.assets[index];
    if (record === undefined || asset === undefined || steeringKindOf(asset) === 'none') {
      return undefined;
    }
    return { desired: this.desired(index), effective: record.written, confirmed: record.confirmed };
  }

  private setDesire(index: number, source: SetpointSource, desirer: number, watts: number | null): void {
    const record = this.records[index];
    if (record === undefined) {
      return;
    }
    let layer = record.desires.get(source);
    if (watts === null || !Number.isFinite(watts)) {
      layer?.delete(desirer);
      return;
    }
    if (layer === undefined) {
      layer = new Map();
      record.desires.set(source, layer);
    }
    layer.set(desirer, watts);
  }

  private meterReadable(asset: AssetConfig, states: readonly (AssetState | undefined)[]): boolean {
    if (asset.powerMeterAssetIndex === undefined) {
      return true;
    }
    return states[asset.powerMeterAssetIndex]?.readable === true;
  }

  /** Steps 1 to 5 of the rule: the value the asset should have now, before ramping; null releases it. */
  private target(
    asset: AssetConfig,
    desired: Partial<Record<SetpointSource, number>>,
    record: AssetRecord,
    state: AssetState | undefined,
    meterReadable: boolean,
    now: number,
  ): number | null {
    const kind = steeringKindOf(asset);
    const range = rangeOf(asset, state);
    let value = levelOf(kind, desired);
    if (desired.afrr !== undefined) {
      value = (value ?? freeValue(kind, state, range)) + desired.afrr;
    }
    if (!meterReadable) {
      const fallback = fallbackOf(asset, this.config);
      if (fallback !== undefined) {
        value = kind === 'battery' || value === null ? fallback : tighter(kind, value, fallback);
      }
    }
    const bounds = [...record.limits.values(), staticRangeOf(asset, now)].filter((bound): bound is PowerRange => bound !== undefined);
    for (const bound of bounds) {
      if (value === null) {
        value = heldEdge(kind, bound, range);
      } else {
        value = clamp(value, bound);
      }
    }
    return value === null ? null : clamp(value, range);
  }

  private ramped(asset: AssetConfig, record: AssetRecord, target: number | null, state: AssetState | undefined, now: number): number | null {
    const rate = asset.rampRate;
    if (target === null || rate === undefined) {
      record.ramp = target;
      record.rampAt = now;
      record.rampTarget = null;
      return target;
    }
    const start = record.ramp ?? (state?.readable === true && typeof state.activePower === 'number' ? state.activePower : target);
    const seconds = Math.max(0, (now - record.rampAt) / 1000);
    const gap = target - start;
    const { up, down, maxDelay } = typeof rate === 'number' ? { up: rate, down: rate, maxDelay: Infinity } : rate;
    if (record.rampTarget !== target) {
      // A new target: never take longer than maxDelay to reach it, so widen the rate when it is too slow.
      record.rampTarget = target;
      record.rampPerSecond = Math.max(gap > 0 ? up : down, maxDelay > 0 ? Math.abs(gap) / maxDelay : Infinity);
    }
    const moved = Math.abs(gap) <= record.rampPerSecond * seconds ? target : start + Math.sign(gap) * record.rampPerSecond * seconds;
    record.ramp = moved;
    record.rampAt = now;
    return moved;
  }

  private shouldWrite(asset: AssetConfig, record: AssetRecord, value: number | null, now: number): boolean {
    if (record.failedAt !== null) {
      return now - record.failedAt >= this.options.retryMs;
    }
    if ((value === null) !== (record.written === null)) {
      return true;
    }
    if (value === null || record.written === null) {
      return false;
    }
    const deadband = this.options.writeDeadbandW ?? Math.max(defaults.minimumDeadbandW, (asset.nominalActivePower ?? 0) * defaults.deadbandShare);
    return Math.abs(value - record.written) > deadband || now - record.writtenAt >= this.options.refreshMs;
  }

  private async write(driver: AssetDriver, record: AssetRecord, value: number | null, now: number): Promise<void> {
    const rounded = value === null ? null : Math.round(value);
    const ok = await driver.writeSetpoint(rounded);
    if (ok) {
      record.written = rounded;
      record.writtenAt = now;
      record.failedAt = null;
    } else {
      record.failedAt = now;
    }
  }
}

function combinedDesires(desires: Desires, kind: SteeringKind): Partial<Record<SetpointSource, number>> {
  const result: Partial<Record<SetpointSource, number>> = {};
  for (const [source, byDesirer] of desires) {
    // The direct desire (a schedule, a server) first, then loops in config order.
    let first: { desirer: number; watts: number } | undefined;
    let combined: number | undefined;
    for (const [desirer, watts] of byDesirer) {
      if (first === undefined || desirer < first.desirer) {
        first = { desirer, watts };
      }
      combined = combined === undefined ? watts : tighter(kind, combined, watts);
    }
    if (first !== undefined && combined !== undefined) {
      result[source] = kind === 'battery' ? first.watts : combined;
    }
  }
  return result;
}

/** The more restrictive of two setpoints: the lower cap of a producer, the floor nearer 0 of a consumer. */
function tighter(kind: SteeringKind, a: number, b: number): number {
  return kind === 'consumer' ? Math.max(a, b) : Math.min(a, b);
}

function levelOf(kind: SteeringKind, desired: Partial<Record<SetpointSource, number>>): number | null {
  if (kind === 'battery') {
    for (const source of dispatchPrecedence) {
      const value = desired[source];
      if (value !== undefined) {
        return value;
      }
    }
    return null;
  }
  const values = levelSources.map((source) => desired[source]).filter((value): value is number => value !== undefined);
  return values.length === 0 ? null : values.reduce((a, b) => tighter(kind, a, b));
}

/**
 * Where a bound holds a producer or consumer nobody steers: at the bound's edge when it is tighter
 * than what the asset could do anyway; null (free) otherwise, and always for a battery.
 */
function heldEdge(kind: SteeringKind, bound: PowerRange, range: PowerRange | null): number | null {
  if (kind === 'producer' && Number.isFinite(bound.max) && (range === null || bound.max < range.max)) {
    return bound.max;
  }
  if (kind === 'consumer' && Number.isFinite(bound.min) && (range === null || bound.min > range.min)) {
    return bound.min;
  }
  return null;
}

/** What an asset does when nobody steers it: a battery idles, a producer gives what it can, a consumer draws what it may. */
function freeValue(kind: SteeringKind, state: AssetState | undefined, range: PowerRange | null): number {
  if (kind === 'producer') {
    return state?.availablePower ?? range?.max ?? 0;
  }
  if (kind === 'consumer') {
    return range?.min ?? 0;
  }
  return 0;
}

/** The asset's fallback when its meter is unreadable, W; undefined when it has none. */
export function fallbackOf(asset: AssetConfig, config: DeviceConfig): number | undefined {
  if (asset.fallbackSetpoint !== undefined) {
    return asset.fallbackSetpoint;
  }
  if ('fallbackLimit' in asset && asset.fallbackLimit !== undefined) {
    const limit = asset.fallbackLimit;
    if ('activePowerPercentage' in limit) {
      const steeredByOptimizer = config.activeControl.some((loop) => loop.type === 'optimizer');
      if (limit.onlyInOptimizer && !steeredByOptimizer) {
        return undefined;
      }
      return asset.nominalActivePower === undefined ? undefined : (asset.nominalActivePower * limit.activePowerPercentage) / 100;
    }
    if (limit.activePower !== undefined) {
      return limit.activePower;
    }
    if (limit.phaseCurrent !== undefined && 'nominalPhaseVoltage' in asset) {
      return limit.phaseCurrent * 3 * asset.nominalPhaseVoltage;
    }
  }
  return undefined;
}

/** The asset's own bounds from its config: staticLimit (solar, wind, EV) or powerLimits (battery, within its time window). */
export function staticRangeOf(asset: AssetConfig, now: Date | number): PowerRange | undefined {
  if ('staticLimit' in asset && asset.staticLimit !== undefined) {
    const limit = asset.staticLimit;
    if ('scale' in limit) {
      const factor = limit.scale === 'percentage' ? (asset.nominalActivePower ?? NaN) / 100 : 1;
      return Number.isNaN(factor) ? undefined : { min: limit.lower * factor, max: limit.upper * factor };
    }
    const floor =
      limit.activePower ??
      (limit.phaseCurrent !== undefined && 'nominalPhaseVoltage' in asset ? limit.phaseCurrent * 3 * asset.nominalPhaseVoltage : undefined);
    return floor === undefined ? undefined : { min: floor, max: 0 };
  }
  if ('powerLimits' in asset && asset.powerLimits !== undefined) {
    const { charge, discharge, timeWindow } = asset.powerLimits;
    if (timeWindow !== undefined) {
      const at = typeof now === 'number' ? new Date(now) : now;
      const minute = at.getHours() * 60 + at.getMinutes();
      if (minute < minutesOfDay(timeWindow.start) || minute >= minutesOfDay(timeWindow.end)) {
        return undefined;
      }
    }
    return { min: -charge, max: discharge };
  }
  return undefined;
}
