/**
 * A small, deterministic plant model of a site behind one grid meter (issue 6 item 6): weather
 * (irradiance by time of day with passing clouds, wind with gusts), solar, wind, batteries, a
 * noisy load, EV chargers with sessions, a generator, heat storage and relays.
 *
 * Deterministic: one seeded generator per site and an injected clock (the site's own `now`, moved
 * only by `step`), so a test replays the same day every time and a simulated day runs as fast as
 * the CPU allows. `step` allocates nothing but new EV sessions and costs 1-3 µs for a whole site.
 *
 * Signs (contracts/hub/reports.ts): an asset's activePower is positive when it delivers power
 * (producing, discharging) and negative when it draws power (charging, heating); the grid meter's
 * activePower is positive when the site imports. Setpoints are W in the asset's convention.
 */

/** mulberry32: a tiny seeded generator, good enough for noise and arrivals. */
export class SeededRandom {
  private state: number;
  private spareNormal: number | null = null;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Standard normal (Box-Muller, the second value kept for the next call). */
  normal(): number {
    if (this.spareNormal !== null) {
      const spare = this.spareNormal;
      this.spareNormal = null;
      return spare;
    }
    const u = 1 - this.next();
    const v = this.next();
    const radius = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = radius * Math.sin(2 * Math.PI * v);
    return radius * Math.cos(2 * Math.PI * v);
  }

  /** True with the probability that an event of `ratePerHour` happens within `dtSeconds`. */
  chance(ratePerHour: number, dtSeconds: number): boolean {
    return ratePerHour > 0 && this.next() < (ratePerHour * dtSeconds) / 3600;
  }
}

/** The share of the way a first-order lag of `timeConstantMs` moves towards its target in `dtSeconds` (1 without a lag). */
export function lagFactor(dtSeconds: number, timeConstantMs: number): number {
  return timeConstantMs <= 0 ? 1 : 1 - Math.exp((-dtSeconds * 1000) / timeConstantMs);
}

function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}

const hourMs = 3_600_000;

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

// ---------------------------------------------------------------------------------------------
// Weather
// ---------------------------------------------------------------------------------------------

export interface WeatherOptions {
  /** Hours added to UTC for the local solar time (default 1, central Europe in winter). */
  utcOffsetHours?: number;
  /** Local hours of sunrise and sunset (default 6 and 20). */
  sunrise?: number;
  sunset?: number;
  /** Clear-sky irradiance at solar noon, W/m² (default 1000). */
  peakIrradiance?: number;
  /** Clouds passing per hour (default 4); each lasts 30-300 s and dims by 30-80%. */
  cloudsPerHour?: number;
  /** Mean wind speed, m/s (default 7). */
  meanWindSpeed?: number;
  /** Standard deviation of the gusts, m/s (default 1.5). */
  gustiness?: number;
}

/** Irradiance by time of day with passing clouds; wind as a slowly wandering mean with gusts. */
export class Weather {
  irradiance = 0;
  windSpeed: number;
  private readonly options: Required<WeatherOptions>;
  private cloudDepth = 0;
  private cloudTarget = 0;
  private cloudEndsAt = 0;
  private windMean: number;
  private gust = 0;

  constructor(options: WeatherOptions = {}) {
    this.options = {
      utcOffsetHours: options.utcOffsetHours ?? 1,
      sunrise: options.sunrise ?? 6,
      sunset: options.sunset ?? 20,
      peakIrradiance: options.peakIrradiance ?? 1000,
      cloudsPerHour: options.cloudsPerHour ?? 4,
      meanWindSpeed: options.meanWindSpeed ?? 7,
      gustiness: options.gustiness ?? 1.5,
    };
    this.windMean = this.options.meanWindSpeed;
    this.windSpeed = this.windMean;
  }

  /** Clear-sky irradiance at a time, W/m². */
  clearSky(now: number): number {
    const { sunrise, sunset, utcOffsetHours, peakIrradiance } = this.options;
    const hour = ((((now / hourMs + utcOffsetHours) % 24) + 24) % 24);
    if (hour <= sunrise || hour >= sunset) {
      return 0;
    }
    const elevation = Math.sin((Math.PI * (hour - sunrise)) / (sunset - sunrise));
    return peakIrradiance * elevation * Math.sqrt(elevation);
  }

  step(dtSeconds: number, now: number, random: SeededRandom): void {
    if (now >= this.cloudEndsAt) {
      this.cloudTarget = 0;
    }
    if (this.cloudTarget === 0 && random.chance(this.options.cloudsPerHour, dtSeconds)) {
      this.cloudTarget = random.between(0.3, 0.8);
      this.cloudEndsAt = now + random.between(30_000, 300_000);
    }
    // A cloud's edge takes about 20 s to pass.
    this.cloudDepth += (this.cloudTarget - this.cloudDepth) * lagFactor(dtSeconds, 20_000);
    this.irradiance = this.clearSky(now) * (1 - this.cloudDepth);

    // The mean wanders over half an hour; gusts come and go within about ten seconds.
    const meanPull = lagFactor(dtSeconds, 1_800_000);
    this.windMean += (this.options.meanWindSpeed - this.windMean) * meanPull + random.normal() * Math.sqrt(meanPull) * 2;
    const gustPull = lagFactor(dtSeconds, 10_000);
    this.gust += -this.gust * gustPull + random.normal() * Math.sqrt(2 * gustPull) * this.options.gustiness;
    this.windSpeed = Math.max(0, this.windMean + this.gust);
  }
}

// ---------------------------------------------------------------------------------------------
// Producers
// ---------------------------------------------------------------------------------------------

export interface SolarOptions {
  /** Peak power at 1000 W/m², W. */
  nominalPower: number;
  /** Time constant of the inverter's response to a limit, ms (default 1000). */
  powerResponseMs?: number;
}

/** A PV inverter: available power follows irradiance; a setpoint (0..nominal) limits it. */
export class SolarPlant implements ControllableAsset {
  activePower = 0;
  availablePower = 0;
  setpoint: number | null = null;
  /** Wh produced since the start (the inverter's counter). */
  energyProduced = 0;
  readonly nominalPower: number;
  private readonly powerResponseMs: number;

  constructor(options: SolarOptions) {
    this.nominalPower = options.nominalPower;
    this.powerResponseMs = options.powerResponseMs ?? 1000;
  }

  get powerRange(): { min: number; max: number } {
    return { min: 0, max: this.nominalPower };
  }

  step(dtSeconds: number, environment: Environment): void {
    this.availablePower = Math.min(this.nominalPower, (this.nominalPower * environment.irradiance) / 1000);
    const target = this.setpoint === null ? this.availablePower : clamp(this.setpoint, 0, this.availablePower);
    this.activePower += (target - this.activePower) * lagFactor(dtSeconds, this.powerResponseMs);
    // Never above what the sun gives now (the lag only slows a limit, not the clouds).
    this.activePower = Math.min(this.activePower, this.availablePower);
    this.energyProduced += (this.activePower * dtSeconds) / 3600;
  }
}

export interface WindOptions {
  nominalPower: number;
  /** m/s (defaults 3, 12, 25). */
  cutInSpeed?: number;
  ratedSpeed?: number;
  cutOutSpeed?: number;
  /** Rotor speed at rated wind, rpm (default 15). */
  ratedRotorSpeed?: number;
  powerResponseMs?: number;
}

/** A wind turbine: wind speed through a cubic power curve between cut-in and rated, stopped above cut-out. */
export class WindTurbine implements ControllableAsset {
  activePower = 0;
  availablePower = 0;
  setpoint: number | null = null;
  energyProduced = 0;
  windSpeed = 0;
  rotorSpeed = 0;
  readonly nominalPower: number;
  private readonly cutIn: number;
  private readonly rated: number;
  private readonly cutOut: number;
  private readonly ratedRotorSpeed: number;
  private readonly powerResponseMs: number;

  constructor(options: WindOptions) {
    this.nominalPower = options.nominalPower;
    this.cutIn = options.cutInSpeed ?? 3;
    this.rated = options.ratedSpeed ?? 12;
    this.cutOut = options.cutOutSpeed ?? 25;
    this.ratedRotorSpeed = options.ratedRotorSpeed ?? 15;
    this.powerResponseMs = options.powerResponseMs ?? 2000;
  }

  get powerRange(): { min: number; max: number } {
    return { min: 0, max: this.nominalPower };
  }

  /** The power curve: W at a wind speed. */
  powerAt(windSpeed: number): number {
    if (windSpeed < this.cutIn || windSpeed >= this.cutOut) {
      return 0;
    }
    if (windSpeed >= this.rated) {
      return this.nominalPower;
    }
    const cubes = (windSpeed ** 3 - this.cutIn ** 3) / (this.rated ** 3 - this.cutIn ** 3);
    return this.nominalPower * cubes;
  }

  get converterStatus(): 'running' | 'pause' | 'stop' {
    if (this.windSpeed >= this.cutOut) {
      return 'stop';
    }
    return this.availablePower > 0 ? 'running' : 'pause';
  }

  step(dtSeconds: number, environment: Environment): void {
    this.windSpeed = environment.windSpeed;
    this.availablePower = this.powerAt(this.windSpeed);
    const target = this.setpoint === null ? this.availablePower : clamp(this.setpoint, 0, this.availablePower);
    this.activePower += (target - this.activePower) * lagFactor(dtSeconds, this.powerResponseMs);
    this.activePower = Math.min(this.activePower, this.availablePower);
    this.rotorSpeed = this.availablePower > 0 ? this.ratedRotorSpeed * Math.min(1, this.windSpeed / this.rated) : 0;
    this.energyProduced += (this.activePower * dtSeconds) / 3600;
  }
}

// ---------------------------------------------------------------------------------------------
// Storage
// ---------------------------------------------------------------------------------------------

export interface BatteryOptions {
  capacityWh: number;
  /** % at the start (default 50). */
  stateOfCharge?: number;
  maxChargePower: number;
  maxDischargePower: number;
  /** One-way efficiency, 0-1 (default 0.95): charging stores power × efficiency, discharging takes power / efficiency. */
  efficiency?: number;
  /** The battery's own SoC limits, % (defaults 5 and 95): it stops discharging at min and charging at max. */
  minStateOfCharge?: number;
  maxStateOfCharge?: number;
  /** Time constant of reaching a setpoint, ms (default 500). */
  powerResponseMs?: number;
  /** Nominal DC voltage, V (default 400). */
  dcVoltage?: number;
}

/** A battery: a setpoint (W, positive discharging) reached with a first-order lag, within its power and SoC limits. */
export class Battery implements ControllableAsset {
  activePower = 0;
  setpoint: number | null = null;
  stateOfCharge: number;
  energyCharged = 0;
  energyDischarged = 0;
  readonly capacityWh: number;
  readonly efficiency: number;
  readonly minStateOfCharge: number;
  readonly maxStateOfCharge: number;
  readonly nominalDcVoltage: number;
  private readonly chargeLimit: number;
  private readonly dischargeLimit: number;
  private readonly powerResponseMs: number;

  constructor(options: BatteryOptions) {
    this.capacityWh = options.capacityWh;
    this.stateOfCharge = options.stateOfCharge ?? 50;
    this.chargeLimit = options.maxChargePower;
    this.dischargeLimit = options.maxDischargePower;
    this.efficiency = options.efficiency ?? 0.95;
    this.minStateOfCharge = options.minStateOfCharge ?? 5;
    this.maxStateOfCharge = options.maxStateOfCharge ?? 95;
    this.powerResponseMs = options.powerResponseMs ?? 500;
    this.nominalDcVoltage = options.dcVoltage ?? 400;
  }

  /** Largest charge power now, W (0 at the upper SoC limit). */
  get maxChargePower(): number {
    return this.stateOfCharge >= this.maxStateOfCharge ? 0 : this.chargeLimit;
  }

  /** Largest discharge power now, W (0 at the lower SoC limit). */
  get maxDischargePower(): number {
    return this.stateOfCharge <= this.minStateOfCharge ? 0 : this.dischargeLimit;
  }

  get powerRange(): { min: number; max: number } {
    return { min: -this.chargeLimit, max: this.dischargeLimit };
  }

  /** DC voltage, V: rises a little with the charge. */
  get dcVoltage(): number {
    return this.nominalDcVoltage * (0.9 + (0.2 * this.stateOfCharge) / 100);
  }

  get status(): 'on' | 'off' {
    return this.activePower === 0 && this.setpoint === null ? 'off' : 'on';
  }

  step(dtSeconds: number): void {
    const target = clamp(this.setpoint ?? 0, -this.maxChargePower, this.maxDischargePower);
    let power = this.activePower + (target - this.activePower) * lagFactor(dtSeconds, this.powerResponseMs);
    // Never past a SoC limit within the step: the battery management cuts the power there.
    const storedWh = (this.stateOfCharge / 100) * this.capacityWh;
    if (power > 0) {
      const availableWh = Math.max(0, storedWh - (this.minStateOfCharge / 100) * this.capacityWh);
      power = Math.min(power, (availableWh * this.efficiency * 3600) / dtSeconds, this.maxDischargePower);
      this.energyDischarged += (power * dtSeconds) / 3600;
      this.stateOfCharge -= ((power * dtSeconds) / 3600 / this.efficiency / this.capacityWh) * 100;
    } else if (power < 0) {
      const roomWh = Math.max(0, (this.maxStateOfCharge / 100) * this.capacityWh - storedWh);
      power = Math.max(power, -(roomWh * 3600) / (this.efficiency * dtSeconds), -this.maxChargePower);
      this.energyCharged += (-power * dtSeconds) / 3600;
      this.stateOfCharge += ((-power * dtSeconds * this.efficiency) / 3600 / this.capacityWh) * 100;
    }
    this.activePower = power;
  }
}

export interface HeatStorageOptions {
  /** Heater power, W. */
  heaterPower: number;
  capacityWh: number;
  /** % at the start (default 50). */
  stateOfCharge?: number;
  /** Storage temperature at 0% and 100%, °C (defaults 40 and 90). */
  minTemperature?: number;
  maxTemperature?: number;
  /** Heat drawn from the storage (hot water, heating), W (default 500). */
  heatDemand?: number;
  powerResponseMs?: number;
}

/**
 * Heat storage with an electric heater: a setpoint (W, 0 or negative, the heater's draw) heats
 * it; without one a thermostat heats at full power from 20% to 90%. Full at 100% (the heater stops).
 */
export class HeatStorage implements ControllableAsset {
  activePower = 0;
  setpoint: number | null = null;
  stateOfCharge: number;
  readonly heaterPower: number;
  readonly capacityWh: number;
  private readonly minTemperature: number;
  private readonly maxTemperature: number;
  private readonly heatDemand: number;
  private readonly powerResponseMs: number;
  private thermostatOn = false;

  constructor(options: HeatStorageOptions) {
    this.heaterPower = options.heaterPower;
    this.capacityWh = options.capacityWh;
    this.stateOfCharge = options.stateOfCharge ?? 50;
    this.minTemperature = options.minTemperature ?? 40;
    this.maxTemperature = options.maxTemperature ?? 90;
    this.heatDemand = options.heatDemand ?? 500;
    this.powerResponseMs = options.powerResponseMs ?? 1000;
  }

  get powerRange(): { min: number; max: number } {
    return { min: -this.heaterPower, max: 0 };
  }

  get temperature(): number {
    return this.minTemperature + ((this.maxTemperature - this.minTemperature) * this.stateOfCharge) / 100;
  }

  get storedEnergy(): number {
    return (this.capacityWh * this.stateOfCharge) / 100;
  }

  step(dtSeconds: number): void {
    if (this.stateOfCharge <= 20) {
      this.thermostatOn = true;
    } else if (this.stateOfCharge >= 90) {
      this.thermostatOn = false;
    }
    const wanted = this.setpoint === null ? (this.thermostatOn ? -this.heaterPower : 0) : clamp(this.setpoint, -this.heaterPower, 0);
    const target = this.stateOfCharge >= 100 ? 0 : wanted;
    this.activePower += (target - this.activePower) * lagFactor(dtSeconds, this.powerResponseMs);
    const heatWh = ((-this.activePower - this.heatDemand) * dtSeconds) / 3600;
    this.stateOfCharge = clamp(this.stateOfCharge + (heatWh / this.capacityWh) * 100, 0, 100);
  }
}

// ---------------------------------------------------------------------------------------------
// Consumers
// ---------------------------------------------------------------------------------------------

export interface LoadOptions {
  /** Base consumption, W. */
  base: number;
  /** Standard deviation of the noise around it, W (default 0). */
  noise?: number;
  /** How long the noise stays correlated, s (default 5; 0 for white noise at every step). */
  noiseTimeConstantS?: number;
  /** Peaks (a kettle, a compressor): extra W, how many start per hour, and how long they last in s. */
  peakPower?: number;
  peaksPerHour?: number;
  peakDurationS?: readonly [number, number];
}

/** A household or site load: base plus correlated noise plus occasional peaks; consumption, so its activePower is negative. */
export class Load implements PlantAsset {
  activePower: number;
  /** Consumption now, W (positive). */
  consumption: number;
  base: number;
  private readonly noise: number;
  private readonly noiseTimeConstantMs: number;
  private readonly peakPower: number;
  private readonly peaksPerHour: number;
  private readonly peakDurationS: readonly [number, number];
  private noiseValue = 0;
  private peakEndsAt = 0;

  constructor(options: LoadOptions) {
    this.base = options.base;
    this.noise = options.noise ?? 0;
    this.noiseTimeConstantMs = (options.noiseTimeConstantS ?? 5) * 1000;
    this.peakPower = options.peakPower ?? 0;
    this.peaksPerHour = options.peaksPerHour ?? 0;
    this.peakDurationS = options.peakDurationS ?? [60, 300];
    this.consumption = this.base;
    this.activePower = -this.base;
  }

  get peakActive(): boolean {
    return this.peakEndsAt > 0;
  }

  step(dtSeconds: number, environment: Environment): void {
    const pull = lagFactor(dtSeconds, this.noiseTimeConstantMs);
    // An AR(1) process with the same stationary deviation whatever the step.
    this.noiseValue += -this.noiseValue * pull + environment.random.normal() * this.noise * Math.sqrt(pull * (2 - pull));
    if (this.peakEndsAt > 0 && environment.now >= this.peakEndsAt) {
      this.peakEndsAt = 0;
    }
    if (this.peakEndsAt === 0 && environment.random.chance(this.peaksPerHour, dtSeconds)) {
      this.peakEndsAt = environment.now + environment.random.between(this.peakDurationS[0], this.peakDurationS[1]) * 1000;
    }
    this.consumption = Math.max(0, this.base + this.noiseValue + (this.peakEndsAt > 0 ? this.peakPower : 0));
    this.activePower = 0 - this.consumption;
  }
}

/** An EV charge point's state (a subset of contracts/hub/reports.ts chargePointStatuses). */
export type ChargePointStatus = 'available' | 'charging' | 'suspendedEv' | 'suspendedEvse';

/** One charge point of an EV charger, with the session on it. */
export class ChargePoint {
  status: ChargePointStatus = 'available';
  /** W drawn, positive (the charger's activePower is the negative sum). */
  power = 0;
  /** Phases the vehicle charges on (1: on L1 only). */
  phases: 1 | 3 = 3;
  /** The vehicle's own current limit per phase, A. */
  vehicleCurrent = 0;
  energyWanted = 0;
  sessionEnergy = 0;
  vehicleStateOfCharge = 0;
  vehicleCapacityWh = 0;
  departsAt = 0;

  get connected(): boolean {
    return this.status !== 'available';
  }

  /** Phase currents, A. */
  current(phaseVoltage: number): [number, number, number] {
    const perPhase = this.power / (this.phases * phaseVoltage);
    return this.phases === 1 ? [perPhase, 0, 0] : [perPhase, perPhase, perPhase];
  }
}

export interface EvChargerOptions {
  /** Charge points (default 8, contracts/device/assets.ts assetDefaults.pointCount for demo-ev). */
  pointCount?: number;
  /** Largest current per phase and point, A (default 32). */
  maxPhaseCurrent?: number;
  /** V (default 230). */
  phaseVoltage?: number;
  /** Vehicles arriving per hour and point while it is free (default 0.3). */
  arrivalsPerHour?: number;
  /** Hours a vehicle stays (default 1-8). */
  stayHours?: readonly [number, number];
  powerResponseMs?: number;
}

/**
 * An EV charger with charge points: vehicles arrive, want some energy, charge on one or three
 * phases within their own current limit and leave. A setpoint (W, 0 or negative) limits the
 * charger's total draw, shared fairly among the charging vehicles.
 */
export class EvCharger implements ControllableAsset {
  activePower = 0;
  setpoint: number | null = null;
  energyCharged = 0;
  readonly points: ChargePoint[];
  readonly phaseVoltage: number;
  readonly maxPhaseCurrent: number;
  readonly phasePowers: [number, number, number] = [0, 0, 0];
  private readonly arrivalsPerHour: number;
  private readonly stayHours: readonly [number, number];
  private readonly powerResponseMs: number;
  private readonly shares: number[];

  constructor(options: EvChargerOptions = {}) {
    const count = options.pointCount ?? 8;
    this.points = Array.from({ length: count }, () => new ChargePoint());
    this.shares = new Array<number>(count).fill(0);
    this.phaseVoltage = options.phaseVoltage ?? 230;
    this.maxPhaseCurrent = options.maxPhaseCurrent ?? 32;
    this.arrivalsPerHour = options.arrivalsPerHour ?? 0.3;
    this.stayHours = options.stayHours ?? [1, 8];
    this.powerResponseMs = options.powerResponseMs ?? 1000;
  }

  /** Largest draw of one point, W. */
  get pointMaxPower(): number {
    return 3 * this.phaseVoltage * this.maxPhaseCurrent;
  }

  get powerRange(): { min: number; max: number } {
    return { min: -this.pointMaxPower * this.points.length, max: 0 };
  }

  /** Phase currents of the charger, A. */
  get phaseCurrent(): [number, number, number] {
    return [this.phasePowers[0] / this.phaseVoltage, this.phasePowers[1] / this.phaseVoltage, this.phasePowers[2] / this.phaseVoltage];
  }

  /** Plugs a vehicle in at a point now (tests; arrivals do the same at random). */
  arrive(index: number, session: { energyWanted: number; phases?: 1 | 3; vehicleCurrent?: number; stayHours?: number; vehicleStateOfCharge?: number }, now: number): void {
    const point = this.points[index];
    if (point === undefined) {
      return;
    }
    point.status = 'charging';
    point.energyWanted = session.energyWanted;
    point.sessionEnergy = 0;
    point.phases = session.phases ?? 3;
    point.vehicleCurrent = Math.min(this.maxPhaseCurrent, session.vehicleCurrent ?? this.maxPhaseCurrent);
    point.vehicleCapacityWh = 60_000;
    point.vehicleStateOfCharge = session.vehicleStateOfCharge ?? 30;
    point.departsAt = now + (session.stayHours ?? 4) * hourMs;
  }

  step(dtSeconds: number, environment: Environment): void {
    const { random, now } = environment;
    for (let i = 0; i < this.points.length; i += 1) {
      const point = this.points[i] as ChargePoint;
      if (point.connected && now >= point.departsAt) {
        point.status = 'available';
        point.power = 0;
      }
      if (!point.connected && random.chance(this.arrivalsPerHour, dtSeconds)) {
        this.arrive(
          i,
          {
            energyWanted: random.between(5_000, 40_000),
            phases: random.next() < 0.2 ? 1 : 3,
            vehicleCurrent: random.next() < 0.5 ? 16 : 32,
            stayHours: random.between(this.stayHours[0], this.stayHours[1]),
            vehicleStateOfCharge: random.between(10, 60),
          },
          now,
        );
      }
    }
    this.share();
    const pull = lagFactor(dtSeconds, this.powerResponseMs);
    this.phasePowers[0] = 0;
    this.phasePowers[1] = 0;
    this.phasePowers[2] = 0;
    let total = 0;
    for (let i = 0; i < this.points.length; i += 1) {
      const point = this.points[i] as ChargePoint;
      const share = this.shares[i] ?? 0;
      // A lower limit is followed at once (the charger cuts its pilot signal), a higher one with the vehicle's lag.
      point.power = share < point.power ? share : point.power + (share - point.power) * pull;
      const wh = (point.power * dtSeconds) / 3600;
      point.sessionEnergy += wh;
      if (point.vehicleCapacityWh > 0) {
        point.vehicleStateOfCharge = Math.min(100, point.vehicleStateOfCharge + (wh / point.vehicleCapacityWh) * 100);
      }
      this.energyCharged += wh;
      if (point.status === 'charging' && point.sessionEnergy >= point.energyWanted) {
        point.status = 'suspendedEv';
      }
      if (point.connected && point.status !== 'suspendedEv') {
        point.status = share > 0 ? 'charging' : 'suspendedEvse';
      }
      if (point.phases === 1) {
        this.phasePowers[0] += point.power;
      } else {
        const third = point.power / 3;
        this.phasePowers[0] += third;
        this.phasePowers[1] += third;
        this.phasePowers[2] += third;
      }
      total += point.power;
    }
    this.activePower = 0 - total;
  }

  /** Shares the limit among the vehicles that want power: each gets an equal part, capped by its own maximum, the rest going to the others. */
  private share(): void {
    let limit = this.setpoint === null ? Infinity : Math.max(0, -this.setpoint);
    let wanting = 0;
    for (let i = 0; i < this.points.length; i += 1) {
      const point = this.points[i] as ChargePoint;
      const wants = point.connected && point.status !== 'suspendedEv' && point.sessionEnergy < point.energyWanted;
      this.shares[i] = wants ? -1 : 0;
      wanting += wants ? 1 : 0;
    }
    // Water-filling: settle the vehicles whose maximum is below the fair share, then split the rest.
    let settled = true;
    while (wanting > 0 && settled) {
      settled = false;
      const fair = limit / wanting;
      for (let i = 0; i < this.points.length; i += 1) {
        const point = this.points[i] as ChargePoint;
        if (this.shares[i] !== -1) {
          continue;
        }
        const max = point.phases * this.phaseVoltage * point.vehicleCurrent;
        if (max <= fair) {
          this.shares[i] = max;
          limit -= max;
          wanting -= 1;
          settled = true;
        }
      }
    }
    const fair = wanting > 0 ? limit / wanting : 0;
    for (let i = 0; i < this.shares.length; i += 1) {
      if (this.shares[i] === -1) {
        this.shares[i] = fair;
      }
    }
  }
}

export interface GeneratorOptions {
  nominalPower: number;
  /** Minimum runtime once started, s (default 0; the config gives minutes). */
  minimumRuntimeS?: number;
  /** Seconds from a start command to running (default 10). */
  startDelayS?: number;
  /** Fuel tank as Wh of electricity it gives (default 200 kWh), and the level at the start in %. */
  fuelCapacityWh?: number;
  fuelLevel?: number;
  powerResponseMs?: number;
}

/** A generator: started and stopped by command (a stop waits out the minimum runtime); while running a setpoint (0..nominal) sets its power, full power without one. */
export class Generator implements ControllableAsset {
  activePower = 0;
  setpoint: number | null = null;
  status: 'running' | 'standby' | 'off' = 'standby';
  energyProduced = 0;
  runningHours = 0;
  fuelLevel: number;
  /** The last start/stop command: true run, false stop, null none. */
  runRequest: boolean | null = null;
  readonly nominalPower: number;
  private readonly minimumRuntimeMs: number;
  private readonly startDelayMs: number;
  private readonly fuelCapacityWh: number;
  private readonly powerResponseMs: number;
  private startedAt = 0;
  private startRequestedAt = 0;

  constructor(options: GeneratorOptions) {
    this.nominalPower = options.nominalPower;
    this.minimumRuntimeMs = (options.minimumRuntimeS ?? 0) * 1000;
    this.startDelayMs = (options.startDelayS ?? 10) * 1000;
    this.fuelCapacityWh = options.fuelCapacityWh ?? 200_000;
    this.fuelLevel = options.fuelLevel ?? 100;
    this.powerResponseMs = options.powerResponseMs ?? 3000;
  }

  get powerRange(): { min: number; max: number } {
    return { min: 0, max: this.nominalPower };
  }

  /** Asks the generator to run or stop (null: back to standby without a request). */
  command(run: boolean | null, now: number): void {
    if (run === true && this.runRequest !== true) {
      this.startRequestedAt = now;
    }
    this.runRequest = run;
  }

  step(dtSeconds: number, environment: Environment): void {
    const { now } = environment;
    if (this.status !== 'running' && this.runRequest === true && this.fuelLevel > 0 && now - this.startRequestedAt >= this.startDelayMs) {
      this.status = 'running';
      this.startedAt = now;
    }
    const mayStop = now - this.startedAt >= this.minimumRuntimeMs;
    if (this.status === 'running' && ((this.runRequest !== true && mayStop) || this.fuelLevel <= 0)) {
      this.status = 'standby';
    }
    const target = this.status === 'running' ? clamp(this.setpoint ?? this.nominalPower, 0, this.nominalPower) : 0;
    this.activePower += (target - this.activePower) * lagFactor(dtSeconds, this.powerResponseMs);
    if (this.status !== 'running' && this.activePower < 1) {
      this.activePower = 0;
    }
    const wh = (this.activePower * dtSeconds) / 3600;
    this.energyProduced += wh;
    this.fuelLevel = Math.max(0, this.fuelLevel - (wh / this.fuelCapacityWh) * 100);
    if (this.status === 'running') {
      this.runningHours += dtSeconds / 3600;
    }
  }
}

/** Relay outputs; a channel that is on switches its load (W, consumption) into the site. */
export class Relay implements PlantAsset {
  activePower = 0;
  readonly channels: ('on' | 'off')[];
  readonly channelLoads: number[];

  constructor(options: { channels: number; channelLoads?: readonly number[]; initial?: readonly ('on' | 'off')[] }) {
    this.channels = Array.from({ length: options.channels }, (_, i) => options.initial?.[i] ?? 'off');
    this.channelLoads = Array.from({ length: options.channels }, (_, i) => options.channelLoads?.[i] ?? 0);
  }

  step(): void {
    let power = 0;
    for (let i = 0; i < this.channels.length; i += 1) {
      power += this.channels[i] === 'on' ? (this.channelLoads[i] ?? 0) : 0;
    }
    this.activePower = 0 - power;
  }
}

// ---------------------------------------------------------------------------------------------
// The grid meter and the site
// ---------------------------------------------------------------------------------------------

/** The grid connection meter: everything the site's assets draw minus what they deliver. */
export class GridMeter {
  /** W, positive importing. */
  activePower = 0;
  readonly phasePowers: [number, number, number] = [0, 0, 0];
  energyImport = 0;
  energyExport = 0;
  frequency = 50;

  constructor(readonly phaseVoltage = 230) {}

  get phaseCurrent(): [number, number, number] {
    return [this.phasePowers[0] / this.phaseVoltage, this.phasePowers[1] / this.phaseVoltage, this.phasePowers[2] / this.phaseVoltage];
  }

  /** Recomputes the reading from the assets and counts the energy of `dtSeconds`. */
  measure(assets: readonly PlantAsset[], dtSeconds: number): void {
    let l1 = 0;
    let l2 = 0;
    let l3 = 0;
    for (const asset of assets) {
      const phases = asset.phasePowers;
      if (phases === undefined) {
        const third = asset.activePower / 3;
        l1 -= third;
        l2 -= third;
        l3 -= third;
      } else {
        // Phase powers of a consumer are drawn (positive), so they add to the import.
        l1 += phases[0];
        l2 += phases[1];
        l3 += phases[2];
      }
    }
    this.phasePowers[0] = l1;
    this.phasePowers[1] = l2;
    this.phasePowers[2] = l3;
    this.activePower = l1 + l2 + l3;
    const wh = (this.activePower * dtSeconds) / 3600;
    if (wh > 0) {
      this.energyImport += wh;
    } else {
      this.energyExport -= wh;
    }
  }
}

export interface SiteOptions {
  /** Seed of the site's random generator. */
  seed: number;
  /** The site's clock at the start, ms since the epoch. */
  start: number;
  weather?: WeatherOptions;
  phaseVoltage?: number;
}

/**
 * A site: assets behind one grid meter, one seeded generator, one clock. Assets step in the
 * order they were added, so a seed gives the same day every time.
 */
export class Site implements Environment {
  now: number;
  readonly random: SeededRandom;
  readonly weather: Weather;
  readonly meter: GridMeter;
  readonly assets: PlantAsset[] = [];

  constructor(options: SiteOptions) {
    this.now = options.start;
    this.random = new SeededRandom(options.seed);
    this.weather = new Weather(options.weather);
    this.meter = new GridMeter(options.phaseVoltage ?? 230);
    this.weather.step(0, this.now, this.random);
    this.meter.measure(this.assets, 0);
  }

  get irradiance(): number {
    return this.weather.irradiance;
  }

  get windSpeed(): number {
    return this.weather.windSpeed;
  }

  /** Adds an asset behind the meter and returns it. */
  add<A extends PlantAsset>(asset: A): A {
    this.assets.push(asset);
    asset.step(0, this);
    this.meter.measure(this.assets, 0);
    return asset;
  }

  /** Advances the site by `dtSeconds` (more than 0). */
  step(dtSeconds: number): void {
    this.now += dtSeconds * 1000;
    this.weather.step(dtSeconds, this.now, this.random);
    for (const asset of this.assets) {
      asset.step(dtSeconds, this);
    }
    this.meter.measure(this.assets, dtSeconds);
  }

  /** Steps until `seconds` have passed, in steps of at most `maxStepSeconds`. */
  advance(seconds: number, maxStepSeconds = 1): void {
    let left = seconds;
    while (left > 1e-9) {
      const dt = Math.min(left, maxStepSeconds);
      this.step(dt);
      left -= dt;
    }
  }
}
