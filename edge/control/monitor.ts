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

/** One alarm of a loop: records each step's verdict and says when the alarm changes. */
export class StepMonitor {
  active = false;
  private readonly steps: { at: number; bad: boolean }[] = [];
  private head = 0;
  private badCount = 0;

  /** `stepMs`: the loop's step; a window is judged as full from the start, so one bad first step is not "too often". */
  constructor(
    readonly code: ControlAlarmCode,
    private readonly rule: MonitorRule,
    private readonly stepMs: number,
  ) {}

  /** Records one step; true when the alarm changed (raised or cleared). */
  record(now: number, bad: boolean): boolean {
    this.steps.push({ at: now, bad });
    if (bad) {
      this.badCount += 1;
    }
    while (this.head < this.steps.length - 1 && (this.steps[this.head]?.at ?? now) <= now - this.rule.windowMs) {
      if (this.steps[this.head]?.bad === true) {
        this.badCount -= 1;
      }
      this.head += 1;
    }
    // Keeps the array from growing without bound: drop the consumed prefix now and then.
    if (this.head > 1024) {
      this.steps.splice(0, this.head);
      this.head = 0;
    }
    const share = this.badCount / Math.max(this.steps.length - this.head, this.rule.windowMs / this.stepMs);
    const next = this.active ? share > this.rule.clearShare : share > this.rule.raiseShare;
    const changed = next !== this.active;
    this.active = next;
    return changed;
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
