/**
 * apparentPowerLimiter (device-model.md section 3.5, deprecated but still run): keeps the apparent
 * power at the grid meter, sqrt(P² + Q²), within `apparentPowerLimit` (VA) by limiting the active
 * power of its assets. The reactive power Q is not steered: the loop reads it from the meter and
 * allows |P| up to sqrt(limit² - Q²), less the headroom it learns for P and Q as every limiter
 * does (docs/control-loops.md). A meter that gives no reactive power counts as unreadable: the
 * loop cannot see what it limits.
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { AssetState } from '../drivers/driver';
import type { LoopStep, SiteSnapshot } from './loop';
import { allocate, deliveryWindow, Headroom, limitsNow, LoopBase, type LoopConfigOf } from './loop-base';
import { controlAlarmCodes } from './monitor';
import { meterPower } from './site';

/** The meter's reactive power, var (positive importing), or null when it cannot be read. */
export function meterReactivePower(state: AssetState | undefined): number | null {
  if (state === undefined || !state.readable || typeof state.reactivePower !== 'number') {
    return null;
  }
  return state.reactivePower;
}

/** The largest |P| that keeps sqrt(P² + Q²) within `limit`, W (0 when Q alone reaches it). */
export function activePowerWithin(limit: number, reactivePower: number): number {
  return Math.sqrt(Math.max(0, limit * limit - reactivePower * reactivePower));
}

export class ApparentPowerLimiter extends LoopBase<'apparentPowerLimiter'> {
  private readonly activeHeadroom: Headroom;
  private readonly reactiveHeadroom: Headroom;
  private apparentPower: number | null = null;

  constructor(index: number, config: LoopConfigOf<'apparentPowerLimiter'>, device: DeviceConfig) {
    super(index, 'apparentPowerLimiter', config, device);
    const steps = this.responseSteps(config.limitableAssetIndices);
    this.activeHeadroom = new Headroom(steps);
    this.reactiveHeadroom = new Headroom(steps);
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    const meter = this.readMeter(site, config.meterAssetIndex, (state) => (meterReactivePower(state) === null ? null : meterPower(state)));
    const reactive = meterReactivePower(site.assets[config.meterAssetIndex]);
    if (meter.value === null || reactive === null) {
      this.status.monitoredPower = null;
      this.apparentPower = null;
      this.activeHeadroom.reset();
      this.reactiveHeadroom.reset();
      return meter.fallback ? this.fallbackStep(site, config.limitableAssetIndices) : { setpoints: new Map() };
    }
    const assets = this.flexOf(site, config.limitableAssetIndices, (index, asset, state) => this.freeOf(site, index, asset, state));
    const responseSteps = this.learnResponses(site, config.limitableAssetIndices);
    this.activeHeadroom.responseSteps = responseSteps;
    this.reactiveHeadroom.responseSteps = responseSteps;
    this.activeHeadroom.observe(meter.value + assets.delivered);
    this.reactiveHeadroom.observe(reactive);
    // Q may grow by its headroom within the assets' response: the active power allowed is worked out for that Q.
    const allowed = activePowerWithin(config.apparentPowerLimit, Math.abs(reactive) + this.reactiveHeadroom.margin);
    // A limitPower the cloud scheduled for the loop bounds P as well.
    const limits = limitsNow([{ consumption: allowed, feedIn: allowed }], undefined, site);
    const window = deliveryWindow(meter.value, assets.delivered, limits, this.activeHeadroom.margin);
    const { setpoints, direction } = allocate([assets.flex], window.low, window.high);
    this.lead(site, setpoints, assets.flex, direction);

    this.apparentPower = Math.hypot(meter.value, reactive);
    this.status.monitoredPower = meter.value;
    this.status.consumptionLimit = limits.consumption;
    this.status.feedInLimit = limits.feedIn;
    this.noteUnlimitable(site.now, assets.unlimitable);
    // The apparent power limit is the connection's rating: beyond it is a physical overload, in the direction P flows.
    const over = this.apparentPower > config.apparentPowerLimit;
    this.monitor(controlAlarmCodes.consumptionTooHighPhysical, site.now, over && meter.value >= 0, () => 'apparent power above its limit (consuming)');
    this.monitor(controlAlarmCodes.feedInTooHighPhysical, site.now, over && meter.value < 0, () => 'apparent power above its limit (feeding in)');
    return this.settle({ setpoints });
  }

  protected override extras(): Record<string, unknown> {
    return { apparentPower: this.apparentPower, apparentPowerLimit: this.config.apparentPowerLimit };
  }
}
