/**
 * generatorBatteryCharger (device-model.md section 3.5): starts the generator when the batteries'
 * mean state of charge falls to startStateOfCharge and stops it when they reach
 * stopStateOfCharge, never before the generator's minimumRuntime (minutes). While it runs, the
 * batteries charge with what the generator gives beyond the site's own consumption; when their
 * state of charge cannot be read, the generator keeps its state (a running one is not stopped
 * blind, an idle one is not started blind).
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { DriverCommand } from '../drivers/driver';
import type { LoopStep, SiteSnapshot } from './loop';
import { batteryFigures, LoopBase, type LoopConfigOf } from './loop-base';
import { controlAlarmCodes, unreadableRule } from './monitor';
import { assetPower } from './site';

const minuteMs = 60_000;

export class GeneratorBatteryCharger extends LoopBase<'generatorBatteryCharger'> {
  private running = false;
  private startedAt = 0;
  private figures: ReturnType<typeof batteryFigures> = { stateOfCharge: null, batteryPower: null };

  constructor(index: number, config: LoopConfigOf<'generatorBatteryCharger'>, device: DeviceConfig) {
    super(index, 'generatorBatteryCharger', config, device);
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    this.figures = batteryFigures(site, config.batteryAssetIndices);
    const charge = this.figures.stateOfCharge;
    const unreadable = config.batteryAssetIndices.filter((index: number) => site.assets[index]?.readable !== true);
    this.status.unreadableAssets = unreadable;
    this.monitor(
      controlAlarmCodes.sensorUnreadable,
      site.now,
      charge === null,
      () => 'battery state of charge too often unreadable',
      undefined,
      unreadableRule,
    );
    const commands = new Map<number, DriverCommand>();
    const setpoints = new Map<number, number | null>();
    if (charge === null) {
      this.status.state = 'fallback';
      return { setpoints, commands };
    }
    const generator = this.asset(config.generatorAssetIndex);
    const minimumRunMs = (generator !== undefined && 'minimumRuntime' in generator ? (generator.minimumRuntime ?? 0) : 0) * minuteMs;
    if (!this.running && charge <= config.startStateOfCharge) {
      this.running = true;
      this.startedAt = site.now;
      commands.set(config.generatorAssetIndex, { kind: 'generator', run: true });
    } else if (this.running && charge >= config.stopStateOfCharge && site.now - this.startedAt >= minimumRunMs) {
      this.running = false;
      commands.set(config.generatorAssetIndex, { kind: 'generator', run: false });
    }
    const produced = this.running ? Math.max(0, assetPower(site.assets[config.generatorAssetIndex]) ?? 0) : 0;
    const batteries = this.flexOf(site, config.batteryAssetIndices, () => 0);
    const span = batteries.flex.reduce((sum, flex) => sum + -flex.min, 0);
    for (const flex of batteries.flex) {
      // Charges with the generator's output, shared by how fast each battery may charge; released when the generator is off.
      setpoints.set(flex.index, this.running && span > 0 ? Math.max(flex.min, (-produced * -flex.min) / span) : null);
    }
    this.status.state = this.running ? 'active' : 'idle';
    this.noteUnlimitable(site.now, batteries.unlimitable);
    return { setpoints, commands };
  }

  protected override extras(): Record<string, unknown> {
    return { ...this.figures, generatorRunning: this.running };
  }
}
