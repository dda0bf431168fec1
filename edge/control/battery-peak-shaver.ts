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

export class BatteryPeakShaver extends LoopBase<'batteryPeakShaver'> {
  private readonly headroom: Headroom;
  private figures: ReturnType<typeof batteryFigures> = { stateOfCharge: null, batteryPower: null };
  private evSteppedAt = -Infinity;

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
   * (under the limit, less the reserve), cover the site's consumption above it, idle otherwise.
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
