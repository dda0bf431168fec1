/**
 * The alarms control loops raise on the device (device-model.md section 3.11, activeControl and
 * batteryPeakShaver groups). The spec names the kinds, not their codes; these codes are ours.
 */
import type { AlarmReport } from '../../contracts/hub/reports';

export const controlAlarmCodes = {
  slowControlLoop: 'activeControl.slowControlLoop',
  meterUnreadable: 'activeControl.meterTooOftenUnreadable',
  sensorUnreadable: 'activeControl.sensorTooOftenUnreadable',
  assetsUnlimitable: 'activeControl.assetsTooOftenUnlimitable',
  assetsUncontrollable: 'activeControl.assetsTooOftenUncontrollable',
  feedInTooHighContractual: 'activeControl.powerFeedInTooHigh.contractual',
  feedInTooHighPhysical: 'activeControl.powerFeedInTooHigh.physical',
  consumptionTooHighContractual: 'activeControl.powerConsumptionTooHigh.contractual',
  consumptionTooHighPhysical: 'activeControl.powerConsumptionTooHigh.physical',
  feedInCurrentTooHigh: 'activeControl.currentFeedInTooHigh.contractual',
  consumptionCurrentTooHigh: 'activeControl.currentConsumptionTooHigh.contractual',
  modbusServerHeartbeatLost: 'activeControl.modbusServerHeartbeatLost',
  afrrDeltaNotAllocated: 'activeControl.afrrDeltaNotAllocated',
  gridOperatorRouterRestart: 'activeControl.gridOperatorRouterRestartHint',
  gridOperatorLost: 'activeControl.gridOperatorLost',
  stateOfChargeLow: 'batteryPeakShaver.stateOfChargeLow',
  stateOfChargeHigh: 'batteryPeakShaver.stateOfChargeHigh',
} as const;
export type ControlAlarmCode = (typeof controlAlarmCodes)[keyof typeof controlAlarmCodes];

/**
 * When a monitor raises and clears: over the last `windowMs` of steps, it raises when more than
 * `raiseShare` of them were bad and clears when no more than `clearShare` were.
 */
export interface MonitorRule {
  windowMs: number;
  raiseShare: number;
  clearShare: number;
}

/** A meter or sensor is "too often unreadable" when more than 10 % of the steps of a minute could not read it. */
export const unreadableRule: MonitorRule = { windowMs: 60_000, raiseShare: 0.1, clearShare: 0 };
/** A limit is "too high" when the power was beyond it in more than 20 % of the steps of a minute. */
export const exceededRule: MonitorRule = { windowMs: 60_000, raiseShare: 0.2, clearShare: 0.05 };
/** A state (heartbeat lost, state of charge out of range) raises at once and clears at once. */
export const immediateRule: MonitorRule = { windowMs: 0, raiseShare: 0, clearShare: 0 };

/**
 * One alarm of a loop: records each step's verdict and says when the alarm changes. Steps are
 * counted in 60 buckets over the window (no allocation per step: a loop records a few of these at
 * every control step).
 */
export class StepMonitor {
  active = false;
  private readonly bucketMs: number;
  private readonly bad: Int32Array;
  private readonly total: Int32Array;
  private badSum = 0;
  private totalSum = 0;
  private current = -1;

  /** `stepMs`: the loop's step; a window is judged as full from the start, so one bad first step is not "too often". */
  constructor(
    readonly code: ControlAlarmCode,
    private readonly rule: MonitorRule,
    private readonly stepMs: number,
  ) {
    const buckets = rule.windowMs > 0 ? 60 : 1;
    this.bucketMs = rule.windowMs > 0 ? rule.windowMs / buckets : 1;
    this.bad = new Int32Array(buckets);
    this.total = new Int32Array(buckets);
  }

  /** Records one step; true when the alarm changed (raised or cleared). */
  record(now: number, bad: boolean): boolean {
    let share: number;
    if (this.rule.windowMs <= 0) {
      share = bad ? 1 : 0;
    } else {
      this.advance(Math.floor(now / this.bucketMs));
      const slot = this.current % this.bad.length;
      this.total[slot] = (this.total[slot] ?? 0) + 1;
      this.totalSum += 1;
      if (bad) {
        this.bad[slot] = (this.bad[slot] ?? 0) + 1;
        this.badSum += 1;
      }
      share = this.badSum / Math.max(this.totalSum, this.rule.windowMs / this.stepMs);
    }
    const next = this.active ? share > this.rule.clearShare : share > this.rule.raiseShare;
    const changed = next !== this.active;
    this.active = next;
    return changed;
  }

  /** Moves to `bucket`, emptying the buckets that fall out of the window. */
  private advance(bucket: number): void {
    if (this.current < 0) {
      this.current = bucket;
      return;
    }
    const size = this.bad.length;
    for (let next = this.current + 1; next <= bucket && next <= this.current + size; next += 1) {
      const slot = next % size;
      this.badSum -= this.bad[slot] ?? 0;
      this.totalSum -= this.total[slot] ?? 0;
      this.bad[slot] = 0;
      this.total[slot] = 0;
    }
    this.current = Math.max(this.current, bucket);
  }

  report(at: Date, controller: number, description: string): AlarmReport {
    // An alarm of a loop names no asset; the loop is in the description (the alarm report has no controller field).
    return {
      type: 'alarm',
      at: at.toISOString(),
      observations: {
        code: this.code,
        level: this.active ? 'warning' : 'info',
        active: this.active,
        description: `control loop ${controller}: ${description}`,
      },
    };
  }
}
