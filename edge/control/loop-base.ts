/**
 * What every control loop of this folder shares: its status report, its alarms, the headroom it
 * keeps below a limit, the fallback when its meter goes unreadable, and the allocation of a power
 * change over its assets (primary ones first).
 */
import type { AssetConfig } from '../../contracts/device/assets';
import type { DeviceConfig } from '../../contracts/device/config';
import type { ControlLoop as ControlLoopConfig, ControlLoopType } from '../../contracts/device/control-loops';
import type { controlLoopStatusFields, DeviceReport, Shape } from '../../contracts/hub/reports';
import type { AssetState } from '../drivers/driver';
import type { ControlLoop, LoopStep, SiteSnapshot } from './loop';
import { exceededRule, StepMonitor, unreadableRule, controlAlarmCodes, type ControlAlarmCode, type MonitorRule } from './monitor';
import { fallbackOf } from './setpoints';
import { assetPower, meterPower, mostRestrictive, rangeOf, steeringKindOf, windowAt, type GridLimits, type SteeringKind } from './site';

export type LoopConfigOf<T extends ControlLoopType> = Extract<ControlLoopConfig, { type: T }>;
type BaseStatus = { -readonly [K in keyof Shape<typeof controlLoopStatusFields>]: Shape<typeof controlLoopStatusFields>[K] };

/** A meter unreadable for this long in a row puts the loop into its fallback, ms. */
export const fallbackAfterMs = 1_000;

/**
 * The headroom a loop keeps below a limit: its deadband plus `sigmas` standard deviations of how
 * far the power it does not steer moves within its assets' response time. The spread is learned
 * from the step-to-step changes: their plain mean square over the first 1/weight changes (the n-th
 * weighs 1/n, so a loop knows its site's noise within seconds of starting), an exponentially
 * weighted one (about the last 1000 steps) from then on.
 */
export class Headroom {
  private variance = 0;
  private last: number | null = null;
  private changes = 0;
  static readonly sigmas = 3.5;
  /** How fast the spread is learned once started: the weight of a new step (about the last 1000 steps). */
  static readonly weight = 0.001;

  /** How many control steps the steered assets take to answer (their response time over the step); the loop may update it as it learns. */
  constructor(public responseSteps: number) {}

  observe(value: number): void {
    if (this.last !== null) {
      const change = value - this.last;
      // A jump much larger than the spread (a load switching) is taken in at a capped size, so one event does not widen the headroom for minutes.
      const capped = this.variance > 0 ? Math.min(change * change, 25 * this.variance) : change * change;
      this.changes += 1;
      this.variance += Math.max(Headroom.weight, 1 / this.changes) * (capped - this.variance);
    }
    this.last = value;
  }

  /** W (or A): what to keep free below the limit besides the deadband. */
  get margin(): number {
    return Headroom.sigmas * Math.sqrt(this.variance * Math.max(1, this.responseSteps));
  }

  reset(): void {
    this.last = null;
  }
}

/**
 * How far an asset moves towards a setpoint in one control step, learned from what it does: after
 * a step in which the loop asked it for `s` while it delivered `p`, it delivers `p'`, so it covered
 * `(p' − p) / (s − p)` of the gap. Taken in only when the gap was at least `minimumGapW` and in a
 * direction the asset always follows (a producer capped down, a consumer's floor towards 0, a
 * battery either way), and when the asset moved towards the setpoint; weighted exponentially (about
 * the last ten such steps). Until it has seen one it gives the share its powerResponseMs says.
 */
export class ResponseLearner {
  static readonly weight = 0.1;
  private learned: number | null = null;
  private lastPower: number | null = null;

  constructor(
    readonly declaredShare: number,
    private readonly minimumGapW: number,
    private readonly kind: SteeringKind,
  ) {}

  /** `power`: what the asset delivers now; `asked`: what the loop asked it for at the step before (null or undefined: nothing). */
  observe(power: number | null, asked: number | null | undefined): void {
    const before = this.lastPower;
    this.lastPower = power;
    if (before === null || power === null || asked === null || asked === undefined) {
      return;
    }
    const gap = asked - before;
    if (Math.abs(gap) < this.minimumGapW || (this.kind === 'producer' && gap > 0) || (this.kind === 'consumer' && gap < 0)) {
      return;
    }
    const share = (power - before) / gap;
    if (!(share > 0)) {
      return;
    }
    const taken = Math.min(1, share);
    this.learned = this.learned === null ? taken : this.learned + ResponseLearner.weight * (taken - this.learned);
  }

  /** The share of the gap the asset covers in one step (learned, else declared), 0 to 1. */
  get share(): number {
    return this.learned ?? this.declaredShare;
  }

  /** The same as control steps of a first-order response (0 for an asset that answers within the step). */
  get steps(): number {
    const share = this.share;
    return share >= 1 ? 0 : -1 / Math.log(1 - share);
  }
}

/** One asset a loop may move: where it is free, and how far it may go. */
export interface Flex {
  index: number;
  /** What it delivers when the loop leaves it alone, W. */
  free: number;
  min: number;
  max: number;
}

/**
 * Setpoints that bring the total of the assets into [low, high] while moving them as little as
 * possible: groups in order (primary, then secondary), within a group in proportion to how far
 * each can move. Assets left alone are released (null). `unmet` is what no asset could take, W
 * (positive: still too high, negative: still too low). `direction` is the way the limits moved the
 * assets: -1 towards less delivery (the total was above `high`), 1 towards more, 0 not at all.
 */
export function allocate(
  groups: readonly (readonly Flex[])[],
  low: number,
  high: number,
): { setpoints: Map<number, number | null>; unmet: number; direction: -1 | 0 | 1 } {
  const setpoints = new Map<number, number | null>();
  const all = groups.flat();
  const total = all.reduce((sum, flex) => sum + flex.free, 0);
  let change = total > high ? high - total : total < low ? low - total : 0;
  const direction = change < 0 ? -1 : change > 0 ? 1 : 0;
  for (const group of groups) {
    const room = group.reduce((sum, flex) => sum + Math.max(0, change < 0 ? flex.free - flex.min : flex.max - flex.free), 0);
    if (change === 0 || room <= 0) {
      for (const flex of group) {
        setpoints.set(flex.index, null);
      }
      continue;
    }
    const taken = change < 0 ? Math.max(change, -room) : Math.min(change, room);
    for (const flex of group) {
      const own = Math.max(0, change < 0 ? flex.free - flex.min : flex.max - flex.free);
      setpoints.set(flex.index, flex.free + (taken * own) / room);
    }
    change -= taken;
  }
  return { setpoints, unmet: change === 0 ? 0 : -change, direction };
}

/**
 * The share of the way an asset with a first-order response of `responseMs` moves towards its
 * setpoint within `stepMs` (1 for an asset that responds within the step).
 */
export function responseShare(stepMs: number, responseMs: number): number {
  return responseMs <= 0 ? 1 : 1 - Math.exp(-stepMs / responseMs);
}

/**
 * Ramp-aware setpoints: an asset follows a setpoint with its `powerResponseMs` lag, covering only
 * `responseShare` of the gap in one control step, so a setpoint that is where the asset should be
 * leaves the site past its limit for about that response time. Asked instead for its power now plus
 * the gap divided by that share (within its Flex range), it is where the loop wants it by the next
 * step. Only for assets moved in `direction` (the way the limits asked, allocate's `direction`):
 * an asset faster than its powerResponseMs says then goes too far only to the safe side, and the
 * next step asks it back without lead. Changes `setpoints` in place.
 */
export function leadSetpoints(
  setpoints: Map<number, number | null>,
  flex: readonly Flex[],
  direction: -1 | 0 | 1,
  powerOf: (index: number) => number | null,
  shareOf: (index: number) => number,
): void {
  if (direction === 0) {
    return;
  }
  for (const entry of flex) {
    const target = setpoints.get(entry.index);
    const power = powerOf(entry.index);
    if (target === null || target === undefined || power === null) {
      continue;
    }
    const gap = target - power;
    const share = shareOf(entry.index);
    if (gap * direction <= 0 || share <= 0 || share >= 1) {
      continue;
    }
    setpoints.set(entry.index, Math.min(entry.max, Math.max(entry.min, power + gap / share)));
  }
}

/** The limits a loop enforces now: its own, its limit schedule, and what the cloud scheduled for it, the most restrictive per direction. */
export function limitsNow(
  own: readonly (Partial<GridLimits> | null | undefined)[],
  schedule: readonly { start: string; end: string; weekdays?: readonly number[]; consumption: number | null; feedIn: number | null }[] | undefined,
  site: SiteSnapshot,
): GridLimits {
  return mostRestrictive(...own, windowAt(schedule, site.now), site.scheduledLimit);
}

export abstract class LoopBase<T extends ControlLoopType> implements ControlLoop {
  readonly sleepSeconds: number;
  protected status: BaseStatus = { state: 'idle' };
  /** What the loop asked each asset for last (null: released). */
  protected readonly held = new Map<number, number | null>();
  protected readonly device: DeviceConfig;
  private readonly pending: DeviceReport[] = [];
  private readonly monitors = new Map<ControlAlarmCode, Map<number, StepMonitor>>();
  private unreadableSince: number | null = null;
  private readonly responses = new Map<number, ResponseLearner>();

  constructor(
    readonly index: number,
    readonly type: T,
    readonly config: LoopConfigOf<T>,
    device: DeviceConfig,
  ) {
    this.sleepSeconds = config.controlLoopSleep;
    this.device = device;
  }

  step(site: SiteSnapshot): LoopStep {
    const started = performance.now();
    const step = this.control(site);
    for (const [index, value] of step.setpoints) {
      this.held.set(index, value);
    }
    this.status.iterationMs = performance.now() - started;
    return step;
  }

  protected abstract control(site: SiteSnapshot): LoopStep;

  /** The loop's own fields of its status report (contracts/hub/reports.ts controlLoopStatusExtras). */
  protected extras(): Record<string, unknown> {
    return {};
  }

  statusReport(at: Date): DeviceReport {
    // The type is `${type}Status`, whose fields are controlLoopStatusFields plus this loop's extras.
    return { type: `${this.type}Status`, at: at.toISOString(), controller: this.index, observations: { ...this.status, ...this.extras() } } as DeviceReport;
  }

  drainReports(_at: Date): DeviceReport[] {
    return this.pending.splice(0, this.pending.length);
  }

  async close(): Promise<void> {
    // Nothing held by default.
  }

  /** Records a monitor's verdict of this step; queues an alarm report when it raises or clears (`describe` is called only then). */
  protected monitor(code: ControlAlarmCode, now: number, bad: boolean, describe: () => string, asset?: number, rule: MonitorRule = exceededRule): void {
    let byAsset = this.monitors.get(code);
    if (byAsset === undefined) {
      byAsset = new Map();
      this.monitors.set(code, byAsset);
    }
    const key = asset ?? -1;
    let monitor = byAsset.get(key);
    if (monitor === undefined) {
      monitor = new StepMonitor(code, rule, this.sleepSeconds * 1000);
      byAsset.set(key, monitor);
    }
    if (monitor.record(now, bad)) {
      const report = monitor.report(new Date(now), this.index, describe());
      this.pending.push(asset === undefined ? report : { ...report, asset });
    }
  }

  protected asset(index: number): AssetConfig | undefined {
    return this.device.assets[index];
  }

  /**
   * Reads the loop's meter, recording the unreadable monitor. Returns null when the meter is
   * unreadable; `fallback` is true once it has been so for fallbackAfterMs in a row.
   */
  protected readMeter(
    site: SiteSnapshot,
    meterIndex: number,
    read: (state: AssetState | undefined) => number | null,
  ): { value: number | null; fallback: boolean } {
    const value = read(site.assets[meterIndex]);
    const unreadable = value === null;
    this.monitor(controlAlarmCodes.meterUnreadable, site.now, unreadable, () => `meter ${meterIndex} too often unreadable`, meterIndex, unreadableRule);
    this.status.unreadableAssets = unreadable ? [meterIndex] : [];
    if (!unreadable) {
      this.unreadableSince = null;
      return { value, fallback: false };
    }
    this.unreadableSince ??= site.now;
    return { value: null, fallback: site.now - this.unreadableSince >= fallbackAfterMs };
  }

  /**
   * The safe setpoints while the meter is unreadable: each asset's fallback (fallbackSetpoint or
   * fallbackLimit); a battery without one idles; a producer or consumer without one is held where
   * the loop last had it, or at what it delivered last (so it cannot grow while the loop is blind).
   */
  protected fallbackStep(site: SiteSnapshot, indices: readonly number[]): LoopStep {
    const setpoints = new Map<number, number | null>();
    for (const index of indices) {
      const asset = this.asset(index);
      if (asset === undefined) {
        continue;
      }
      const fallback = fallbackOf(asset, this.device);
      if (fallback !== undefined) {
        setpoints.set(index, fallback);
      } else if (steeringKindOf(asset) === 'battery') {
        setpoints.set(index, 0);
      } else {
        const held = this.held.get(index);
        const measured = assetPower(site.assets[index]);
        if (held === undefined || held === null) {
          if (measured !== null) {
            setpoints.set(index, measured);
          }
        }
      }
    }
    this.status.state = 'fallback';
    return { setpoints };
  }

  /**
   * The assets the loop can move now as Flex entries (readable, writable, with a range), and the
   * power they deliver in total; the others are reported unlimitable.
   */
  protected flexOf(
    site: SiteSnapshot,
    indices: readonly number[],
    free: (index: number, asset: AssetConfig, state: AssetState) => number,
  ): { flex: Flex[]; delivered: number; unlimitable: number[] } {
    const flex: Flex[] = [];
    const unlimitable: number[] = [];
    let delivered = 0;
    for (const index of indices) {
      const asset = this.asset(index);
      const state = site.assets[index];
      const power = assetPower(state);
      const range = asset === undefined ? null : rangeOf(asset, state);
      if (asset === undefined || state === undefined || power === null || range === null || asset.readOnly) {
        unlimitable.push(index);
        continue;
      }
      delivered += power;
      const kind = steeringKindOf(asset);
      // A producer is never asked below 0, a consumer never above 0.
      const min = kind === 'producer' ? Math.max(0, range.min) : range.min;
      const max = kind === 'consumer' ? Math.min(0, range.max) : range.max;
      flex.push({ index, free: Math.min(max, Math.max(min, free(index, asset, state))), min, max });
    }
    return { flex, delivered, unlimitable };
  }

  /** What an asset delivers when the loop leaves it alone: the baseline for a battery, what a producer could give, what a consumer may draw. */
  protected freeOf(site: SiteSnapshot, index: number, asset: AssetConfig, state: AssetState): number {
    const power = state.activePower ?? 0;
    const holding = this.held.get(index) !== undefined && this.held.get(index) !== null;
    const range = rangeOf(asset, state);
    switch (steeringKindOf(asset)) {
      case 'battery':
        return site.baseline?.[index] ?? (holding ? 0 : power);
      case 'producer':
        return state.availablePower ?? (holding ? (range?.max ?? power) : power);
      case 'consumer':
        return holding ? (range?.min ?? power) : power;
      default:
        return power;
    }
  }

  /** Records the limit monitors of a measured power (meter sign) against contractual and physical limits that are monitored. */
  protected monitorLimits(now: number, power: number, contractual: LimitPair | undefined, physical: LimitPair | undefined): void {
    const over = (limit: LimitPair | undefined, direction: 'consumption' | 'feedIn'): boolean => {
      const value = limit?.[direction];
      if (limit === undefined || !limit.monitored || value === null || value === undefined) {
        return false;
      }
      return direction === 'consumption' ? power > value : -power > value;
    };
    this.monitor(controlAlarmCodes.consumptionTooHighContractual, now, over(contractual, 'consumption'), () => 'consumption above the contractual limit');
    this.monitor(controlAlarmCodes.feedInTooHighContractual, now, over(contractual, 'feedIn'), () => 'feed-in above the contractual limit');
    if (physical !== undefined) {
      this.monitor(controlAlarmCodes.consumptionTooHighPhysical, now, over(physical, 'consumption'), () => 'consumption above the physical limit');
      this.monitor(controlAlarmCodes.feedInTooHighPhysical, now, over(physical, 'feedIn'), () => 'feed-in above the physical limit');
    }
  }

  /** Records the unlimitable monitor and the status lists. */
  protected noteUnlimitable(now: number, unlimitable: number[]): void {
    this.status.unlimitableAssets = unlimitable;
    this.monitor(
      controlAlarmCodes.assetsUnlimitable,
      now,
      unlimitable.length > 0,
      () => `assets ${unlimitable.join(', ') || 'none'} could not be limited`,
      undefined,
      unreadableRule,
    );
  }

  /**
   * Learns each asset's response from this step's power and what the loop asked the step before
   * (ResponseLearner); returns the slowest, in control steps, never less than the powerResponseMs
   * of the config says (for the headroom).
   */
  protected learnResponses(site: SiteSnapshot, indices: readonly number[]): number {
    let slowest = 0;
    for (const index of indices) {
      const learner = this.responseOf(index);
      learner?.observe(assetPower(site.assets[index]), this.held.get(index));
      slowest = Math.max(slowest, learner?.steps ?? 0);
    }
    return Math.max(slowest, this.responseSteps(indices));
  }

  /** Applies leadSetpoints with each asset's measured power and the share of a gap it covers in a step (learned, else from its powerResponseMs). */
  protected lead(site: SiteSnapshot, setpoints: Map<number, number | null>, flex: readonly Flex[], direction: -1 | 0 | 1): void {
    leadSetpoints(
      setpoints,
      flex,
      direction,
      (index) => assetPower(site.assets[index]),
      (index) => this.responseOf(index)?.share ?? 1,
    );
  }

  private responseOf(index: number): ResponseLearner | undefined {
    let learner = this.responses.get(index);
    const asset = this.asset(index);
    if (learner === undefined && asset !== undefined) {
      // A gap smaller than 5 % of the asset's power (at least 1 kW) says too little: the arbiter's write deadband and noise weigh on it.
      const minimumGapW = Math.max(1_000, 0.05 * (asset.nominalActivePower ?? 0));
      learner = new ResponseLearner(responseShare(this.sleepSeconds * 1000, asset.powerResponseMs ?? 0), minimumGapW, steeringKindOf(asset));
      this.responses.set(index, learner);
    }
    return learner;
  }

  /** The largest powerResponseMs of the assets, in control steps: how long a setpoint takes to act. */
  protected responseSteps(indices: readonly number[]): number {
    const slowest = Math.max(0, ...indices.map((index) => this.asset(index)?.powerResponseMs ?? 0));
    return slowest / (this.sleepSeconds * 1000);
  }

  /**
   * The step of a limiter that keeps the meter within `limits` by moving its assets in groups
   * (primary, then secondary): powerLimiter, batteryPowerLimiter, cascadeBatteryPowerLimiter. From
   * the meter and what the assets deliver, the window their total must lie in (less the deadband
   * and the learned headroom), allocated group by group and led by each asset's response; its
   * status, unlimitable assets and limit alarms. A blind meter: the fallback.
   */
  protected limitGroupsStep(
    site: SiteSnapshot,
    headroom: Headroom,
    options: {
      meterAssetIndex: number;
      groups: readonly (readonly number[])[];
      limits: GridLimits;
      deadband: number;
      monitored: { contractual?: LimitPair; physical?: LimitPair };
    },
  ): LoopStep {
    const steered = options.groups.flat();
    const meter = this.readMeter(site, options.meterAssetIndex, meterPower);
    if (meter.value === null) {
      this.status.monitoredPower = null;
      headroom.reset();
      return meter.fallback ? this.fallbackStep(site, steered) : { setpoints: new Map() };
    }
    const groups = options.groups.map((indices) => this.flexOf(site, indices, (index, asset, state) => this.freeOf(site, index, asset, state)));
    const delivered = groups.reduce((sum, group) => sum + group.delivered, 0);
    headroom.responseSteps = this.learnResponses(site, steered);
    headroom.observe(meter.value + delivered);
    const window = deliveryWindow(meter.value, delivered, options.limits, options.deadband + headroom.margin);
    const flex = groups.map((group) => group.flex);
    const { setpoints, direction } = allocate(flex, window.low, window.high);
    this.lead(site, setpoints, flex.flat(), direction);

    this.status.monitoredPower = meter.value;
    this.status.consumptionLimit = options.limits.consumption;
    this.status.feedInLimit = options.limits.feedIn;
    this.noteUnlimitable(
      site.now,
      groups.flatMap((group) => group.unlimitable),
    );
    this.monitorLimits(site.now, meter.value, options.monitored.contractual, options.monitored.physical);
    return this.settle({ setpoints });
  }

  /** Sets the state from what the step holds: active when any asset is held, idle otherwise. */
  protected settle(step: LoopStep): LoopStep {
    this.status.state = [...step.setpoints.values()].some((value) => value !== null) ? 'active' : 'idle';
    return step;
  }
}

export interface LimitPair {
  consumption: number | null;
  feedIn: number | null;
  monitored: boolean;
}

/**
 * The range the steered assets' total delivery must lie in so that the meter (meter sign: import
 * positive) stays within the limits less the headroom: the grid without them is meter + delivered.
 * The headroom is at most half the band between the limits, so the window never turns over.
 */
export function deliveryWindow(meter: number, delivered: number, limits: GridLimits, margin: number): { low: number; high: number } {
  const others = meter + delivered;
  // A margin wider than half the band between the two limits (a headroom that took in a large jump while it had seen few steps)
  // would turn the window over and move the assets away from the limit they are past: it is kept to half that band.
  const headroom = limits.consumption === null || limits.feedIn === null ? margin : Math.min(margin, Math.max(0, (limits.consumption + limits.feedIn) / 2));
  return {
    low: limits.consumption === null ? -Infinity : others - (limits.consumption - headroom),
    high: limits.feedIn === null ? Infinity : others + (limits.feedIn - headroom),
  };
}

/** The batteries' mean state of charge (%) and total power (W) for a battery loop's status; null when none could be read. */
export function batteryFigures(site: SiteSnapshot, indices: readonly number[]): { stateOfCharge: number | null; batteryPower: number | null } {
  const charges: number[] = [];
  let power: number | null = null;
  for (const index of indices) {
    const state = site.assets[index];
    if (state?.readable !== true) {
      continue;
    }
    if (typeof state.stateOfCharge === 'number') {
      charges.push(state.stateOfCharge);
    }
    if (typeof state.activePower === 'number') {
      power = (power ?? 0) + state.activePower;
    }
  }
  return { stateOfCharge: charges.length === 0 ? null : charges.reduce((a, b) => a + b, 0) / charges.length, batteryPower: power };
}
