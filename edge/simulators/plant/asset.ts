import type { SeededRandom } from './random';

/** What every asset sees of the site at a step. */
export interface Environment {
  readonly now: number;
  readonly random: SeededRandom;
  /** Global horizontal irradiance, W/m². */
  readonly irradiance: number;
  /** Wind speed at hub height, m/s. */
  readonly windSpeed: number;
}

/** A part of the plant: advances with the site and draws or delivers power at the grid meter. */
export interface PlantAsset {
  /** W, positive when delivering (the asset convention). */
  readonly activePower: number;
  /** Phase powers when the asset is not balanced over three phases (EV sessions on one phase); undefined: balanced. */
  readonly phasePowers?: readonly [number, number, number];
  step(dtSeconds: number, environment: Environment): void;
}

/** An asset that takes an active-power setpoint (W in its convention; null releases it). */
export interface ControllableAsset extends PlantAsset {
  setpoint: number | null;
  /** The setpoint range it accepts now. */
  readonly powerRange: { min: number; max: number };
}
