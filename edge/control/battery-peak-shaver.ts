/**
 * batteryPeakShaver (device-model.md sections 3.5, 3.11): keeps consumption (and feed-in) at the
 * grid connection within the contractual, soft and scheduled limits with batteries, and EV
 * chargers when the batteries cannot (those are steered every evAssetControlLoopSleep ms only).
 * Between peaks the batteries recharge under the limit, keeping 10 % of it free, into the range the
 * stateOfChargeSchedule gives; above that range they cover the site's own consumption. Alarms:
 * state of charge low (below the range, or empty) and high (above it).
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { LoopStep, SiteSnapshot } from './loop';
import { allocate, batteryFigures, deliveryWindow, Headroom, limitsNow, LoopBase, type Flex, type LoopConfigOf } from './loop-base';
import { controlAlarmCodes, immediateRule } from './monitor';
import { meterPower, windowAt, type WeeklyWindow } from './site';

/** A stateOfChargeSchedule entry (contracts/device/control-loops.ts): the range to keep, %. */
interface StateOfChargeWindow extends WeeklyWindow {
  min: number;
  max: number;
}

/** The share of the consumption limit recharging leaves free, so a recharge never rides the limit. */
export const rechargeReserveShare = 0.1;
/** The state-of-charge range kept without a stateOfChargeSchedule entry, %. */
export const defaultStateOfChargeRange = { min: 10, max: 100 };

/**
 * The largest upward jump of the site's own consumption seen in one control step (a load switching
 * on), and whether the site is still raised by the last one. A jump is a change of more than
 * `jumpSigmas` standard deviations of the step-to-step noise (learned as the Headroom does, the
 * jumps left out); the site counts as raised until it falls back below its level before the jump
 * plus half the jump.
 */
export class JumpWatch {
  static readonly jumpSigmas = 6;
  /** Changes seen before a jump is told apart from the noise. */
  static readonly learningChanges = 100;
  /** How long a jump is remembered: it fades with this time constant, ms (a week), unless a jump as large is seen again. */
  static readonly memoryMs = 7 * 86_400_000;
  private variance = 0;
  private changes = 0;
  private last: number | null = null;
  private lastAt: number | null = null;
  private raisedFrom: number | null = null;
  /** The largest jump seen, fading over memoryMs, W. */
  jumpW = 0;

  observe(others: number, now: number): void {
    const before = this.last;
    this.jumpW *= this.lastAt === null ? 1 : Math.exp(-(now - this.lastAt) / JumpWatch.memoryMs);
    this.last = others;
    this.lastAt = now;
    if (before === null) {
      return;
    }
    const change = others - before;
    const sigma = Math.sqrt(this.variance);
    if (this.changes > JumpWatch.learningChanges && change > JumpWatch.jumpSigmas * sigma) {
      this.jumpW = Math.max(this.jumpW, change);
      this.raisedFrom = this.raisedFrom ?? before;
    } else {
      this.changes += 1;
      this.variance += Math.max(Headroom.weight, 1 / this.changes) * (change * change - this.variance);
    }
    if (this.raisedFrom !== null && others < this.raisedFrom + this.jumpW / 2) {
      this.raisedFrom = null;
    }
  }

  get raised(): boolean {
    return this.raisedFrom !== null;
  }

  reset(): void {
    this.last = null;
  }
}

/**
 * The overshoot readiness accepts in the step the largest learned jump arrives in, share of the
 * consumption limit: 2 % leaves 3 % of it under the 5 % bar for the noise of that step, a jump a
 * little larger than the one learned and the batteries' tracking of the site's noise.
 */
export const jumpAllowanceShare = 0.02;

/**
 * How much of the readiness for the next jump the batteries keep at this state of charge (0 to 1):
 * none up to the middle of the range, all from `readinessRampPoints` above it. Readiness is a
 * standing discharge whenever the site's own load plus the jump is above the limit, so it spends
 * only the upper half of the range and leaves the lower half for the peaks themselves; the ramp
 * (rather than a switch) lets the batteries settle where readiness and recharge balance.
 */
export function readinessWeight(charge: number, range: { min: number; max: number }): number {
  const from = (range.min + range.max) / 2;
  return Math.min(1, Math.max(0, (charge - from) / readinessRampPoints));
}

/** State-of-charge points over which readiness goes from none to full. */
export const readinessRampPoints = 5;

export class BatteryPeakShaver extends LoopBase<'batteryPeakShaver'> {
  private readonly headroom: Headroom;
  private figures: ReturnType<typeof batteryFigures> = { stateOfCharge: null, batteryPower: null };
  private evSteppedAt = -Infinity;
  private readonly jumps = new JumpWatch();

  constructor(index: number, config: LoopConfigOf<'batteryPeakShaver'>, device: DeviceConfig) {
    super(index, 'batteryPeakShaver', config, device);
    this.headroom = new Headroom(this.responseSteps(config.batteryAssetIndices));
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    this.figures = batteryFigures(site, config.batteryAssetIndices);
    const meter = this.readMeter(site, config.meterAssetIndex, meterPower);
    if (meter.value === null) {
      this.status.monitoredPower = null;
      this.headroom.reset();
      this.jumps.reset();
      return meter.fallback ? this.fallbackStep(site, [...config.batteryAssetIndices, ...config.evAssetIndices]) : { setpoints: new Map() };
    }
    const limits = limitsNow([config.contractualLimit, config.softLimit], config.limitSchedule, site);
    const range = windowAt(config.stateOfChargeSchedule as readonly StateOfChargeWindow[], site.now) ?? defaultStateOfChargeRange;
    const batteries = this.flexOf(site, config.batteryAssetIndices, () => 0);
    const evSteps = site.now - this.evSteppedAt >= config.evAssetControlLoopSleep;
    const evs = evSteps
      ? this.flexOf(site, config.evAssetIndices, (index, asset, state) => this.freeOf(site, index, asset, state))
      : { flex: [], delivered: 0, unlimitable: [] };
    const delivered = batteries.delivered + evs.delivered;
    const others = meter.value + delivered;
    this.headroom.responseSteps = this.learnResponses(site, [...config.batteryAssetIndices, ...config.evAssetIndices]);
    this.headroom.observe(others);
    // The site without the batteries (EVs are read only every evAssetControlLoopSleep ms: their draw would show as jumps).
    this.jumps.observe(meter.value + batteries.delivered, site.now);
    // The batteryPeakShaver config has no deadband: only the learned headroom is kept.
    const keep = this.headroom.margin;

    this.planBatteries(batteries.flex, others, limits.consumption, keep, range);
    const window = deliveryWindow(meter.value, delivered, limits, keep);
    const { setpoints, direction } = allocate([batteries.flex, evs.flex], window.low, window.high);
    this.lead(site, setpoints, [...batteries.flex, ...evs.flex], direction);
    // Batteries at their plan (not moved by the limits) are held there, not released.
    for (const flex of batteries.flex) {
      if (setpoints.get(flex.index) === null) {
        setpoints.set(flex.index, flex.free === 0 ? null : flex.free);
      }
    }
    if (evSteps) {
      this.evSteppedAt = site.now;
    }

    this.status.monitoredPower = meter.value;
    this.status.consumptionLimit = limits.consumption;
    this.status.feedInLimit = limits.feedIn;
    this.noteUnlimitable(site.now, [...batteries.unlimitable, ...evs.unlimitable]);
    this.monitorLimits(site.now, meter.value, config.contractualLimit, undefined);
    const charge = this.figures.stateOfCharge;
    this.monitor(
      controlAlarmCodes.stateOfChargeLow,
      site.now,
      charge !== null && charge < range.min,
      () => `state of charge below ${range.min} %`,
      undefined,
      immediateRule,
    );
    this.monitor(
      controlAlarmCodes.stateOfChargeHigh,
      site.now,
      charge !== null && charge > range.max,
      () => `state of charge above ${range.max} %`,
      undefined,
      immediateRule,
    );
    return this.settle({ setpoints });
  }

  /**
   * Sets each battery's free value to its plan between peaks: recharge below the range's top
   * (under the limit, less the reserve), cover the site's consumption above it, idle otherwise;
   * and, with stored energy to spare, readiness for the largest learned jump (readinessWeight).
   */
  private planBatteries(batteries: Flex[], others: number, consumptionLimit: number | null, keep: number, range: { min: number; max: number }): void {
    const charge = this.figures.stateOfCharge;
    if (charge === null || batteries.length === 0) {
      return;
    }
    let total = 0;
    if (charge < range.max && consumptionLimit !== null) {
      const room = consumptionLimit * (1 - rechargeReserveShare) - keep - others;
      total = -Math.max(0, room);
    } else if (charge > range.max) {
      total = Math.max(0, others);
    }
    const weight = this.jumps.raised || consumptionLimit === null ? 0 : readinessWeight(charge, range);
    if (weight > 0 && consumptionLimit !== null && this.jumps.jumpW > 0) {
      // The site at most this high when the jump comes lands it jumpAllowanceShare over the limit.
      const ready = consumptionLimit * (1 + jumpAllowanceShare) - this.jumps.jumpW;
      total = Math.max(total, total + weight * (others - ready - total));
    }
    const span = batteries.reduce((sum, flex) => sum + (total < 0 ? -flex.min : flex.max), 0);
    for (const flex of batteries) {
      const share = span <= 0 ? 0 : (total * (total < 0 ? -flex.min : flex.max)) / span;
      flex.free = Math.min(flex.max, Math.max(flex.min, share));
    }
  }

  protected override extras(): Record<string, unknown> {
    return this.figures;
  }
}
