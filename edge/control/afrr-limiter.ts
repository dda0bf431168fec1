/**
 * afrrLimiter (device-model.md sections 3.5, 3.7, 3.11): carries out the aFRR delta the cloud's
 * schedule asks of the loop (applyAfrrDeltaSetpoint items addressed to it) on its assets, in the
 * `afrr` layer of the setpoint arbiter (a delta on top of what each asset does otherwise):
 *
 * 1. the delta is bounded so that the meter stays within the loop's contractualLimit and the
 *    cloud's scheduled limitPower (less the learned headroom);
 * 2. the batteries take it first, the limitable assets only what the batteries cannot, within a
 *    group in proportion to the room each has in that direction around its own dispatch;
 * 3. each asset's share moves to a new value in a straight line over the asset's
 *    afrrReferenceSignalResponseMs (its full-activation time; at once without one);
 * 4. what cannot be allocated (no room, or the site limits) raises "aFRR delta not allocated"
 *    (activeControl.afrrDeltaNotAllocated) when it is more than 1 % of the delta (at least 100 W) in
 *    more than 20 % of a minute's steps; it clears at 5 %.
 *
 * Its meter unreadable for a second: with site limits to keep the delta is withdrawn (state
 * fallback; the assets' own fallback applies through the arbiter); without limits it is delivered
 * on. The rule is in docs/control-loops.md.
 */
import type { AssetConfig } from '../../contracts/device/assets';
import type { DeviceConfig } from '../../contracts/device/config';
import type { AssetState } from '../drivers/driver';
import type { LoopStep, SiteSnapshot } from './loop';
import { deliveryWindow, Headroom, limitsNow, LoopBase, type LoopConfigOf } from './loop-base';
import { controlAlarmCodes } from './monitor';
import { assetPower, meterPower, rangeOf, steeringKindOf } from './site';

/** The unallocated part of a delta that counts as "not allocated": this share of the delta, at least `afrrUnmetFloorW`. */
export const afrrUnmetShare = 0.01;
export const afrrUnmetFloorW = 100;

/** One asset's room for a delta: its dispatch without the delta, and how far the delta may move it each way. */
export interface AfrrRoom {
  index: number;
  /** W the delta may take it down (≤ 0) and up (≥ 0). */
  down: number;
  up: number;
  /** What the asset delivers beyond its dispatch now, W (the delta it delivers). */
  delivering: number;
}

interface Ramp {
  /** The share now, W. */
  value: number;
  target: number;
  /** W/s towards the target. */
  perSecond: number;
}

export class AfrrLimiter extends LoopBase<'afrrLimiter'> {
  private readonly headroom: Headroom;
  private readonly steered: number[];
  private readonly ramps = new Map<number, Ramp>();
  private lastAt: number | null = null;
  private requested: number | null = null;
  private allocated: number | null = null;

  constructor(index: number, config: LoopConfigOf<'afrrLimiter'>, device: DeviceConfig) {
    super(index, 'afrrLimiter', config, device);
    this.steered = [...config.batteryAssetIndices, ...config.limitableAssetIndices];
    this.headroom = new Headroom(this.responseSteps(this.steered));
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    const requested = site.scheduledAfrrDelta ?? null;
    this.requested = requested;
    const seconds = this.lastAt === null ? 0 : Math.max(0, (site.now - this.lastAt) / 1000);
    this.lastAt = site.now;
    const limits = limitsNow([config.contractualLimit], undefined, site);
    const bounded = limits.consumption !== null || limits.feedIn !== null;

    const meter = this.readMeter(site, config.meterAssetIndex, meterPower);
    if (meter.value === null) {
      this.status.monitoredPower = null;
      this.headroom.reset();
      if (!meter.fallback) {
        return { setpoints: new Map(), layer: 'afrr' };
      }
      if (bounded) {
        // Blind with limits to keep: the delta is withdrawn.
        this.noteUnmet(site.now, requested, requested ?? 0);
        this.allocated = requested === null ? null : 0;
        this.status.state = 'fallback';
        return { setpoints: this.release(), layer: 'afrr' };
      }
    }

    const batteries = this.rooms(site, config.batteryAssetIndices);
    const limitable = this.rooms(site, config.limitableAssetIndices);
    const delivering = [...batteries.rooms, ...limitable.rooms].reduce((sum, room) => sum + room.delivering, 0);
    let low = -Infinity;
    let high = Infinity;
    if (meter.value !== null) {
      // The meter without the delta the assets deliver now: the delta must keep it within the limits less the headroom.
      this.headroom.observe(meter.value + delivering);
      ({ low, high } = deliveryWindow(meter.value, delivering, limits, this.headroom.margin));
    }
    const wanted = requested ?? 0;
    const allowed = Math.min(Math.max(wanted, Math.min(low, 0)), Math.max(high, 0));
    const targets = requested === null ? new Map<number, number>() : spread([batteries.rooms, limitable.rooms], allowed);
    const allocated = [...targets.values()].reduce((sum, value) => sum + value, 0);
    this.allocated = requested === null ? null : allocated;
    this.noteUnmet(site.now, requested, wanted - allocated);

    const setpoints = new Map<number, number | null>();
    for (const index of this.steered) {
      const target = targets.get(index);
      setpoints.set(index, target === undefined ? this.ramp(index, null, seconds) : this.ramp(index, target, seconds));
    }
    this.status.monitoredPower = meter.value;
    this.status.consumptionLimit = limits.consumption;
    this.status.feedInLimit = limits.feedIn;
    this.noteUnlimitable(site.now, [...batteries.unlimitable, ...limitable.unlimitable]);
    if (meter.value !== null) {
      this.monitorLimits(site.now, meter.value, config.contractualLimit, undefined);
    }
    return { ...this.settle({ setpoints }), layer: 'afrr' };
  }

  protected override extras(): Record<string, unknown> {
    return { afrrDeltaSetpoint: this.requested, afrrAllocated: this.allocated === null ? null : Math.round(this.allocated) };
  }

  /** The room of each readable, writable asset with a range; the others are unlimitable. */
  private rooms(site: SiteSnapshot, indices: readonly number[]): { rooms: AfrrRoom[]; unlimitable: number[] } {
    const rooms: AfrrRoom[] = [];
    const unlimitable: number[] = [];
    for (const index of indices) {
      const asset = this.asset(index);
      const state = site.assets[index];
      const power = assetPower(state);
      const range = asset === undefined ? null : rangeOf(asset, state);
      if (asset === undefined || state === undefined || power === null || range === null || asset.readOnly) {
        unlimitable.push(index);
        continue;
      }
      const share = this.ramps.get(index)?.value ?? 0;
      const dispatch = this.dispatchOf(site, index, asset, state, share);
      const kind = steeringKindOf(asset);
      const min = kind === 'producer' ? Math.max(0, range.min) : range.min;
      const max = kind === 'consumer' ? Math.min(0, range.max) : range.max;
      rooms.push({ index, down: Math.min(0, min - dispatch), up: Math.max(0, max - dispatch), delivering: power - dispatch });
    }
    return { rooms, unlimitable };
  }

  /** What the asset would do without the delta: its baseline less the share it carries (a battery idles, a producer gives what it can, when free). */
  private dispatchOf(site: SiteSnapshot, index: number, asset: AssetConfig, state: AssetState, share: number): number {
    const baseline = site.baseline?.[index];
    if (baseline !== null && baseline !== undefined) {
      return baseline - share;
    }
    switch (steeringKindOf(asset)) {
      case 'producer':
        return state.availablePower ?? state.activePower ?? 0;
      case 'consumer':
        return state.activePower ?? 0;
      default:
        return 0;
    }
  }

  /** Moves an asset's share towards its target over its afrrReferenceSignalResponseMs; null once released. */
  private ramp(index: number, target: number | null, seconds: number): number | null {
    const ramp = this.ramps.get(index);
    const goal = target ?? 0;
    if (ramp === undefined) {
      if (target === null || target === 0) {
        return null;
      }
      const response = this.responseMsOf(index);
      if (response <= 0) {
        this.ramps.set(index, { value: goal, target: goal, perSecond: Infinity });
        return goal;
      }
      // A new share starts from nothing and rises over the response time.
      this.ramps.set(index, { value: 0, target: goal, perSecond: Math.abs(goal) / (response / 1000) });
      return this.ramp(index, target, seconds);
    }
    const response = this.responseMsOf(index);
    if (Math.abs(goal - ramp.target) > afrrUnmetFloorW / 10) {
      ramp.target = goal;
      ramp.perSecond = response <= 0 ? Infinity : Math.abs(goal - ramp.value) / (response / 1000);
    }
    const gap = ramp.target - ramp.value;
    ramp.value = Math.abs(gap) <= ramp.perSecond * seconds ? ramp.target : ramp.value + Math.sign(gap) * ramp.perSecond * seconds;
    if (goal === 0 && ramp.value === 0) {
      this.ramps.delete(index);
      return null;
    }
    return ramp.value;
  }

  private responseMsOf(index: number): number {
    const asset = this.asset(index);
    return asset !== undefined && 'afrrReferenceSignalResponseMs' in asset ? (asset.afrrReferenceSignalResponseMs ?? 0) : 0;
  }

  private release(): Map<number, number | null> {
    this.ramps.clear();
    return new Map<number, number | null>(this.steered.map((index: number): [number, null] => [index, null]));
  }

  private noteUnmet(now: number, requested: number | null, unmet: number): void {
    const tolerance = Math.max(afrrUnmetFloorW, Math.abs(requested ?? 0) * afrrUnmetShare);
    this.monitor(
      controlAlarmCodes.afrrDeltaNotAllocated,
      now,
      requested !== null && Math.abs(unmet) > tolerance,
      () => `aFRR delta ${Math.round(requested ?? 0)} W: ${Math.round(unmet)} W could not be allocated`,
    );
  }
}

/** Spreads a delta over groups in order (batteries, then limitable assets), within a group in proportion to each one's room that way. */
export function spread(groups: readonly (readonly AfrrRoom[])[], delta: number): Map<number, number> {
  const shares = new Map<number, number>();
  let left = delta;
  for (const group of groups) {
    const room = group.reduce((sum, entry) => sum + (left < 0 ? -entry.down : entry.up), 0);
    const taken = left === 0 || room <= 0 ? 0 : left < 0 ? Math.max(left, -room) : Math.min(left, room);
    for (const entry of group) {
      const own = left < 0 ? -entry.down : entry.up;
      shares.set(entry.index, room <= 0 ? 0 : (taken * own) / room);
    }
    left -= taken;
  }
  return shares;
}
