/**
 * proportionalPeakShaver (device-model.md section 3.5): discharges batteries in proportion (gain)
 * to how far the meter is above the limit. Each step moves the batteries' total discharge by gain
 * times the meter's distance to the limit (less the deadband and the headroom), never below 0 nor
 * above what they can give; at 0 the batteries are released.
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { LoopStep, SiteSnapshot } from './loop';
import { Headroom, limitsNow, LoopBase, type LoopConfigOf } from './loop-base';
import { meterPower } from './site';

export class ProportionalPeakShaver extends LoopBase<'proportionalPeakShaver'> {
  private readonly headroom: Headroom;

  constructor(index: number, config: LoopConfigOf<'proportionalPeakShaver'>, device: DeviceConfig) {
    super(index, 'proportionalPeakShaver', config, device);
    this.headroom = new Headroom(this.responseSteps(config.batteryAssetIndices));
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    const meter = this.readMeter(site, config.meterAssetIndex, meterPower);
    if (meter.value === null) {
      this.status.monitoredPower = null;
      this.headroom.reset();
      return meter.fallback ? this.fallbackStep(site, config.batteryAssetIndices) : { setpoints: new Map() };
    }
    const limits = limitsNow([{ consumption: config.activePowerLimit }], config.limitSchedule, site);
    // The shaver only discharges: its batteries' room is 0..max.
    const batteries = this.flexOf(site, config.batteryAssetIndices, (_index, _asset, state) => Math.max(0, state.activePower ?? 0));
    this.headroom.observe(meter.value + batteries.delivered);
    const setpoints = new Map<number, number | null>();
    if (limits.consumption !== null) {
      const target = limits.consumption - config.deadband - this.headroom.margin;
      const discharging = batteries.flex.reduce((sum, flex) => sum + flex.free, 0);
      const capacity = batteries.flex.reduce((sum, flex) => sum + Math.max(0, flex.max), 0);
      const wanted = Math.min(capacity, Math.max(0, discharging + config.gain * (meter.value - target)));
      for (const flex of batteries.flex) {
        setpoints.set(flex.index, wanted <= 0 || capacity <= 0 ? null : (wanted * Math.max(0, flex.max)) / capacity);
      }
    } else {
      for (const flex of batteries.flex) {
        setpoints.set(flex.index, null);
      }
    }
    this.status.monitoredPower = meter.value;
    this.status.consumptionLimit = limits.consumption;
    this.status.feedInLimit = null;
    this.noteUnlimitable(site.now, batteries.unlimitable);
    this.monitorLimits(site.now, meter.value, { consumption: config.activePowerLimit, feedIn: null, monitored: true }, undefined);
    return this.settle({ setpoints });
  }

  protected override extras(): Record<string, unknown> {
    return {};
  }
}
