/**
 * What a demo asset gives when read, per kind, and how it becomes the AssetState the control
 * loops see and the report of section 3.9. One definition for the Modbus demo drivers (which
 * decode it from registers, edge/drivers/demo/register-maps.ts) and the in-process plant
 * drivers (edge/simulators/plant-drivers.ts, which take it from the plant directly).
 */
import type { MeterAsset } from '../../../contracts/device/assets';
import type { ConnectionStatistics, DeviceReport, SetpointObservations } from '../../../contracts/hub/reports';
import type { AssetState, PowerRange } from '../driver';
import { assetReport, flashObservations, reading, setpointObservations, stateObservations } from '../common/report';

export type Triple = readonly [number, number, number];

export interface SolarReading {
  activePower: number;
  availablePower: number;
  energyProduced: number;
  /** The limit in force, W; null: none. */
  setpoint: number | null;
  nominalPower: number;
}

export interface WindReading extends SolarReading {
  windSpeed: number;
  rotorSpeed: number;
  converterStatus: 'running' | 'pause' | 'stop';
}

export interface BatteryReading {
  activePower: number;
  stateOfCharge: number;
  /** What the battery allows now (0 at a SoC limit), W. */
  maxChargePower: number;
  maxDischargePower: number;
  /** The hardware's power limits, W: a setpoint's range. */
  chargeLimit: number;
  dischargeLimit: number;
  dcVoltage: number;
  status: 'on' | 'off';
  energyCharged: number;
  energyDischarged: number;
  setpoint: number | null;
}

export interface MeterReading {
  activePower: number;
  phaseVoltage: Triple;
  phaseCurrent: Triple;
  phaseActivePower: Triple;
  frequency: number;
  energyImport: number;
  energyExport: number;
}

export interface ChargePointReading {
  status: 'available' | 'charging' | 'suspendedEv' | 'suspendedEvse';
  /** W drawn (positive); the report gives it in the asset convention (negative). */
  power: number;
  phaseCurrent: Triple;
  sessionEnergy: number;
  vehicleStateOfCharge: number | null;
}

export interface EvReading {
  activePower: number;
  phaseCurrent: Triple;
  energyCharged: number;
  points: ChargePointReading[];
  setpoint: number | null;
  /** The charger's largest draw, W (positive). */
  maxPower: number;
}

export interface RelayReading {
  channels: ('on' | 'off')[];
}

export interface GeneratorReading {
  activePower: number;
  status: 'running' | 'standby' | 'off';
  fuelLevel: number;
  runningHours: number;
  energyProduced: number;
  setpoint: number | null;
  nominalPower: number;
}

export interface HeatReading {
  activePower: number;
  temperature: number;
  stateOfCharge: number;
  storedEnergy: number;
  setpoint: number | null;
  heaterPower: number;
}

export interface DemoReadings {
  solar: SolarReading;
  wind: WindReading;
  battery: BatteryReading;
  meter: MeterReading;
  ev: EvReading;
  relay: RelayReading;
  generator: GeneratorReading;
  heat: HeatReading;
}
export type DemoKind = keyof DemoReadings;

function phases(values: Triple): { l1: number; l2: number; l3: number } {
  return { l1: values[0], l2: values[1], l3: values[2] };
}

/** The range a setpoint of this kind is clamped to (the hardware's), W in the asset convention; null for kinds without setpoints. */
export function setpointLimitsOf<K extends DemoKind>(kind: K, value: DemoReadings[K]): PowerRange | null {
  const r = value as DemoReadings[DemoKind];
  switch (kind) {
    case 'solar':
    case 'wind':
    case 'generator':
      return { min: 0, max: (r as SolarReading | GeneratorReading).nominalPower };
    case 'battery':
      return { min: -(r as BatteryReading).chargeLimit, max: (r as BatteryReading).dischargeLimit };
    case 'ev':
      return { min: -(r as EvReading).maxPower, max: 0 };
    case 'heat':
      return { min: -(r as HeatReading).heaterPower, max: 0 };
    default:
      return null;
  }
}

/** The state before the first poll: nothing read; a relay's channels are known from its config and unread (null). */
export function unreadState(kind: DemoKind, channels: number): AssetState {
  return kind === 'relay' ? { readable: false, at: 0, relayChannels: new Array<null>(channels).fill(null) } : { readable: false, at: 0 };
}

/** The AssetState of a reading: what the control loops see. */
export function stateOf<K extends DemoKind>(kind: K, value: DemoReadings[K], at: number): AssetState {
  switch (kind) {
    case 'solar':
    case 'wind': {
      const r = value as SolarReading;
      return {
        readable: true,
        at,
        activePower: r.activePower,
        availablePower: r.availablePower,
        controllableRange: { min: 0, max: r.availablePower },
        confirmedSetpoint: r.setpoint,
      };
    }
    case 'battery': {
      const r = value as BatteryReading;
      return {
        readable: true,
        at,
        activePower: r.activePower,
        stateOfCharge: r.stateOfCharge,
        controllableRange: { min: -r.maxChargePower, max: r.maxDischargePower },
        confirmedSetpoint: r.setpoint,
      };
    }
    case 'meter': {
      const r = value as MeterReading;
      return { readable: true, at, activePower: r.activePower, phaseCurrent: phases(r.phaseCurrent), frequency: r.frequency };
    }
    case 'ev': {
      const r = value as EvReading;
      return {
        readable: true,
        at,
        activePower: r.activePower,
        phaseCurrent: phases(r.phaseCurrent),
        controllableRange: { min: -r.maxPower, max: 0 },
        confirmedSetpoint: r.setpoint,
      };
    }
    case 'relay':
      return { readable: true, at, relayChannels: [...(value as RelayReading).channels] };
    case 'generator': {
      const r = value as GeneratorReading;
      const running = r.status === 'running';
      return {
        readable: true,
        at,
        activePower: r.activePower,
        availablePower: running ? r.nominalPower : 0,
        controllableRange: { min: 0, max: running ? r.nominalPower : 0 },
        confirmedSetpoint: r.setpoint,
      };
    }
    default: {
      const r = value as HeatReading;
      return {
        readable: true,
        at,
        activePower: r.activePower,
        stateOfCharge: r.stateOfCharge,
        temperatures: { storage: r.temperature },
        controllableRange: { min: r.stateOfCharge >= 100 ? 0 : -r.heaterPower, max: 0 },
        confirmedSetpoint: r.setpoint,
      };
    }
  }
}

/** The report of section 3.9 of a demo asset; `value` null when the last poll failed (every measurement null). */
export function reportOf<K extends DemoKind>(
  kind: K,
  asset: number,
  at: Date,
  value: DemoReadings[K] | null,
  state: AssetState,
  setpoints: SetpointObservations | undefined,
  connectionStatistics: ConnectionStatistics,
): DeviceReport {
  const layers = setpointObservations(setpoints, state);
  const controllable = layers === undefined ? {} : { setpoints: layers };
  const v = value as DemoReadings[DemoKind] | null;
  switch (kind) {
    case 'solar': {
      const r = v as SolarReading | null;
      return assetReport('solarPower', asset, at, {
        ...stateObservations(state, ['activePower', 'availablePower']),
        energyProduced: reading(r?.energyProduced),
        ...controllable,
        connectionStatistics,
      });
    }
    case 'wind': {
      const r = v as WindReading | null;
      return assetReport('windPower', asset, at, {
        ...stateObservations(state, ['activePower', 'availablePower']),
        energyProduced: reading(r?.energyProduced),
        windSpeed: reading(r?.windSpeed),
        rotorSpeed: reading(r?.rotorSpeed),
        converterStatus: r?.converterStatus ?? null,
        ...controllable,
        connectionStatistics,
      });
    }
    case 'battery': {
      const r = v as BatteryReading | null;
      return assetReport('batteryPower', asset, at, {
        ...stateObservations(state, ['activePower', 'stateOfCharge']),
        status: r?.status ?? null,
        maxChargePower: reading(r?.maxChargePower),
        maxDischargePower: reading(r?.maxDischargePower),
        dcVoltage: reading(r?.dcVoltage),
        energyCharged: reading(r?.energyCharged),
        energyDischarged: reading(r?.energyDischarged),
        ...controllable,
        connectionStatistics,
      });
    }
    case 'meter': {
      const r = v as MeterReading | null;
      return assetReport('meterPower', asset, at, {
        ...stateObservations(state, ['activePower', 'phaseCurrent']),
        phaseVoltage: r === null ? { l1: null, l2: null, l3: null } : phases(r.phaseVoltage),
        phaseActivePower: r === null ? { l1: null, l2: null, l3: null } : phases(r.phaseActivePower),
        frequency: reading(r?.frequency),
        energyImport: reading(r?.energyImport),
        energyExport: reading(r?.energyExport),
        connectionStatistics,
      });
    }
    case 'ev': {
      const r = v as EvReading | null;
      return assetReport('evPower', asset, at, {
        ...stateObservations(state, ['activePower', 'phaseCurrent']),
        energyCharged: reading(r?.energyCharged),
        points: (r?.points ?? []).map((point, index) => ({
          point: index,
          status: point.status,
          activePower: 0 - point.power,
          phaseCurrent: phases(point.phaseCurrent),
          sessionEnergy: point.sessionEnergy,
          vehicleStateOfCharge: point.vehicleStateOfCharge,
        })),
        ...controllable,
        connectionStatistics,
      });
    }
    case 'relay':
      return assetReport('relay', asset, at, { channels: [...(state.relayChannels ?? [])], connectionStatistics });
    case 'generator': {
      const r = v as GeneratorReading | null;
      return assetReport('generatorPower', asset, at, {
        ...stateObservations(state, ['activePower', 'availablePower']),
        status: r?.status ?? null,
        fuelLevel: reading(r?.fuelLevel),
        runningHours: reading(r?.runningHours),
        energyProduced: reading(r?.energyProduced),
        ...controllable,
        connectionStatistics,
      });
    }
    default: {
      const r = v as HeatReading | null;
      return assetReport('thermalPower', asset, at, {
        ...stateObservations(state, ['activePower', 'stateOfCharge']),
        temperature: reading(r?.temperature),
        storedEnergy: reading(r?.storedEnergy),
        ...controllable,
        connectionStatistics,
      });
    }
  }
}

/** The `.flash` report of the kinds that have one (solar, wind, battery, meter); null for the others. */
export function flashReportOf<K extends DemoKind>(
  kind: K,
  asset: number,
  at: Date,
  value: DemoReadings[K] | null,
  state: AssetState,
  setpoints: SetpointObservations | undefined,
  meter?: MeterAsset,
): DeviceReport | null {
  switch (kind) {
    case 'solar':
      return assetReport('solarPower.flash', asset, at, flashObservations(state, setpoints));
    case 'wind':
      return assetReport('windPower.flash', asset, at, {
        ...flashObservations(state, setpoints),
        windSpeed: reading((value as WindReading | null)?.windSpeed),
      });
    case 'battery':
      return assetReport('batteryPower.flash', asset, at, { ...flashObservations(state, setpoints), ...stateObservations(state, ['stateOfCharge']) });
    case 'meter': {
      const r = value as MeterReading | null;
      const extra = meter?.enableFlashReport?.additionalProperties ?? [];
      return assetReport('meterPower.flash', asset, at, {
        ...stateObservations(state, ['activePower']),
        ...(extra.includes('phaseCurrent') ? stateObservations(state, ['phaseCurrent']) : {}),
        ...(extra.includes('phaseVoltage') ? { phaseVoltage: r === null ? { l1: null, l2: null, l3: null } : phases(r.phaseVoltage) } : {}),
      });
    }
    default:
      return null;
  }
}
