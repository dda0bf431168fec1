/**
 * Carries out setAssetSchedule messages (device-model.md sections 3.7, 3.10, 4): each schedule
 * item acts from its startAt to its endAt on the asset or control loop the message names.
 *
 * - Power commands (limitProductionPower, setSolarOperation / setWindOperation activePower,
 *   setBatteryOperation, setEVOperation, setGeneratorOperation activePower) desire the asset's
 *   `cloud` setpoint; limitPower on an asset bounds it (feed-in caps delivery, consume caps
 *   drawing); applyAfrrDeltaSetpoint desires the `afrr` delta. When the item ends the layer is
 *   withdrawn. Of several items in force, the one that started last holds.
 * - limitPower on a control loop becomes the loop's scheduled limit (SiteSnapshot.scheduledLimit).
 * - Relay, reactive-power and generator run commands go to the driver when the item starts;
 *   reactive power and the generator are released when it ends, relays keep their state.
 * - An executedAssetSchedule report is made when an item starts. Items whose end has passed are
 *   ignored; a new schedule for a target replaces its old one (what the old one held is withdrawn).
 * - When a meter goes unreadable the asset's fallback replaces the schedule's setpoint (the
 *   arbiter's meter fallback), and a loop's scheduled limit gives way to the loop's own fallback.
 */
import { categoryOfType } from '../../contracts/device/asset-types';
import type { AssetCommand, ScheduleItem } from '../../contracts/device/commands';
import type { DeviceConfig } from '../../contracts/device/config';
import type { DeviceReport } from '../../contracts/hub/reports';
import type { AssetState, DriverCommand, PowerRange } from '../drivers/driver';
import type { SetpointArbiter } from './setpoints';
import { rangeOf, steeringKindOf, type GridLimits } from './site';

export type ScheduleTarget = { assetIndex: number; controlLoopIndex?: undefined } | { controlLoopIndex: number; assetIndex?: undefined };

export interface ScheduleRunnerOptions {
  config: DeviceConfig;
  arbiter: SetpointArbiter;
  /** Carries out an asset command through the asset's driver (AssetDriver.execute); false when it could not. */
  execute: (assetIndex: number, command: DriverCommand) => Promise<boolean>;
  /** ms since the epoch (default Date.now); tests drive it. */
  clock?: () => number;
  log?: (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;
}

interface ScheduledItem {
  item: ScheduleItem;
  startAt: number;
  endAt: number;
  messageId?: string;
  started: boolean;
}

interface TargetSchedule {
  target: ScheduleTarget;
  items: ScheduledItem[];
  /** Commands to undo when the target's items end (reactive power, generator run). */
  releases: Map<DriverCommand['kind'], DriverCommand>;
}

/**
 * Frequency containment (setBatteryOperation deliverFCR, docs/control-loops.md): a linear droop on
 * the grid frequency's deviation from nominal, full activation at ±200 mHz (ENTSO-E FCR), within
 * the band the battery can move both ways around its dispatch.
 */
export const fcrDroop = { nominalHz: 50, fullActivationHz: 0.2 } as const;

/**
 * The grid frequency deliverFCR droops on, Hz: the battery's own meter (powerMeterAssetIndex) when it
 * reads one, else the first readable asset of the config that reads a frequency; null when none does.
 */
export function gridFrequency(config: DeviceConfig, meterIndex: number | undefined, states: readonly (AssetState | undefined)[]): number | null {
  const of = (state: AssetState | undefined): number | null =>
    state?.readable === true && typeof state.frequency === 'number' && Number.isFinite(state.frequency) ? state.frequency : null;
  const own = meterIndex === undefined ? null : of(states[meterIndex]);
  if (own !== null) {
    return own;
  }
  for (let index = 0; index < config.assets.length; index += 1) {
    const frequency = of(states[index]);
    if (frequency !== null) {
      return frequency;
    }
  }
  return null;
}

/**
 * The FCR change to a battery's dispatch, W (positive discharges): the symmetric band the battery
 * has around its dispatch (the smaller of its room up and down) times the frequency deviation over
 * 200 mHz, capped at the band; 0 without a frequency or a range.
 */
export function fcrDelta(dispatch: number, range: PowerRange | null, frequency: number | null): number {
  if (frequency === null || range === null) {
    return 0;
  }
  const band = Math.max(0, Math.min(range.max - dispatch, dispatch - range.min));
  const activation = Math.max(-1, Math.min(1, (fcrDroop.nominalHz - frequency) / fcrDroop.fullActivationHz));
  return band * activation;
}

/** How close to chargeToState a battery counts as there, percentage points. */
const chargeToStateBand = 0.5;

function keyOf(target: ScheduleTarget): string {
  return target.assetIndex !== undefined ? `asset:${target.assetIndex}` : `loop:${target.controlLoopIndex}`;
}

/** Whether a command sets an asset's cloud setpoint or limit. */
function isPowerCommand(command: AssetCommand): boolean {
  switch (command.type) {
    case 'limitProductionPower':
    case 'limitPower':
    case 'setBatteryOperation':
    case 'setEVOperation':
      return true;
    case 'setSolarOperation':
    case 'setWindOperation':
      return command.activePower !== undefined || command.activePowerPercentage !== undefined;
    case 'setGeneratorOperation':
      return command.activePower !== undefined;
    default:
      return false;
  }
}

export class ScheduleRunner {
  private config: DeviceConfig;
  private readonly schedules = new Map<string, TargetSchedule>();
  private readonly limits = new Map<number, GridLimits>();
  private readonly afrrDeltas = new Map<number, number>();
  private readonly pending: DeviceReport[] = [];
  private readonly clock: () => number;

  constructor(private readonly options: ScheduleRunnerOptions) {
    this.config = options.config;
    this.clock = options.clock ?? Date.now;
  }

  /** A new config: schedules of assets and loops that no longer exist are dropped (indices are kept otherwise). */
  configure(config: DeviceConfig): void {
    this.config = config;
    for (const [key, schedule] of this.schedules) {
      const { assetIndex, controlLoopIndex } = schedule.target;
      if (
        (assetIndex !== undefined && assetIndex >= config.assets.length) ||
        (controlLoopIndex !== undefined && controlLoopIndex >= config.activeControl.length)
      ) {
        this.schedules.delete(key);
        if (controlLoopIndex !== undefined) {
          this.limits.delete(controlLoopIndex);
          this.afrrDeltas.delete(controlLoopIndex);
        }
      }
    }
  }

  /**
   * Takes a setAssetSchedule message: replaces the target's schedule (an empty one clears it).
   * Items whose end has passed are dropped; an item for something the target cannot do is
   * reported as an error report (drained with the next step's reports).
   */
  setSchedule(target: ScheduleTarget, schedule: readonly ScheduleItem[], messageId?: string): void {
    const now = this.clock();
    const key = keyOf(target);
    const previous = this.schedules.get(key);
    const items: ScheduledItem[] = [];
    for (const item of schedule) {
      const startAt = Date.parse(item.startAt);
      const endAt = Date.parse(item.endAt);
      if (endAt <= now) {
        continue;
      }
      const refusal = this.refusal(target, item.command);
      if (refusal !== undefined) {
        this.pending.push(this.errorReport(now, messageId, refusal));
        continue;
      }
      items.push({ item, startAt, endAt, messageId, started: false });
    }
    this.schedules.set(key, { target, items, releases: previous?.releases ?? new Map() });
  }

  /** The aFRR delta the schedule asks of an afrrLimiter loop now (SiteSnapshot.scheduledAfrrDelta), W; undefined: none. */
  scheduledAfrrDelta(controlLoopIndex: number): number | undefined {
    return this.afrrDeltas.get(controlLoopIndex);
  }

  /** The limit the schedule sets on a control loop now (SiteSnapshot.scheduledLimit); undefined: none. */
  scheduledLimit(controlLoopIndex: number): GridLimits | undefined {
    return this.limits.get(controlLoopIndex);
  }

  /**
   * Brings every target to what its schedule says at `now`: desires and limits in the arbiter,
   * driver commands of items that start, releases of items that end. Returns the
   * executedAssetSchedule reports of the items that started (and errors), oldest first.
   * Call once per control step, before the loops (so they see their scheduled limits).
   */
  async step(states: readonly (AssetState | undefined)[], now = this.clock()): Promise<DeviceReport[]> {
    if (this.schedules.size === 0 && this.pending.length === 0) {
      return [];
    }
    const commands: Promise<unknown>[] = [];
    for (const [key, schedule] of this.schedules) {
      schedule.items = schedule.items.filter((entry) => entry.endAt > now);
      const active = schedule.items.filter((entry) => entry.startAt <= now);
      for (const entry of active) {
        if (!entry.started) {
          entry.started = true;
          this.pending.push(this.executedReport(now, schedule.target, entry));
          commands.push(...this.start(schedule, entry.item.command));
        }
      }
      if (schedule.target.assetIndex !== undefined) {
        commands.push(...this.holdAsset(schedule, schedule.target.assetIndex, active, states));
      } else {
        this.holdLoop(schedule.target.controlLoopIndex, active);
      }
      if (schedule.items.length === 0 && schedule.releases.size === 0) {
        this.schedules.delete(key);
      }
    }
    await Promise.all(commands);
    return this.pending.splice(0, this.pending.length);
  }

  /** Why a command cannot go to a target; undefined when it can. */
  private refusal(target: ScheduleTarget, command: AssetCommand): string | undefined {
    if (target.controlLoopIndex !== undefined) {
      if (this.config.activeControl[target.controlLoopIndex] === undefined) {
        return `no control loop ${target.controlLoopIndex}`;
      }
      if (command.type === 'limitPower') {
        return undefined;
      }
      if (command.type === 'applyAfrrDeltaSetpoint' && this.config.activeControl[target.controlLoopIndex]?.type === 'afrrLimiter') {
        return undefined;
      }
      return `a control loop takes limitPower items only (and an afrrLimiter applyAfrrDeltaSetpoint), not ${command.type}`;
    }
    const asset = this.config.assets[target.assetIndex];
    if (asset === undefined) {
      return `no asset ${target.assetIndex}`;
    }
    const kind = steeringKindOf(asset);
    if (command.type === 'setRelayOperation') {
      return 'relays' in asset ? undefined : `asset ${target.assetIndex} has no relays`;
    }
    if (command.type === 'setGeneratorOperation' && categoryOfType(asset.type) !== 'generator') {
      return `asset ${target.assetIndex} is no generator`;
    }
    if (isPowerCommand(command) || command.type === 'applyAfrrDeltaSetpoint') {
      return kind === 'none' ? `asset ${target.assetIndex} takes no setpoint` : undefined;
    }
    return undefined;
  }

  /** The driver commands of an item that starts; remembers what to undo when the target's items end. */
  private start(schedule: TargetSchedule, command: AssetCommand): Promise<boolean>[] {
    const index = schedule.target.assetIndex;
    if (index === undefined) {
      return [];
    }
    const run = (driverCommand: DriverCommand, release?: DriverCommand): Promise<boolean> => {
      if (release !== undefined) {
        schedule.releases.set(release.kind, release);
      }
      return this.options.execute(index, driverCommand).then((ok) => {
        if (!ok) {
          this.options.log?.('warn', 'schedule item could not be carried out', { assetIndex: index, command: driverCommand.kind });
        }
        return ok;
      });
    };
    switch (command.type) {
      case 'setRelayOperation':
        return [run({ kind: 'relays', channels: command.relays })];
      case 'setGeneratorOperation':
        return [run({ kind: 'generator', run: command.run }, { kind: 'generator', run: null })];
      case 'setSolarOperation':
      case 'setWindOperation':
        return command.reactivePower === undefined ? [] : [run({ kind: 'reactivePower', var: command.reactivePower }, { kind: 'reactivePower', var: null })];
      default:
        return [];
    }
  }

  /** Sets the asset's cloud and afrr layers from the items in force; withdraws them (and undoes commands) when none are. */
  private holdAsset(
    schedule: TargetSchedule,
    index: number,
    active: readonly ScheduledItem[],
    states: readonly (AssetState | undefined)[],
  ): Promise<boolean>[] {
    const { arbiter } = this.options;
    const asset = this.config.assets[index];
    if (asset === undefined) {
      return [];
    }
    const latest = (predicate: (command: AssetCommand) => boolean): AssetCommand | undefined =>
      active
        .filter((entry) => predicate(entry.item.command))
        .reduce<ScheduledItem | undefined>((last, entry) => (last === undefined || entry.startAt >= last.startAt ? entry : last), undefined)?.item.command;

    const power = latest(isPowerCommand);
    const state = states[index];
    let setpoint: number | null = null;
    let bound: PowerRange | null = null;
    if (power !== undefined) {
      const range = rangeOf(asset, state);
      ({ setpoint, bound } = this.powerOf(power, asset.nominalActivePower, 'nominalPhaseVoltage' in asset ? asset.nominalPhaseVoltage : 230, range, state));
      if (power.type === 'setBatteryOperation' && power.deliverFCR && setpoint !== null) {
        setpoint += fcrDelta(setpoint, range, gridFrequency(this.config, asset.powerMeterAssetIndex, states));
      }
    }
    arbiter.desire(index, 'cloud', setpoint);
    arbiter.limit(index, 'cloud', bound);
    const afrr = latest((command) => command.type === 'applyAfrrDeltaSetpoint');
    arbiter.desire(index, 'afrr', afrr?.type === 'applyAfrrDeltaSetpoint' ? afrr.deltaSetpoint : null);

    const undo: Promise<boolean>[] = [];
    const stillReactive = active.some(
      (entry) =>
        (entry.item.command.type === 'setSolarOperation' || entry.item.command.type === 'setWindOperation') && entry.item.command.reactivePower !== undefined,
    );
    const stillGenerator = active.some((entry) => entry.item.command.type === 'setGeneratorOperation');
    for (const [kind, release] of schedule.releases) {
      if ((kind === 'reactivePower' && !stillReactive) || (kind === 'generator' && !stillGenerator)) {
        schedule.releases.delete(kind);
        undo.push(this.options.execute(index, release));
      }
    }
    return undo;
  }

  /** A power command as a cloud setpoint or a bound, W. */
  private powerOf(
    command: AssetCommand,
    nominal: number | undefined,
    phaseVoltage: number,
    range: PowerRange | null,
    state: AssetState | undefined,
  ): { setpoint: number | null; bound: PowerRange | null } {
    const percentOfNominal = (percentage: number): number | null => (nominal === undefined ? null : (nominal * percentage) / 100);
    switch (command.type) {
      case 'limitProductionPower':
        return { setpoint: percentOfNominal(command.percentage), bound: null };
      case 'setSolarOperation':
      case 'setWindOperation':
        return {
          setpoint: command.activePower ?? (command.activePowerPercentage === undefined ? null : percentOfNominal(command.activePowerPercentage)),
          bound: null,
        };
      case 'setGeneratorOperation':
        return { setpoint: command.activePower ?? null, bound: null };
      case 'setEVOperation':
        return { setpoint: command.activePower ?? (command.phaseCurrent === undefined ? null : command.phaseCurrent * 3 * phaseVoltage), bound: null };
      case 'limitPower':
        return { setpoint: null, bound: { min: command.consume === null ? -Infinity : -command.consume, max: command.feedIn ?? Infinity } };
      case 'setBatteryOperation': {
        if (command.dispatchPower !== null) {
          return { setpoint: command.dispatchPower, bound: null };
        }
        const target = command.chargeToState;
        const charge = state?.readable === true ? state.stateOfCharge : null;
        if (target === null || typeof charge !== 'number') {
          return { setpoint: 0, bound: null };
        }
        // Charges or discharges as fast as the battery allows until it is within the band of the target.
        if (charge < target - chargeToStateBand) {
          return { setpoint: range?.min ?? -(nominal ?? 0), bound: null };
        }
        if (charge > target + chargeToStateBand) {
          return { setpoint: range?.max ?? nominal ?? 0, bound: null };
        }
        return { setpoint: 0, bound: null };
      }
      default:
        return { setpoint: null, bound: null };
    }
  }

  private holdLoop(index: number, active: readonly ScheduledItem[]): void {
    const limit = active
      .filter((entry) => entry.item.command.type === 'limitPower')
      .reduce<ScheduledItem | undefined>((last, entry) => (last === undefined || entry.startAt >= last.startAt ? entry : last), undefined);
    const command = limit?.item.command;
    if (command?.type === 'limitPower') {
      this.limits.set(index, { consumption: command.consume, feedIn: command.feedIn });
    } else {
      this.limits.delete(index);
    }
    const afrr = active
      .filter((entry) => entry.item.command.type === 'applyAfrrDeltaSetpoint')
      .reduce<ScheduledItem | undefined>((last, entry) => (last === undefined || entry.startAt >= last.startAt ? entry : last), undefined)?.item.command;
    if (afrr?.type === 'applyAfrrDeltaSetpoint') {
      this.afrrDeltas.set(index, afrr.deltaSetpoint);
    } else {
      this.afrrDeltas.delete(index);
    }
  }

  private executedReport(now: number, target: ScheduleTarget, entry: ScheduledItem): DeviceReport {
    return {
      type: 'executedAssetSchedule',
      at: new Date(now).toISOString(),
      ...(target.assetIndex !== undefined ? { asset: target.assetIndex } : { controller: target.controlLoopIndex }),
      observations: {
        ...(entry.messageId === undefined ? {} : { messageId: entry.messageId }),
        startAt: entry.item.startAt,
        endAt: entry.item.endAt,
        command: { ...entry.item.command },
      },
    };
  }

  private errorReport(now: number, messageId: string | undefined, message: string): DeviceReport {
    return {
      type: 'error',
      at: new Date(now).toISOString(),
      observations: { ...(messageId === undefined ? {} : { messageId }), messageType: 'setAssetSchedule', code: 'unsupported_command', message },
    };
  }
}
