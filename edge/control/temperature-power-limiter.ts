/**
 * temperaturePowerLimiter (device-model.md sections 3.5, 3.11; the rule is ours,
 * docs/control-loops.md): derates its assets on one named temperature of a temperature sensor (a
 * transformer, an inverter room). The derating table gives, for each temperature, the share of
 * nominal power the assets may run at from that temperature up; the highest step reached holds.
 *
 * - The loop acts on the temperature it expects one lead time ahead (its rising trend, weighted over
 *   about 10 s, times 10 response times of the slowest asset, at least 1 s), so a step is in force by
 *   the time the temperature reaches it; it leaves a step only when the temperature is 1 °C below
 *   it (hysteresis, so a temperature at a step does not toggle the assets).
 * - Producers are capped at the share of their nominal power, consumers draw at most it, batteries
 *   keep their dispatch within ± it.
 * - A sensor unreadable for a second in a row puts the loop in fallback (the cloud's
 *   temperaturePowerLimiter.fallback monitor reads it from the status); more than 10 % of a
 *   minute's steps unreadable raises activeControl.sensorTooOftenUnreadable.
 */
import type { DeviceConfig } from '../../contracts/device/config';
import type { LoopStep, SiteSnapshot } from './loop';
import { fallbackAfterMs, LoopBase, type LoopConfigOf } from './loop-base';
import { controlAlarmCodes, unreadableRule } from './monitor';
import { assetPower, clamp, rangeOf, steeringKindOf } from './site';

/** How far below a step the temperature must fall before the step is left, °C. */
export const deratingHysteresisC = 1;
/** The lead is this many response times of the slowest asset: a first-order asset moving 20 kW down is within 1 W of its new cap after 10. */
export const leadResponses = 10;
/** The shortest lead, ms. */
export const minimumLeadMs = 1_000;
/** The time constant of the temperature trend, ms. */
export const trendTimeConstantMs = 10_000;

interface DeratingStep {
  temperature: number;
  activePowerPercentage: number;
}

/**
 * The derating step in force at `temperature` (index into `steps`, sorted by temperature; -1: none),
 * given the one in force before: a step is entered at its temperature and left `hysteresis` below it.
 */
export function deratingLevel(steps: readonly DeratingStep[], temperature: number, previous: number, hysteresis = deratingHysteresisC): number {
  let level = -1;
  steps.forEach((step, i) => {
    const entry = i <= previous ? step.temperature - hysteresis : step.temperature;
    if (temperature >= entry) {
      level = i;
    }
  });
  return level;
}

/** The table sorted by temperature; of two steps at one temperature the lower share comes last (and so holds). */
export function sortedDerating<S extends DeratingStep>(steps: readonly S[]): S[] {
  return [...steps].sort((a, b) => a.temperature - b.temperature || b.activePowerPercentage - a.activePowerPercentage);
}

/** The share of nominal power a table allows at `temperature` read plainly (the highest step reached; no lead, no hysteresis), %; null below the first step. */
export function deratedShare(steps: readonly DeratingStep[], temperature: number): number | null {
  const sorted = sortedDerating(steps);
  return sorted[deratingLevel(sorted, temperature, -1)]?.activePowerPercentage ?? null;
}

export class TemperaturePowerLimiter extends LoopBase<'temperaturePowerLimiter'> {
  private readonly steps: DeratingStep[];
  private readonly leadMs: number;
  private level = -1;
  private temperature: number | null = null;
  private last: { at: number; value: number } | null = null;
  /** °C/s, exponentially weighted. */
  private trend = 0;
  private sensorBlindSince: number | null = null;

  constructor(index: number, config: LoopConfigOf<'temperaturePowerLimiter'>, device: DeviceConfig) {
    super(index, 'temperaturePowerLimiter', config, device);
    this.steps = sortedDerating(config.derating);
    const slowest = Math.max(0, ...config.limitableAssetIndices.map((i: number) => this.asset(i)?.powerResponseMs ?? 0));
    this.leadMs = Math.max(minimumLeadMs, leadResponses * slowest);
  }

  /** The share of nominal power allowed now, % (null: not derating). */
  get percentage(): number | null {
    return this.steps[this.level]?.activePowerPercentage ?? null;
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    const sensor = config.temperatureSensorAssetIndex;
    const state = site.assets[sensor];
    const read = state?.readable === true ? state.temperatures?.[config.temperatureName] : undefined;
    const temperature = typeof read === 'number' && Number.isFinite(read) ? read : null;
    this.monitor(
      controlAlarmCodes.sensorUnreadable,
      site.now,
      temperature === null,
      () => `temperature sensor ${sensor} too often unreadable`,
      sensor,
      unreadableRule,
    );
    this.status.unreadableAssets = temperature === null ? [sensor] : [];
    this.temperature = temperature;
    if (temperature === null) {
      this.last = null;
      this.sensorBlindSince ??= site.now;
      this.status.monitoredPower = null;
      return site.now - this.sensorBlindSince >= fallbackAfterMs ? this.fallbackStep(site, config.limitableAssetIndices) : { setpoints: new Map() };
    }
    this.sensorBlindSince = null;
    this.learnTrend(site.now, temperature);
    const expected = temperature + (Math.max(0, this.trend) * this.leadMs) / 1000;
    this.level = deratingLevel(this.steps, expected, this.level);
    const percentage = this.percentage;

    const setpoints = new Map<number, number | null>();
    const unlimitable: number[] = [];
    let produced = 0;
    let allowed = 0;
    for (const index of config.limitableAssetIndices) {
      const asset = this.asset(index);
      const assetState = site.assets[index];
      const nominal = asset === undefined ? undefined : (asset.nominalActivePower ?? rangeOf(asset, assetState)?.max);
      if (asset === undefined || asset.readOnly || nominal === undefined || assetState?.readable !== true) {
        unlimitable.push(index);
      }
      produced += assetPower(assetState) ?? 0;
      if (asset === undefined || asset.readOnly || nominal === undefined) {
        continue;
      }
      if (percentage === null) {
        setpoints.set(index, null);
        continue;
      }
      const cap = (nominal * percentage) / 100;
      const kind = steeringKindOf(asset);
      // What the assets may deliver in total (consumers deliver none).
      allowed += kind === 'consumer' ? 0 : cap;
      const baseline = site.baseline?.[index] ?? 0;
      setpoints.set(index, kind === 'consumer' ? -cap : kind === 'battery' ? clamp(baseline, { min: -cap, max: cap }) : cap);
    }

    this.status.monitoredPower = produced;
    this.status.consumptionLimit = null;
    this.status.feedInLimit = percentage === null ? null : allowed;
    this.noteUnlimitable(site.now, unlimitable);
    return this.settle({ setpoints });
  }

  private learnTrend(now: number, temperature: number): void {
    if (this.last !== null && now > this.last.at) {
      const dt = now - this.last.at;
      const slope = ((temperature - this.last.value) * 1000) / dt;
      this.trend += (slope - this.trend) * Math.min(1, dt / trendTimeConstantMs);
    }
    this.last = { at: now, value: temperature };
  }

  protected override extras(): Record<string, unknown> {
    return { temperature: this.temperature };
  }
}
