/**
 * The reservation limiters (device-model.md section 3.5; the spec names them, the rules are ours,
 * docs/control-loops.md):
 *
 * - batteryPowerReservationLimiter keeps `reservedPower.discharge` W of the batteries' discharge
 *   power and `reservedPower.charge` W of their charge power unused (free for another use, such as
 *   a backup or a balancing service), keeps their state of charge in the range its
 *   stateOfChargeSchedule gives, and keeps the grid connection within its soft limit with the
 *   power that is not reserved;
 * - powerReservationLimiter keeps `reservedPower.charge` W of the connection's monitored capacity
 *   free in the consumption direction and `reservedPower.discharge` W free in the feed-in
 *   direction, by limiting its assets as the powerLimiter does.
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { LoopStep, SiteSnapshot } from './loop';
import { allocate, batteryFigures, deliveryWindow, Headroom, limitsNow, LoopBase, type Flex, type LimitPair, type LoopConfigOf } from './loop-base';
import { rechargeReserveShare } from './battery-peak-shaver';
import { clamp, meterPower, rangeOf, windowAt, type WeeklyWindow } from './site';

/** A stateOfChargeSchedule entry (contracts/device/control-loops.ts): the range to keep, %. */
interface StateOfChargeWindow extends WeeklyWindow {
  min: number;
  max: number;
}

/** The state-of-charge range kept without a stateOfChargeSchedule entry in force, %: no constraint. */
export const unconstrainedStateOfCharge = { min: 0, max: 100 };

/**
 * The part of the batteries' ranges the reservation leaves usable: each battery gives up a share
 * of the reservation in proportion to its range now (an empty or full battery gives none).
 */
export function unreservedRanges(
  ranges: readonly { min: number; max: number }[],
  reserved: { charge: number; discharge: number },
): { min: number; max: number }[] {
  const discharge = ranges.reduce((sum, range) => sum + Math.max(0, range.max), 0);
  const charge = ranges.reduce((sum, range) => sum + Math.max(0, -range.min), 0);
  const dischargeFactor = discharge <= 0 ? 0 : Math.max(0, 1 - reserved.discharge / discharge);
  const chargeFactor = charge <= 0 ? 0 : Math.max(0, 1 - reserved.charge / charge);
  return ranges.map((range) => ({ min: -Math.max(0, -range.min) * chargeFactor, max: Math.max(0, range.max) * dischargeFactor }));
}

export class BatteryPowerReservationLimiter extends LoopBase<'batteryPowerReservationLimiter'> {
  private readonly headroom: Headroom;
  private figures: ReturnType<typeof batteryFigures> = { stateOfCharge: null, batteryPower: null };
  private reservedNow: number | null = null;

  constructor(index: number, config: LoopConfigOf<'batteryPowerReservationLimiter'>, device: DeviceConfig) {
    super(index, 'batteryPowerReservationLimiter', config, device);
    this.headroom = new Headroom(this.responseSteps(config.batteryAssetIndices));
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    this.figures = batteryFigures(site, config.batteryAssetIndices);
    const meter = this.readMeter(site, config.meterAssetIndex, meterPower);
    if (meter.value === null) {
      this.status.monitoredPower = null;
      this.headroom.reset();
      return meter.fallback ? this.reservedFallback(site) : { setpoints: new Map() };
    }
    const limits = limitsNow([config.softLimit], undefined, site);
    const range = windowAt(config.stateOfChargeSchedule as readonly StateOfChargeWindow[], site.now) ?? unconstrainedStateOfCharge;
    const batteries = this.flexOf(site, config.batteryAssetIndices, (index, asset, state) => this.freeOf(site, index, asset, state));
    this.reservedNow = batteries.flex.length === 0 ? null : batteries.flex.reduce((sum, flex) => sum + Math.max(0, flex.max), 0) - batteries.delivered;
    const baselines = new Map(batteries.flex.map((flex) => [flex.index, flex.free]));
    const usable = unreservedRanges(batteries.flex, config.reservedPower);
    batteries.flex.forEach((flex, i) => {
      const own = usable[i] ?? { min: 0, max: 0 };
      flex.min = own.min;
      flex.max = own.max;
      flex.free = clamp(flex.free, own);
    });
    const others = meter.value + batteries.delivered;
    this.headroom.responseSteps = this.learnResponses(site, config.batteryAssetIndices);
    this.headroom.observe(others);
    const keep = this.headroom.margin;
    this.keepStateOfCharge(batteries.flex, others, range, limits.consumption, keep);

    const window = deliveryWindow(meter.value, batteries.delivered, limits, keep);
    const { setpoints, direction } = allocate([batteries.flex], window.low, window.high);
    // Within the unreserved ranges: the lead never reaches into the reserve.
    this.lead(site, setpoints, batteries.flex, direction);
    // A battery whose baseline would use the reserve or leave the range is held at its plan, not released to that baseline.
    for (const flex of batteries.flex) {
      if (setpoints.get(flex.index) === null && flex.free !== baselines.get(flex.index)) {
        setpoints.set(flex.index, flex.free);
      }
    }

    this.status.monitoredPower = meter.value;
    this.status.consumptionLimit = limits.consumption;
    this.status.feedInLimit = limits.feedIn;
    this.noteUnlimitable(site.now, batteries.unlimitable);
    return this.settle({ setpoints });
  }

  /**
   * Below the range in force the batteries do not discharge and recharge with their unreserved
   * charge power, keeping 10 % of the soft consumption limit free (as the batteryPeakShaver does);
   * above it they do not charge and cover the site's own consumption. Within it they follow their
   * baseline.
   */
  private keepStateOfCharge(batteries: Flex[], others: number, range: { min: number; max: number }, consumptionLimit: number | null, keep: number): void {
    const charge = this.figures.stateOfCharge;
    if (charge === null || batteries.length === 0) {
      return;
    }
    if (charge < range.min) {
      const span = batteries.reduce((sum, flex) => sum + flex.min, 0);
      const total = consumptionLimit === null ? span : Math.max(span, Math.min(0, others - (consumptionLimit * (1 - rechargeReserveShare) - keep)));
      for (const flex of batteries) {
        flex.max = Math.min(flex.max, 0);
        flex.free = span >= 0 ? 0 : clamp((total * flex.min) / span, flex);
      }
    } else if (charge > range.max) {
      const span = batteries.reduce((sum, flex) => sum + flex.max, 0);
      for (const flex of batteries) {
        flex.min = Math.max(flex.min, 0);
        flex.free = span <= 0 ? 0 : clamp((Math.max(0, others) * flex.max) / span, flex);
      }
    }
  }

  /** The assets' fallbacks (base rule), each kept out of the reserve. */
  private reservedFallback(site: SiteSnapshot): LoopStep {
    const step = this.fallbackStep(site, this.config.batteryAssetIndices);
    const indices = [...step.setpoints.keys()];
    const ranges = indices.map((index) => {
      const asset = this.asset(index);
      return (asset === undefined ? null : rangeOf(asset, site.assets[index])) ?? { min: 0, max: 0 };
    });
    const usable = unreservedRanges(ranges, this.config.reservedPower);
    indices.forEach((index, i) => {
      const value = step.setpoints.get(index);
      if (value !== null && value !== undefined) {
        step.setpoints.set(index, clamp(value, usable[i]));
      }
    });
    return step;
  }

  protected override extras(): Record<string, unknown> {
    return { ...this.figures, reservedPower: this.reservedNow };
  }
}

export class PowerReservationLimiter extends LoopBase<'powerReservationLimiter'> {
  private readonly headroom: Headroom;
  /** The reservation as limits at the connection (monitored: contractual), and the capacity itself (physical). */
  private readonly reservationLimit: LimitPair;
  private readonly capacity: LimitPair;
  private reservedNow: number | null = null;

  constructor(index: number, config: LoopConfigOf<'powerReservationLimiter'>, device: DeviceConfig) {
    super(index, 'powerReservationLimiter', config, device);
    this.headroom = new Headroom(this.responseSteps(config.limitableAssetIndices));
    const { monitoredCapacity, reservedPower } = config;
    this.reservationLimit = {
      consumption: Math.max(0, monitoredCapacity - reservedPower.charge),
      feedIn: Math.max(0, monitoredCapacity - reservedPower.discharge),
      monitored: true,
    };
    this.capacity = { consumption: monitoredCapacity, feedIn: monitoredCapacity, monitored: true };
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    const meter = this.readMeter(site, config.meterAssetIndex, meterPower);
    if (meter.value === null) {
      this.status.monitoredPower = null;
      this.reservedNow = null;
      this.headroom.reset();
      return meter.fallback ? this.fallbackStep(site, config.limitableAssetIndices) : { setpoints: new Map() };
    }
    const limits = limitsNow([this.reservationLimit], undefined, site);
    const assets = this.flexOf(site, config.limitableAssetIndices, (index, asset, state) => this.freeOf(site, index, asset, state));
    this.headroom.responseSteps = this.learnResponses(site, config.limitableAssetIndices);
    this.headroom.observe(meter.value + assets.delivered);
    const window = deliveryWindow(meter.value, assets.delivered, limits, this.headroom.margin);
    const { setpoints, direction } = allocate([assets.flex], window.low, window.high);
    this.lead(site, setpoints, assets.flex, direction);

    this.status.monitoredPower = meter.value;
    this.status.consumptionLimit = limits.consumption;
    this.status.feedInLimit = limits.feedIn;
    this.reservedNow = config.monitoredCapacity - Math.abs(meter.value);
    this.noteUnlimitable(site.now, assets.unlimitable);
    this.monitorLimits(site.now, meter.value, this.reservationLimit, this.capacity);
    return this.settle({ setpoints });
  }

  protected override extras(): Record<string, unknown> {
    return { reservedPower: this.reservedNow };
  }
}
