/**
 * What every driver does alike when it turns a poll into a report of device-model.md section 3.9
 * (contracts/hub/reports.ts): the measurements its AssetState carries, the setpoint layers with
 * the setpoint the asset confirmed, the flash variant, request counters, and clamping a setpoint
 * to the range the asset accepts. Type-specific values (energy counters, charge points) the
 * driver spreads in beside these.
 */
import type { ConnectionStatistics, DeviceReport, ReportOf, SetpointObservations } from '../../../contracts/hub/reports';
import type { AssetState, PowerRange } from '../driver';

/** The report types a driver sends about one asset. */
export type AssetReportType = Extract<DeviceReport, { asset: number }>['type'];

/** A report of `type` about asset `asset` at `at`. */
export function assetReport<T extends AssetReportType>(type: T, asset: number, at: Date, observations: ReportOf<T>['observations']): ReportOf<T> {
  // The generic shape cannot be checked member by member; each caller's observations are checked against its type.
  return { type, at: at.toISOString(), asset, observations } as unknown as ReportOf<T>;
}

/** A reading fit for a report: finite numbers pass, anything else (NaN from a bad register) is null. */
export function reading(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A value per phase (V, A or W), null where it could not be read. */
export type Phases = { l1: number | null; l2: number | null; l3: number | null };
export const noPhases: Phases = { l1: null, l2: null, l3: null };

/** What an AC meter or inverter reads: the acFields of contracts/hub/reports.ts, each value read or null. */
export interface AcReading {
  activePower: number | null;
  reactivePower: number | null;
  apparentPower: number | null;
  powerFactor: number | null;
  frequency: number | null;
  phaseVoltage: Phases;
  lineVoltage: { l12: number | null; l23: number | null; l31: number | null };
  phaseCurrent: Phases;
}

/** The state's common measurements, only those the asset provides (a report refuses fields its type does not have). */
export interface StateObservations {
  activePower?: number | null;
  reactivePower?: number | null;
  phaseCurrent?: Phases;
  stateOfCharge?: number | null;
  availablePower?: number | null;
}

/** The measurements of an AssetState as report observations; a state that is not readable gives null for each value it has. */
export function stateObservations(
  state: AssetState,
  fields: readonly (keyof StateObservations)[] = ['activePower', 'reactivePower', 'phaseCurrent', 'stateOfCharge', 'availablePower'],
): StateObservations {
  const observations: StateObservations = {};
  for (const field of fields) {
    if (field === 'phaseCurrent') {
      if (state.phaseCurrent !== undefined) {
        const { l1, l2, l3 } = state.phaseCurrent;
        observations.phaseCurrent = state.readable ? { l1: reading(l1), l2: reading(l2), l3: reading(l3) } : { l1: null, l2: null, l3: null };
      }
      continue;
    }
    const value = state[field];
    if (value !== undefined) {
      observations[field] = state.readable ? reading(value) : null;
    }
  }
  return observations;
}

/** The setpoint layers as given by the agent, with the setpoint the asset confirmed (read back) where the driver has one. */
export function setpointObservations(setpoints: SetpointObservations | undefined, state: AssetState): SetpointObservations | undefined {
  if (setpoints === undefined) {
    return undefined;
  }
  if (state.confirmedSetpoint === undefined) {
    return setpoints;
  }
  return { ...setpoints, confirmed: state.readable ? reading(state.confirmedSetpoint) : null };
}

/** Observations of a `.flash` report: active (and reactive) power with the setpoint layers. */
export function flashObservations(
  state: AssetState,
  setpoints: SetpointObservations | undefined,
): { activePower?: number | null; reactivePower?: number | null; setpoints?: SetpointObservations } {
  const observations: { activePower?: number | null; reactivePower?: number | null; setpoints?: SetpointObservations } = stateObservations(state, [
    'activePower',
    'reactivePower',
  ]);
  const layers = setpointObservations(setpoints, state);
  if (layers !== undefined) {
    observations.setpoints = layers;
  }
  return observations;
}

/** The counters with every outcome at 0. */
export function emptyStatistics(): ConnectionStatistics {
  return { success: 0, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };
}

/** The sum of request counters (a driver over several units or links). */
export function addStatistics(a: ConnectionStatistics, b: ConnectionStatistics): ConnectionStatistics {
  return {
    success: a.success + b.success,
    queueFull: a.queueFull + b.queueFull,
    invalidRequest: a.invalidRequest + b.invalidRequest,
    notReady: a.notReady + b.notReady,
    connectionError: a.connectionError + b.connectionError,
    timeout: a.timeout + b.timeout,
    responseError: a.responseError + b.responseError,
  };
}

/** A setpoint clamped to the range the asset accepts (unchanged without a known range). */
export function clampSetpoint(watts: number, range: PowerRange | null | undefined): number {
  if (range === null || range === undefined) {
    return watts;
  }
  return Math.min(range.max, Math.max(range.min, watts));
}

/** The state after a failed poll: not readable, every value the asset provides null, so reports say "could not read" rather than repeat old values. */
export function unreadableState(previous: AssetState, at: number): AssetState {
  const state: AssetState = { readable: false, at };
  for (const key of Object.keys(previous) as (keyof AssetState)[]) {
    if (key === 'readable' || key === 'at') {
      continue;
    }
    if (key === 'phaseCurrent') {
      state.phaseCurrent = { l1: null, l2: null, l3: null };
    } else if (key === 'temperatures') {
      state.temperatures = Object.fromEntries(Object.keys(previous.temperatures ?? {}).map((name) => [name, null]));
    } else if (key === 'relayChannels') {
      state.relayChannels = (previous.relayChannels ?? []).map(() => null);
    } else {
      state[key] = null;
    }
  }
  return state;
}
