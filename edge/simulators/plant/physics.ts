/** The physics every part of the plant shares: lags, limits, energy and phase currents. */

export const hourMs = 3_600_000;

/** The share of the way a first-order lag of `timeConstantMs` moves towards its target in `dtSeconds` (1 without a lag). */
export function lagFactor(dtSeconds: number, timeConstantMs: number): number {
  return timeConstantMs <= 0 ? 1 : 1 - Math.exp((-dtSeconds * 1000) / timeConstantMs);
}

/** Where a first-order lag of `timeConstantMs` at `current` stands after `dtSeconds` towards `target`. */
export function approach(current: number, target: number, dtSeconds: number, timeConstantMs: number): number {
  return current + (target - current) * lagFactor(dtSeconds, timeConstantMs);
}

/**
 * A producer's power after `dtSeconds`: towards what is available, or its setpoint below that,
 * with its lag; never above what is available now (the lag only slows a limit, not the weather).
 */
export function producerPower(current: number, available: number, setpoint: number | null, dtSeconds: number, timeConstantMs: number): number {
  const target = setpoint === null ? available : clamp(setpoint, 0, available);
  return Math.min(approach(current, target, dtSeconds, timeConstantMs), available);
}

export function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}

/** Wh of `power` W held for `dtSeconds`. */
export function energyWh(power: number, dtSeconds: number): number {
  return (power * dtSeconds) / 3600;
}

/** Phase currents, A, of three phase powers at a phase voltage. */
export function phaseCurrents(phasePowers: readonly [number, number, number], phaseVoltage: number): [number, number, number] {
  return [phasePowers[0] / phaseVoltage, phasePowers[1] / phaseVoltage, phasePowers[2] / phaseVoltage];
}
