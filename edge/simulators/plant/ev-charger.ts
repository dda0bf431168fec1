import type { ControllableAsset, Environment } from './asset';
import { energyWh, hourMs, lagFactor, phaseCurrents } from './physics';

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
    return phaseCurrents(this.phasePowers, this.phaseVoltage);
  }

  /** Plugs a vehicle in at a point now (tests; arrivals do the same at random). */
  arrive(
    index: number,
    session: { energyWanted: number; phases?: 1 | 3; vehicleCurrent?: number; stayHours?: number; vehicleStateOfCharge?: number },
    now: number,
  ): void {
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
      const wh = energyWh(point.power, dtSeconds);
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
