/**
 * batteryPowerLimiter (device-model.md section 3.5): keeps the grid connection within its
 * contractual (and physical) limits with batteries. The batteries follow their baseline (the
 * cloud's dispatch, or idle) while that keeps the meter within the limits; otherwise the loop sets
 * them to the nearest total that does (docs/control-loops.md).
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { LoopStep, SiteSnapshot } from './loop';
import { batteryFigures, Headroom, limitsNow, LoopBase, type LoopConfigOf } from './loop-base';

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
    return this.limitGroupsStep(site, this.headroom, {
      meterAssetIndex: config.meterAssetIndex,
      groups: [config.batteryAssetIndices],
      limits: limitsNow([config.contractualLimit, config.physicalLimit], config.limitSchedule, site),
      deadband: config.deadband,
      monitored: { contractual: config.contractualLimit, physical: config.physicalLimit },
    });
  }

  protected override extras(): Record<string, unknown> {
    return this.figures;
  }
}
