/**
 * powerLimiter (device-model.md section 3.5): keeps the grid connection within its feed-in and
 * consumption limits by limiting assets, the primary ones first and the secondary ones only when
 * the primary ones cannot give more. Every step it works out, from the meter and the assets'
 * own power, the total the assets may deliver, and caps them to it (docs/control-loops.md).
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { LoopStep, SiteSnapshot } from './loop';
import { Headroom, limitsNow, LoopBase, type LoopConfigOf } from './loop-base';

export class PowerLimiter extends LoopBase<'powerLimiter'> {
  private readonly headroom: Headroom;

  constructor(index: number, config: LoopConfigOf<'powerLimiter'>, device: DeviceConfig) {
    super(index, 'powerLimiter', config, device);
    this.headroom = new Headroom(this.responseSteps([...config.primaryLimitableAssetIndices, ...config.secondaryLimitableAssetIndices]));
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    return this.limitGroupsStep(site, this.headroom, {
      meterAssetIndex: config.meterAssetIndex,
      groups: [config.primaryLimitableAssetIndices, config.secondaryLimitableAssetIndices],
      limits: limitsNow([config.contractualLimit, config.physicalLimit, config.softLimit], config.limitSchedule, site),
      deadband: config.deadband,
      monitored: { contractual: config.contractualLimit, physical: config.physicalLimit },
    });
  }
}
