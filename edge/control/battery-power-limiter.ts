/**
 * batteryPowerLimiter (device-model.md section 3.5): keeps the grid connection within its
 * contractual (and physical) limits with batteries. The batteries follow their baseline (the
 * cloud's dispatch, or idle) while that keeps the meter within the limits; otherwise the loop sets
 * them to the nearest total that does (docs/control-loops.md).
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { LoopStep, SiteSnapshot } from './loop';
import { allocate, batteryFigures, deliveryWindow, Headroom, limitsNow, LoopBase, type LoopConfigOf } from './loop-base';
import { meterPower } from './site';

export class BatteryPowerLimiter extends LoopBase<'batteryPowerLimiter'> {
  private readonly headroom: Headroom;
  private figures: ReturnType<typeof batteryFigures> = { stateOfCharge: null, batteryPower: null };

  constructor(index: number, config: LoopConfigOf<'batteryPowerLimiter'>, device: DeviceConfig) {
    super(index, 'batteryPowerLimiter', config, device);
    this.headroom = new Headroom(this.responseSteps(config.batteryAssetIndices));
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    this.figures = batteryFigures(site, config.batteryAssetIndices);
    const meter = this.readMeter(site, config.meterAssetIndex, meterPower);
    if (meter.value === null) {
      this.status.monitoredPower = null;
      this.headroom.reset();
      return meter.fallback ? this.fallbackStep(site, config.batteryAssetIndices) : { setpoints: new Map() };
    }
    const limits = limitsNow([config.contractualLimit, config.physicalLimit], config.limitSchedule, site);
    const batteries = this.flexOf(site, config.batteryAssetIndices, (index, asset, state) => this.freeOf(site, index, asset, state));
    this.headroom.responseSteps = this.learnResponses(site, config.batteryAssetIndices);
    this.headroom.observe(meter.value + batteries.delivered);
    const window = deliveryWindow(meter.value, batteries.delivered, limits, config.deadband + this.headroom.margin);
    const { setpoints, direction } = allocate([batteries.flex], window.low, window.high);
    this.lead(site, setpoints, batteries.flex, direction);

    this.status.monitoredPower = meter.value;
    this.status.consumptionLimit = limits.consumption;
    this.status.feedInLimit = limits.feedIn;
    this.noteUnlimitable(site.now, batteries.unlimitable);
    this.monitorLimits(site.now, meter.value, config.contractualLimit, config.physicalLimit);
    return this.settle({ setpoints });
  }

  protected override extras(): Record<string, unknown> {
    return this.figures;
  }
}
