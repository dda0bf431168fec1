/**
 * powerLimiter (device-model.md section 3.5): keeps the grid connection within its feed-in and
 * consumption limits by limiting assets, the primary ones first and the secondary ones only when
 * the primary ones cannot give more. Every step it works out, from the meter and the assets'
 * own power, the total the assets may deliver, and caps them to it (docs/control-loops.md).
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { LoopStep, SiteSnapshot } from './loop';
import { allocate, deliveryWindow, Headroom, limitsNow, LoopBase, type LoopConfigOf } from './loop-base';
import { meterPower } from './site';

export class PowerLimiter extends LoopBase<'powerLimiter'> {
  private readonly headroom: Headroom;
  private readonly steered: number[];

  constructor(index: number, config: LoopConfigOf<'powerLimiter'>, device: DeviceConfig) {
    super(index, 'powerLimiter', config, device);
    this.steered = [...config.primaryLimitableAssetIndices, ...config.secondaryLimitableAssetIndices];
    this.headroom = new Headroom(this.responseSteps(this.steered));
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    const meter = this.readMeter(site, config.meterAssetIndex, meterPower);
    if (meter.value === null) {
      this.status.monitoredPower = null;
      this.headroom.reset();
      return meter.fallback ? this.fallbackStep(site, this.steered) : { setpoints: new Map() };
    }
    const limits = limitsNow([config.contractualLimit, config.physicalLimit, config.softLimit], config.limitSchedule, site);
    const primary = this.flexOf(site, config.primaryLimitableAssetIndices, (index, asset, state) => this.freeOf(site, index, asset, state));
    const secondary = this.flexOf(site, config.secondaryLimitableAssetIndices, (index, asset, state) => this.freeOf(site, index, asset, state));
    const delivered = primary.delivered + secondary.delivered;
    this.headroom.responseSteps = this.learnResponses(site, this.steered);
    this.headroom.observe(meter.value + delivered);
    const window = deliveryWindow(meter.value, delivered, limits, config.deadband + this.headroom.margin);
    const { setpoints, direction } = allocate([primary.flex, secondary.flex], window.low, window.high);
    this.lead(site, setpoints, [...primary.flex, ...secondary.flex], direction);

    this.status.monitoredPower = meter.value;
    this.status.consumptionLimit = limits.consumption;
    this.status.feedInLimit = limits.feedIn;
    this.noteUnlimitable(site.now, [...primary.unlimitable, ...secondary.unlimitable]);
    this.monitorLimits(site.now, meter.value, config.contractualLimit, config.physicalLimit);
    return this.settle({ setpoints });
  }
}
