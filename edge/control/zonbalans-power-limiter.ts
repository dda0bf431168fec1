/**
 * zonbalansPowerLimiter (device-model.md section 3.5; the spec names the loop, not its rule): a
 * Dutch grid-balancing feed-in limiter. The Dutch market settles imbalance per 15-minute imbalance
 * settlement period (ISP, quarter hours of the clock), so what counts is the energy fed in per ISP,
 * not each instant. The rule (docs/control-loops.md):
 *
 * - contractualLimit.feedIn is the mean feed-in allowed over each ISP: the energy budget of an
 *   ISP is feedIn × 900 s, counted net at the meter (import gives budget back);
 * - each step the loop limits its assets (as powerLimiter does, all of them one group) so that
 *   feed-in stays under the allowance: the budget left spread over the seconds left of the ISP,
 *   never below 0 nor above twice the mean limit (so a quiet start cannot be made up with a burst);
 * - contractualLimit.consumption and the cloud's scheduled limits hold at every instant;
 * - the feed-in alarm (activeControl.powerFeedInTooHigh.contractual, when monitored) is judged at
 *   the end of each ISP on its mean: raised when the mean was above the limit, cleared when the next
 *   ISP ends within it.
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { LoopStep, SiteSnapshot } from './loop';
import { allocate, deliveryWindow, Headroom, limitsNow, LoopBase, type LoopConfigOf } from './loop-base';
import { controlAlarmCodes, immediateRule } from './monitor';
import { meterPower, mostRestrictive } from './site';

/** The Dutch imbalance settlement period, ms. */
export const imbalanceSettlementPeriodMs = 15 * 60_000;
/** The allowance never goes above this multiple of the mean limit. */
export const zonbalansBurstFactor = 2;

export class ZonbalansPowerLimiter extends LoopBase<'zonbalansPowerLimiter'> {
  private readonly headroom: Headroom;
  private period: number | null = null;
  /** Net energy fed in during the current ISP, Ws (export positive). */
  private fedIn = 0;
  private lastAt: number | null = null;
  private lastFeedIn: number | null = null;

  constructor(index: number, config: LoopConfigOf<'zonbalansPowerLimiter'>, device: DeviceConfig) {
    super(index, 'zonbalansPowerLimiter', config, device);
    this.headroom = new Headroom(this.responseSteps(config.limitableAssetIndices));
  }

  /** The net energy fed in so far in the ISP that holds now, Wh. */
  get fedInWh(): number {
    return this.fedIn / 3600;
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    const meter = this.readMeter(site, config.meterAssetIndex, meterPower);
    this.account(site.now, meter.value);
    if (meter.value === null) {
      this.status.monitoredPower = null;
      this.headroom.reset();
      return meter.fallback ? this.fallbackStep(site, config.limitableAssetIndices) : { setpoints: new Map() };
    }
    const allowance = this.allowance(site.now);
    const limits = mostRestrictive(limitsNow([{ consumption: config.contractualLimit.consumption }], undefined, site), { feedIn: allowance });
    const assets = this.flexOf(site, config.limitableAssetIndices, (index, asset, state) => this.freeOf(site, index, asset, state));
    this.headroom.responseSteps = this.learnResponses(site, config.limitableAssetIndices);
    this.headroom.observe(meter.value + assets.delivered);
    const window = deliveryWindow(meter.value, assets.delivered, limits, this.headroom.margin);
    const { setpoints, direction } = allocate([assets.flex], window.low, window.high);
    this.lead(site, setpoints, assets.flex, direction);

    this.status.monitoredPower = meter.value;
    this.status.consumptionLimit = limits.consumption;
    this.status.feedInLimit = limits.feedIn;
    this.noteUnlimitable(site.now, assets.unlimitable);
    // Consumption is judged at every step (as monitorLimits does); feed-in on the quarter hour's mean (closePeriod).
    const { consumption, monitored } = config.contractualLimit;
    this.monitor(
      controlAlarmCodes.consumptionTooHighContractual,
      site.now,
      monitored && consumption !== null && meter.value > consumption,
      () => 'consumption above the contractual limit',
    );
    return this.settle({ setpoints });
  }

  /** The feed-in allowed now, W: the ISP's budget left over its seconds left, within 0 and twice the mean limit; null without a feed-in limit. */
  private allowance(now: number): number | null {
    const limit = this.config.contractualLimit.feedIn;
    if (limit === null) {
      return null;
    }
    const end = (Math.floor(now / imbalanceSettlementPeriodMs) + 1) * imbalanceSettlementPeriodMs;
    const secondsLeft = Math.max(this.sleepSeconds, (end - now) / 1000);
    const budget = (limit * imbalanceSettlementPeriodMs) / 1000 - this.fedIn;
    return Math.min(zonbalansBurstFactor * limit, Math.max(0, budget / secondsLeft));
  }

  /** Counts the energy fed in since the last step (the last reading held over the interval) and closes an ISP that ended. */
  private account(now: number, meter: number | null): void {
    const period = Math.floor(now / imbalanceSettlementPeriodMs);
    if (this.lastAt !== null && this.lastFeedIn !== null) {
      const periodStart = period * imbalanceSettlementPeriodMs;
      if (this.period === period) {
        this.fedIn += (this.lastFeedIn * (now - this.lastAt)) / 1000;
      } else {
        // The interval straddles the ISP boundary: the part before it closes the old ISP, the rest opens the new one.
        this.fedIn += (this.lastFeedIn * Math.max(0, periodStart - this.lastAt)) / 1000;
      }
    }
    if (this.period !== period) {
      if (this.period !== null) {
        this.closePeriod(now);
      }
      const periodStart = period * imbalanceSettlementPeriodMs;
      this.fedIn = this.lastAt !== null && this.lastFeedIn !== null ? (this.lastFeedIn * Math.max(0, now - Math.max(periodStart, this.lastAt))) / 1000 : 0;
      this.period = period;
    }
    this.lastAt = now;
    // An unreadable meter keeps the last reading for the energy count.
    this.lastFeedIn = meter === null ? this.lastFeedIn : -meter;
  }

  private closePeriod(now: number): void {
    const { feedIn, monitored } = this.config.contractualLimit;
    if (feedIn === null || !monitored) {
      return;
    }
    const mean = this.fedIn / (imbalanceSettlementPeriodMs / 1000);
    this.monitor(
      controlAlarmCodes.feedInTooHighContractual,
      now,
      mean > feedIn,
      () => `mean feed-in of the quarter hour ${Math.round(mean)} W against ${feedIn} W`,
      undefined,
      immediateRule,
    );
  }
}
