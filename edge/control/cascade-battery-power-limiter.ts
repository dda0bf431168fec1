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
import { batteryFigures, Headroom, limitsNow, LoopBase, type LoopConfigOf } from './loop-base';

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
    return this.limitGroupsStep(site, this.headroom, {
      meterAssetIndex: config.meterAssetIndex,
      groups: [config.primaryBatteryAssetIndices, config.secondaryBatteryAssetIndices],
      limits: limitsNow([config.contractualLimit], undefined, site),
      deadband: config.deadband,
      monitored: { contractual: config.contractualLimit },
    });
  }

  protected override extras(): Record<string, unknown> {
    return this.figures;
  }
}
