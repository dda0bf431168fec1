/**
 * What the control loops, the setpoint arbiter and the schedule runner share about a site: how an
 * asset takes a setpoint, the limits in force at a time, and the reading of a meter.
 */
import type { AssetConfig } from '../../contracts/device/assets';
import { categoryOfType } from '../../contracts/device/asset-types';
import { minutesOfDay } from '../../contracts/device/time-window';
import type { AssetState, PowerRange } from '../drivers/driver';

/**
 * How an active-power setpoint steers an asset (W in the asset's convention, positive delivering):
 * - producer (solar, wind, generator, misc): the setpoint caps production, 0..max;
 * - consumer (EV, heat): the setpoint is the most the asset may draw, as a non-positive floor;
 * - battery: the setpoint is the power to deliver (positive discharges, negative charges);
 * - none: the asset takes no setpoint (meters, sensors, relays).
 */
export type SteeringKind = 'producer' | 'consumer' | 'battery' | 'none';

const kindsByType = new Map<string, SteeringKind>();

export function steeringKindOf(asset: Pick<AssetConfig, 'type'>): SteeringKind {
  let kind = kindsByType.get(asset.type);
  if (kind === undefined) {
    kind = kindOfCategory(categoryOfType(asset.type));
    kindsByType.set(asset.type, kind);
  }
  return kind;
}

function kindOfCategory(category: ReturnType<typeof categoryOfType>): SteeringKind {
  switch (category) {
    case 'solar':
    case 'wind':
    case 'generator':
    case 'misc':
      return 'producer';
    case 'ev':
    case 'heat':
      return 'consumer';
    case 'battery':
      return 'battery';
    default:
      return 'none';
  }
}

/** Limits at a grid connection, W (null: none). consumption bounds import, feedIn bounds export. */
export interface GridLimits {
  consumption: number | null;
  feedIn: number | null;
}

export const noLimits: GridLimits = { consumption: null, feedIn: null };

function lower(a: number | null, b: number | null | undefined): number | null {
  if (b === null || b === undefined) {
    return a;
  }
  return a === null ? b : Math.min(a, b);
}

/** The most restrictive of several limit pairs, per direction. */
export function mostRestrictive(...limits: readonly (Partial<GridLimits> | null | undefined)[]): GridLimits {
  let result: GridLimits = noLimits;
  for (const limit of limits) {
    if (limit !== null && limit !== undefined) {
      result = { consumption: lower(result.consumption, limit.consumption), feedIn: lower(result.feedIn, limit.feedIn) };
    }
  }
  return result;
}

/** A weekly window of a limit or state-of-charge schedule (contracts/device/time-window.ts). */
export interface WeeklyWindow {
  start: string;
  end: string;
  weekdays?: readonly number[];
}

/**
 * The entry of a weekly schedule in force at `now`, or undefined. Windows are half open
 * [start, end) and read in the gateway's local time; weekdays run 0 (Monday) to 6 (Sunday).
 */
export function windowAt<W extends WeeklyWindow>(schedule: readonly W[] | undefined, now: number): W | undefined {
  if (schedule === undefined || schedule.length === 0) {
    return undefined;
  }
  const date = new Date(now);
  const weekday = (date.getDay() + 6) % 7;
  const minute = date.getHours() * 60 + date.getMinutes();
  return schedule.find((entry) => {
    const days = entry.weekdays;
    return (days === undefined || days.includes(weekday)) && minutesOfDay(entry.start) <= minute && minute < minutesOfDay(entry.end);
  });
}

/** The active power a meter reads, W (positive importing), or null when the meter is unreadable. */
export function meterPower(state: AssetState | undefined): number | null {
  if (state === undefined || !state.readable) {
    return null;
  }
  return typeof state.activePower === 'number' ? state.activePower : null;
}

/**
 * Signed phase currents of a meter, A (positive importing), or null when unreadable. Meters that
 * report magnitudes only take the sign of the meter's active power.
 */
export function meterCurrents(state: AssetState | undefined): [number, number, number] | null {
  const power = meterPower(state);
  const phases = state?.phaseCurrent;
  if (power === null || phases === undefined || phases.l1 === null || phases.l2 === null || phases.l3 === null) {
    return null;
  }
  const currents: [number, number, number] = [phases.l1, phases.l2, phases.l3];
  if (currents.every((current) => current >= 0) && power < 0) {
    return [-currents[0], -currents[1], -currents[2]];
  }
  return currents;
}

/** The power an asset delivers now, W, or null when it cannot be read. */
export function assetPower(state: AssetState | undefined): number | null {
  if (state === undefined || !state.readable || typeof state.activePower !== 'number') {
    return null;
  }
  return state.activePower;
}

/** The setpoint range of an asset now: what the driver read, or what its config gives. */
export function rangeOf(asset: AssetConfig, state: AssetState | undefined): PowerRange | null {
  const read = state?.readable === true ? state.controllableRange : undefined;
  if (read !== undefined && read !== null) {
    return read;
  }
  const nominal = asset.nominalActivePower;
  if (nominal === undefined) {
    return null;
  }
  switch (steeringKindOf(asset)) {
    case 'producer':
      return { min: 0, max: nominal };
    case 'consumer':
      return { min: -nominal, max: 0 };
    case 'battery':
      return { min: -nominal, max: nominal };
    default:
      return null;
  }
}

export function clamp(value: number, range: PowerRange | null | undefined): number {
  if (range === null || range === undefined) {
    return value;
  }
  return Math.min(range.max, Math.max(range.min, value));
}

/** Three phases at the nominal phase voltage: W a phase ampere moves (device-model.md section 9: 230 V). */
export function wattsPerAmpere(phaseVoltage = 230): number {
  return 3 * phaseVoltage;
}
