/**
 * currentLimiter and batteryCurrentLimiter (device-model.md section 3.5): keep the phase currents
 * at the meter (A) within consumption and feed-in limits, by limiting assets (currentLimiter) or
 * with batteries (batteryCurrentLimiter). The highest phase current's headroom, times three phases
 * at 230 V, is the power the assets may still add or must take away (docs/control-loops.md).
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { LoopStep, SiteSnapshot } from './loop';
import { allocate, batteryFigures, Headroom, LoopBase, type LoopConfigOf } from './loop-base';
import { controlAlarmCodes } from './monitor';
import { meterCurrents, wattsPerAmpere } from './site';

type CurrentLoopType = 'currentLimiter' | 'batteryCurrentLimiter';

abstract class CurrentLoop<T extends CurrentLoopType> extends LoopBase<T> {
  private readonly headroom: Headroom;
  protected currents: [number, number, number] | null = null;

  constructor(index: number, type: T, config: LoopConfigOf<T>, device: DeviceConfig) {
    super(index, type, config, device);
    this.headroom = new Headroom(this.responseSteps(this.steered()));
  }

  protected abstract steered(): readonly number[];

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    const limit = config.contractualLimit;
    const meter = this.readMeter(site, config.meterAssetIndex, (state) => {
      const currents = meterCurrents(state);
      return currents === null ? null : Math.max(...currents);
    });
    this.currents = meterCurrents(site.assets[config.meterAssetIndex]);
    const currents = this.currents;
    if (meter.value === null || currents === null) {
      this.status.monitoredPower = null;
      this.headroom.reset();
      return meter.fallback ? this.fallbackStep(site, this.steered()) : { setpoints: new Map() };
    }
    const importing = Math.max(...currents);
    const exporting = Math.max(...currents.map((current) => -current));
    this.headroom.observe(importing);
    const keep = config.deadband + this.headroom.margin;
    const steered = this.flexOf(site, this.steered(), (index, asset, state) => this.freeOf(site, index, asset, state));
    this.headroom.responseSteps = this.learnResponses(site, this.steered());
    const perAmpere = wattsPerAmpere();
    // How many W the assets may still take from the grid (consumption) or push into it (feed-in).
    const consumptionRoom = limit.consumption === null ? Infinity : (limit.consumption - keep - importing) * perAmpere;
    const feedInRoom = limit.feedIn === null ? Infinity : (limit.feedIn - keep - exporting) * perAmpere;
    const { setpoints, direction } = allocate([steered.flex], steered.delivered - consumptionRoom, steered.delivered + feedInRoom);
    this.lead(site, setpoints, steered.flex, direction);

    const power = site.assets[config.meterAssetIndex]?.activePower;
    this.status.monitoredPower = typeof power === 'number' ? power : null;
    this.status.consumptionLimit = limit.consumption === null ? null : limit.consumption * perAmpere;
    this.status.feedInLimit = limit.feedIn === null ? null : limit.feedIn * perAmpere;
    this.noteUnlimitable(site.now, steered.unlimitable);
    if (limit.monitored) {
      this.monitor(
        controlAlarmCodes.consumptionCurrentTooHigh,
        site.now,
        limit.consumption !== null && importing > limit.consumption,
        () => 'phase current above the consumption limit',
      );
      this.monitor(
        controlAlarmCodes.feedInCurrentTooHigh,
        site.now,
        limit.feedIn !== null && exporting > limit.feedIn,
        () => 'phase current above the feed-in limit',
      );
    }
    return this.settle({ setpoints });
  }

  protected currentExtras(): Record<string, unknown> {
    const [l1, l2, l3] = this.currents ?? [null, null, null];
    return { phaseCurrent: { l1, l2, l3 }, currentLimit: this.config.contractualLimit.consumption };
  }
}

export class CurrentLimiter extends CurrentLoop<'currentLimiter'> {
  constructor(index: number, config: LoopConfigOf<'currentLimiter'>, device: DeviceConfig) {
    super(index, 'currentLimiter', config, device);
  }

  protected steered(): readonly number[] {
    return this.config.limitableAssetIndices;
  }

  protected override extras(): Record<string, unknown> {
    return this.currentExtras();
  }
}

export class BatteryCurrentLimiter extends CurrentLoop<'batteryCurrentLimiter'> {
  private figures: ReturnType<typeof batteryFigures> = { stateOfCharge: null, batteryPower: null };

  constructor(index: number, config: LoopConfigOf<'batteryCurrentLimiter'>, device: DeviceConfig) {
    super(index, 'batteryCurrentLimiter', config, device);
  }

  protected steered(): readonly number[] {
    return this.config.batteryAssetIndices;
  }

  protected override control(site: SiteSnapshot): LoopStep {
    this.figures = batteryFigures(site, this.config.batteryAssetIndices);
    return super.control(site);
  }

  protected override extras(): Record<string, unknown> {
    return { ...this.currentExtras(), ...this.figures };
  }
}
