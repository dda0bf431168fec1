/**
 * cascadeBatteryPowerLimiter (device-model.md section 3.5): keeps the grid connection within its
 * contractual limits with two groups of batteries. The batteries follow their baseline (the
 * cloud's dispatch, or idle) while that keeps the meter within the limits; otherwise the primary
 * batteries move first, and the secondary ones only for what the primary ones cannot give (full,
 * empty, at their power limit or unreadable). The two index lists never overlap (the config
 * check of contracts/device/control-loops.ts). docs/control-loops.md has the rule.
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { LoopStep, SiteSnapshot } from './loop';
import { allocate, batteryFigures, deliveryWindow, Headroom, limitsNow, LoopBase, type LoopConfigOf } from './loop-base';
import { meterPower } from './site';

export class CascadeBatteryPowerLimiter extends LoopBase<'cascadeBatteryPowerLimiter'> {
  private readonly headroom: Headroom;
  private readonly batteries: number[];
  private figures: ReturnType<typeof batteryFigures> = { stateOfCharge: null, batteryPower: null };

  constructor(index: number, config: LoopConfigOf<'cascadeBatteryPowerLimiter'>, device: DeviceConfig) {
    super(index, 'cascadeBatteryPowerLimiter', config, device);
    this.batteries = [...config.primaryBatteryAssetIndices, ...config.secondaryBatteryAssetIndices];
    this.headroom = new Headroom(this.responseSteps(this.batteries));
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    this.figures = batteryFigures(site, this.batteries);
    const meter = this.readMeter(site, config.meterAssetIndex, meterPower);
    if (meter.value === null) {
      this.status.monitoredPower = null;
      this.headroom.reset();
      return meter.fallback ? this.fallbackStep(site, this.batteries) : { setpoints: new Map() };
    }
    const limits = limitsNow([config.contractualLimit], undefined, site);
    const free = this.freeOf.bind(this, site);
    const primary = this.flexOf(site, config.primaryBatteryAssetIndices, free);
    const secondary = this.flexOf(site, config.secondaryBatteryAssetIndices, free);
    const delivered = primary.delivered + secondary.delivered;
    this.headroom.responseSteps = this.learnResponses(site, this.batteries);
    this.headroom.observe(meter.value + delivered);
    const window = deliveryWindow(meter.value, delivered, limits, config.deadband + this.headroom.margin);
    const { setpoints, direction } = allocate([primary.flex, secondary.flex], window.low, window.high);
    this.lead(site, setpoints, [...primary.flex, ...secondary.flex], direction);

    this.status.monitoredPower = meter.value;
    this.status.consumptionLimit = limits.consumption;
    this.status.feedInLimit = limits.feedIn;
    this.noteUnlimitable(site.now, [...primary.unlimitable, ...secondary.unlimitable]);
    this.monitorLimits(site.now, meter.value, config.contractualLimit, undefined);
    return this.settle({ setpoints });
  }

  protected override extras(): Record<string, unknown> {
    return this.figures;
  }
}
