/**
 * The register maps of the eight demo asset types (ours: the spec names the types and no
 * registers). One definition serves both ends: the Modbus simulator encodes a plant reading into
 * registers with it (edge/simulators/modbus-simulator.ts), and the demo drivers decode what they
 * read with it (edge/drivers/demo/drivers.ts).
 *
 * Everything is in holding registers (function 3 to read, 6 and 16 to write), 32-bit values in
 * big word order (most significant register first). Scale: value = register × scale. A poll
 * reads one block (one request; two for an EV charger beyond 8 points). Energy counters wrap at
 * 2^32 Wh. Registers not listed read 0; writes outside the writable ones are refused with
 * exception 2 (illegal data address).
 *
 * | type              | addr | type   | scale | what                                                     |
 * | ----------------- | ---- | ------ | ----- | -------------------------------------------------------- |
 * | every type        | 0    | int32  | 1     | active power, W (asset convention; relay: channel count) |
 * | demo-solar        | 2    | int32  | 1     | available power, W                                       |
 * |                   | 4    | uint32 | 1     | energy produced, Wh                                      |
 * |                   | 6    | uint32 | 1     | nominal power, W                                         |
 * | demo-wind         | 2-7  |        |       | as demo-solar                                            |
 * |                   | 8    | uint16 | 0.01  | wind speed, m/s                                          |
 * |                   | 9    | uint16 | 0.01  | rotor speed, rpm                                         |
 * |                   | 10   | uint16 |       | converter status: 0 stop, 1 pause, 2 running             |
 * | demo-battery      | 2    | uint16 | 0.01  | state of charge, %                                       |
 * |                   | 3    | uint16 |       | status: 0 off, 1 on                                      |
 * |                   | 4, 6 | uint32 | 1     | max charge / discharge power now, W                      |
 * |                   | 8, 10| uint32 | 1     | charge / discharge power limit of the hardware, W        |
 * |                   | 12   | uint16 | 0.1   | DC voltage, V                                            |
 * |                   | 14,16| uint32 | 1     | energy charged / discharged, Wh                          |
 * | demo-meter        | 2-6  | int32  | 1     | active power L1, L2, L3, W (import positive)             |
 * |                   | 8-10 | uint16 | 0.1   | phase voltage L1, L2, L3, V                              |
 * |                   | 11   | uint16 | 0.01  | frequency, Hz                                            |
 * |                   | 12-16| int32  | 0.001 | phase current L1, L2, L3, A                              |
 * |                   | 18,20| uint32 | 1     | energy import / export, Wh                               |
 * | demo-ev           | 2-6  | int32  | 0.001 | phase current L1, L2, L3, A                              |
 * |                   | 8    | uint32 | 1     | energy charged, Wh                                       |
 * |                   | 10   | uint32 | 1     | largest draw of the charger, W                           |
 * |                   | 12   | uint16 |       | charge points                                            |
 * |                   | 44+9p| uint16 |       | point p status: 0 available, 1 charging, 2 suspendedEv, 3 suspendedEvse |
 * |                   | +1   | uint32 | 1     | point p power drawn, W (positive)                        |
 * |                   | +3-5 | uint16 | 0.01  | point p current L1, L2, L3, A                            |
 * |                   | +6   | uint32 | 1     | point p session energy, Wh                               |
 * |                   | +8   | uint16 | 0.01  | point p vehicle state of charge, % (65535: unknown)      |
 * | demo-relay        | 40+c | uint16 |       | channel c: 0 off, 1 on (writable)                        |
 * | demo-generator    | 2    | uint16 |       | status: 0 off, 1 standby, 2 running                      |
 * |                   | 3    | uint16 | 0.01  | fuel level, %                                            |
 * |                   | 4    | uint32 | 0.01  | running hours, h                                         |
 * |                   | 6    | uint32 | 1     | energy produced, Wh                                      |
 * |                   | 8    | uint32 | 1     | nominal power, W                                         |
 * |                   | 43   | uint16 |       | run request: 0 stop, 1 run, 2 none (writable)            |
 * | demo-heat-storage | 2    | int16  | 0.1   | storage temperature, °C                                  |
 * |                   | 3    | uint16 | 0.01  | state of charge, %                                       |
 * |                   | 4    | uint32 | 1     | stored energy, Wh                                        |
 * |                   | 6    | uint32 | 1     | heater power, W                                          |
 * | controllable ones | 40   | uint16 |       | setpoint mode: 0 released, 1 setpoint in force (writable)|
 * | (all but meter    | 41   | int32  | 1     | setpoint, W, asset convention (writable)                 |
 * |  and relay)       |      |        |       |                                                          |
 * | every type        | 1000 | string |       | manufacturer (8 registers), 1008 model, 1016 serial number |
 */
import { decodeNumber, decodeString, encodeNumber, encodeString, type NumericType } from '../../modbus/codec';
import type { RegisterBlock, RegisterRange } from '../../modbus/link';
import type {
  BatteryReading,
  ChargePointReading,
  DemoKind,
  DemoReadings,
  EvReading,
  GeneratorReading,
  HeatReading,
  MeterReading,
  RelayReading,
  SolarReading,
  Triple,
  WindReading,
} from './readings';

/** The demo asset types and the kind of reading each gives. */
export const demoKinds = {
  'demo-solar': 'solar',
  'demo-wind': 'wind',
  'demo-battery': 'battery',
  'demo-meter': 'meter',
  'demo-ev': 'ev',
  'demo-relay': 'relay',
  'demo-generator': 'generator',
  'demo-heat-storage': 'heat',
} as const satisfies Record<string, DemoKind>;
export type DemoAssetType = keyof typeof demoKinds;
export const demoAssetTypes = Object.keys(demoKinds) as DemoAssetType[];

/** Addresses every demo map shares. */
export const demoAddresses = {
  activePower: 0,
  setpointMode: 40,
  setpoint: 41,
  generatorRun: 43,
  relayChannels: 40,
  evPoints: 44,
  evPointSize: 9,
  identity: 1000,
  identityLength: 24,
} as const;

/** Run request values of demo-generator register 43. */
export const generatorRunValues = { stop: 0, run: 1, none: 2 } as const;
const converterStatuses = ['stop', 'pause', 'running'] as const;
const generatorStatuses = ['off', 'standby', 'running'] as const;
const pointStatuses = ['available', 'charging', 'suspendedEv', 'suspendedEvse'] as const;
const unknownSoc = 0xffff;

interface Field {
  address: number;
  type: NumericType;
  scale: number;
}

function at(address: number, type: NumericType, scale = 1): Field {
  return { address, type, scale };
}

/** A register image: what a unit answers, by address. */
export type RegisterImage = number[];

function put(image: RegisterImage, field: Field, value: number): void {
  let raw = Math.round(value / field.scale);
  // Counters wrap like a device's; measurements beyond the type saturate.
  if (field.type === 'uint32') {
    raw = ((raw % 0x1_0000_0000) + 0x1_0000_0000) % 0x1_0000_0000;
  } else if (field.type === 'int32') {
    raw = Math.max(-0x8000_0000, Math.min(0x7fff_ffff, raw));
  } else if (field.type === 'int16') {
    raw = Math.max(-0x8000, Math.min(0x7fff, raw));
  } else {
    raw = Math.max(0, Math.min(0xffff, raw));
  }
  encodeNumber(raw, field.type).forEach((register, i) => {
    image[field.address + i] = register;
  });
}

/** Reads a field from a block; throws when the block lacks it (a poll that read less is a failed poll). */
function get(block: RegisterBlock, field: Field): number {
  const registers = block.slice(field.address, field.type.endsWith('32') ? 2 : 1);
  if (registers === undefined) {
    throw new RangeError(`register ${field.address} not read`);
  }
  const raw = decodeNumber(registers, field.type);
  // Divided by the inverse, so that 5555 at 0.01 reads 55.55 and not 55.550000000000004.
  return field.scale < 1 ? raw / Math.round(1 / field.scale) : raw * field.scale;
}

function enumOf<V extends string>(values: readonly V[], raw: number): V {
  const value = values[raw];
  if (value === undefined) {
    throw new RangeError(`${raw} is not one of ${values.join(', ')}`);
  }
  return value;
}

const common = { activePower: at(0, 'int32') };
const setpointFields = { mode: at(demoAddresses.setpointMode, 'uint16'), value: at(demoAddresses.setpoint, 'int32') };
const solarFields = { ...common, availablePower: at(2, 'int32'), energyProduced: at(4, 'uint32'), nominalPower: at(6, 'uint32') };
const windFields = { ...solarFields, windSpeed: at(8, 'uint16', 0.01), rotorSpeed: at(9, 'uint16', 0.01), converterStatus: at(10, 'uint16') };
const batteryFields = {
  ...common,
  stateOfCharge: at(2, 'uint16', 0.01),
  status: at(3, 'uint16'),
  maxChargePower: at(4, 'uint32'),
  maxDischargePower: at(6, 'uint32'),
  chargeLimit: at(8, 'uint32'),
  dischargeLimit: at(10, 'uint32'),
  dcVoltage: at(12, 'uint16', 0.1),
  energyCharged: at(14, 'uint32'),
  energyDischarged: at(16, 'uint32'),
};
const meterFields = {
  ...common,
  phaseActivePower: [at(2, 'int32'), at(4, 'int32'), at(6, 'int32')],
  phaseVoltage: [at(8, 'uint16', 0.1), at(9, 'uint16', 0.1), at(10, 'uint16', 0.1)],
  frequency: at(11, 'uint16', 0.01),
  phaseCurrent: [at(12, 'int32', 0.001), at(14, 'int32', 0.001), at(16, 'int32', 0.001)],
  energyImport: at(18, 'uint32'),
  energyExport: at(20, 'uint32'),
} as const;
const evFields = {
  ...common,
  phaseCurrent: [at(2, 'int32', 0.001), at(4, 'int32', 0.001), at(6, 'int32', 0.001)],
  energyCharged: at(8, 'uint32'),
  maxPower: at(10, 'uint32'),
  pointCount: at(12, 'uint16'),
} as const;
function pointFields(point: number) {
  const base = demoAddresses.evPoints + point * demoAddresses.evPointSize;
  return {
    status: at(base, 'uint16'),
    power: at(base + 1, 'uint32'),
    phaseCurrent: [at(base + 3, 'uint16', 0.01), at(base + 4, 'uint16', 0.01), at(base + 5, 'uint16', 0.01)],
    sessionEnergy: at(base + 6, 'uint32'),
    vehicleStateOfCharge: at(base + 8, 'uint16', 0.01),
  } as const;
}
const generatorFields = {
  ...common,
  status: at(2, 'uint16'),
  fuelLevel: at(3, 'uint16', 0.01),
  runningHours: at(4, 'uint32', 0.01),
  energyProduced: at(6, 'uint32'),
  nominalPower: at(8, 'uint32'),
};
const heatFields = {
  ...common,
  temperature: at(2, 'int16', 0.1),
  stateOfCharge: at(3, 'uint16', 0.01),
  storedEnergy: at(4, 'uint32'),
  heaterPower: at(6, 'uint32'),
};

function putTriple(image: RegisterImage, fields: readonly Field[], values: Triple): void {
  fields.forEach((field, i) => put(image, field, values[i] ?? 0));
}

function getTriple(block: RegisterBlock, fields: readonly [Field, Field, Field]): Triple {
  return [get(block, fields[0]), get(block, fields[1]), get(block, fields[2])];
}

/** The setpoint in force as the registers hold it (null: released). */
function getSetpoint(block: RegisterBlock): number | null {
  return get(block, setpointFields.mode) === 1 ? get(block, setpointFields.value) : null;
}

function putSetpoint(image: RegisterImage, setpoint: number | null): void {
  put(image, setpointFields.mode, setpoint === null ? 0 : 1);
  put(image, setpointFields.value, setpoint ?? 0);
}

/** The registers a unit of `type` answers: the highest address of its data (identity apart). */
export function dataLength(type: DemoAssetType, pointsOrChannels: number): number {
  switch (demoKinds[type]) {
    case 'ev':
      return demoAddresses.evPoints + pointsOrChannels * demoAddresses.evPointSize;
    case 'relay':
      return demoAddresses.relayChannels + pointsOrChannels;
    case 'meter':
      return 22;
    default:
      return demoAddresses.generatorRun + 1;
  }
}

/** The ranges one poll reads: the data block (for an EV charger, with its `count` points; for a relay, its `count` channels). */
export function pollRanges(type: DemoAssetType, count: number): RegisterRange[] {
  return [{ address: 0, length: dataLength(type, count) }];
}

/** Writes a reading into a register image (the simulator, at each read). */
export function encodeReading<K extends DemoKind>(kind: K, value: DemoReadings[K], image: RegisterImage): void {
  switch (kind) {
    case 'solar':
    case 'wind': {
      const r = value as SolarReading;
      put(image, solarFields.activePower, r.activePower);
      put(image, solarFields.availablePower, r.availablePower);
      put(image, solarFields.energyProduced, r.energyProduced);
      put(image, solarFields.nominalPower, r.nominalPower);
      putSetpoint(image, r.setpoint);
      if (kind === 'wind') {
        const w = value as WindReading;
        put(image, windFields.windSpeed, w.windSpeed);
        put(image, windFields.rotorSpeed, w.rotorSpeed);
        put(image, windFields.converterStatus, converterStatuses.indexOf(w.converterStatus));
      }
      return;
    }
    case 'battery': {
      const r = value as BatteryReading;
      put(image, batteryFields.activePower, r.activePower);
      put(image, batteryFields.stateOfCharge, r.stateOfCharge);
      put(image, batteryFields.status, r.status === 'on' ? 1 : 0);
      put(image, batteryFields.maxChargePower, r.maxChargePower);
      put(image, batteryFields.maxDischargePower, r.maxDischargePower);
      put(image, batteryFields.chargeLimit, r.chargeLimit);
      put(image, batteryFields.dischargeLimit, r.dischargeLimit);
      put(image, batteryFields.dcVoltage, r.dcVoltage);
      put(image, batteryFields.energyCharged, r.energyCharged);
      put(image, batteryFields.energyDischarged, r.energyDischarged);
      putSetpoint(image, r.setpoint);
      return;
    }
    case 'meter': {
      const r = value as MeterReading;
      put(image, meterFields.activePower, r.activePower);
      putTriple(image, meterFields.phaseActivePower, r.phaseActivePower);
      putTriple(image, meterFields.phaseVoltage, r.phaseVoltage);
      put(image, meterFields.frequency, r.frequency);
      putTriple(image, meterFields.phaseCurrent, r.phaseCurrent);
      put(image, meterFields.energyImport, r.energyImport);
      put(image, meterFields.energyExport, r.energyExport);
      return;
    }
    case 'ev': {
      const r = value as EvReading;
      put(image, evFields.activePower, r.activePower);
      putTriple(image, evFields.phaseCurrent, r.phaseCurrent);
      put(image, evFields.energyCharged, r.energyCharged);
      put(image, evFields.maxPower, r.maxPower);
      put(image, evFields.pointCount, r.points.length);
      putSetpoint(image, r.setpoint);
      r.points.forEach((point, i) => {
        const fields = pointFields(i);
        put(image, fields.status, pointStatuses.indexOf(point.status));
        put(image, fields.power, point.power);
        putTriple(image, fields.phaseCurrent, point.phaseCurrent);
        put(image, fields.sessionEnergy, point.sessionEnergy);
        if (point.vehicleStateOfCharge === null) {
          image[fields.vehicleStateOfCharge.address] = unknownSoc;
        } else {
          put(image, fields.vehicleStateOfCharge, point.vehicleStateOfCharge);
        }
      });
      return;
    }
    case 'relay': {
      const r = value as RelayReading;
      put(image, common.activePower, r.channels.length);
      r.channels.forEach((state, i) => put(image, at(demoAddresses.relayChannels + i, 'uint16'), state === 'on' ? 1 : 0));
      return;
    }
    case 'generator': {
      const r = value as GeneratorReading;
      put(image, generatorFields.activePower, r.activePower);
      put(image, generatorFields.status, generatorStatuses.indexOf(r.status));
      put(image, generatorFields.fuelLevel, r.fuelLevel);
      put(image, generatorFields.runningHours, r.runningHours);
      put(image, generatorFields.energyProduced, r.energyProduced);
      put(image, generatorFields.nominalPower, r.nominalPower);
      putSetpoint(image, r.setpoint);
      return;
    }
    default: {
      const r = value as HeatReading;
      put(image, heatFields.activePower, r.activePower);
      put(image, heatFields.temperature, r.temperature);
      put(image, heatFields.stateOfCharge, r.stateOfCharge);
      put(image, heatFields.storedEnergy, r.storedEnergy);
      put(image, heatFields.heaterPower, r.heaterPower);
      putSetpoint(image, r.setpoint);
    }
  }
}

/** Decodes a poll's registers (a driver); `count` is the EV's charge points or the relay's channels. Throws when a register is missing or holds an impossible value. */
export function decodeReading<K extends DemoKind>(kind: K, block: RegisterBlock, count: number): DemoReadings[K] {
  return decodeAny(kind, block, count) as DemoReadings[K];
}

function decodeAny(kind: DemoKind, block: RegisterBlock, count: number): DemoReadings[DemoKind] {
  switch (kind) {
    case 'solar':
    case 'wind': {
      const solar: SolarReading = {
        activePower: get(block, solarFields.activePower),
        availablePower: get(block, solarFields.availablePower),
        energyProduced: get(block, solarFields.energyProduced),
        nominalPower: get(block, solarFields.nominalPower),
        setpoint: getSetpoint(block),
      };
      if (kind === 'solar') {
        return solar;
      }
      return {
        ...solar,
        windSpeed: get(block, windFields.windSpeed),
        rotorSpeed: get(block, windFields.rotorSpeed),
        converterStatus: enumOf(converterStatuses, get(block, windFields.converterStatus)),
      };
    }
    case 'battery':
      return {
        activePower: get(block, batteryFields.activePower),
        stateOfCharge: get(block, batteryFields.stateOfCharge),
        status: get(block, batteryFields.status) === 1 ? 'on' : 'off',
        maxChargePower: get(block, batteryFields.maxChargePower),
        maxDischargePower: get(block, batteryFields.maxDischargePower),
        chargeLimit: get(block, batteryFields.chargeLimit),
        dischargeLimit: get(block, batteryFields.dischargeLimit),
        dcVoltage: get(block, batteryFields.dcVoltage),
        energyCharged: get(block, batteryFields.energyCharged),
        energyDischarged: get(block, batteryFields.energyDischarged),
        setpoint: getSetpoint(block),
      };
    case 'meter':
      return {
        activePower: get(block, meterFields.activePower),
        phaseActivePower: getTriple(block, meterFields.phaseActivePower),
        phaseVoltage: getTriple(block, meterFields.phaseVoltage),
        frequency: get(block, meterFields.frequency),
        phaseCurrent: getTriple(block, meterFields.phaseCurrent),
        energyImport: get(block, meterFields.energyImport),
        energyExport: get(block, meterFields.energyExport),
      };
    case 'ev': {
      const points: ChargePointReading[] = [];
      for (let i = 0; i < count; i += 1) {
        const fields = pointFields(i);
        const soc = block.get(fields.vehicleStateOfCharge.address) === unknownSoc ? null : get(block, fields.vehicleStateOfCharge);
        points.push({
          status: enumOf(pointStatuses, get(block, fields.status)),
          power: get(block, fields.power),
          phaseCurrent: getTriple(block, fields.phaseCurrent),
          sessionEnergy: get(block, fields.sessionEnergy),
          vehicleStateOfCharge: soc,
        });
      }
      return {
        activePower: get(block, evFields.activePower),
        phaseCurrent: getTriple(block, evFields.phaseCurrent),
        energyCharged: get(block, evFields.energyCharged),
        maxPower: get(block, evFields.maxPower),
        points,
        setpoint: getSetpoint(block),
      };
    }
    case 'relay': {
      const channels: ('on' | 'off')[] = [];
      for (let i = 0; i < count; i += 1) {
        channels.push(get(block, at(demoAddresses.relayChannels + i, 'uint16')) === 1 ? 'on' : 'off');
      }
      return { channels };
    }
    case 'generator':
      return {
        activePower: get(block, generatorFields.activePower),
        status: enumOf(generatorStatuses, get(block, generatorFields.status)),
        fuelLevel: get(block, generatorFields.fuelLevel),
        runningHours: get(block, generatorFields.runningHours),
        energyProduced: get(block, generatorFields.energyProduced),
        nominalPower: get(block, generatorFields.nominalPower),
        setpoint: getSetpoint(block),
      };
    case 'heat':
      return {
        activePower: get(block, heatFields.activePower),
        temperature: get(block, heatFields.temperature),
        stateOfCharge: get(block, heatFields.stateOfCharge),
        storedEnergy: get(block, heatFields.storedEnergy),
        heaterPower: get(block, heatFields.heaterPower),
        setpoint: getSetpoint(block),
      };
  }
}

/** The registers that write a setpoint (W, asset convention; null releases): mode and value in one request at 40. */
export function setpointRegisters(watts: number | null): { address: number; values: number[] } {
  const image: RegisterImage = [];
  putSetpoint(image, watts === null ? null : Math.round(watts));
  return { address: demoAddresses.setpointMode, values: image.slice(demoAddresses.setpointMode, demoAddresses.setpoint + 2) };
}

/** The setpoint a unit's registers 40-42 hold (the simulator, after a write). */
export function setpointOf(registers: readonly number[]): number | null {
  const [mode, high, low] = registers;
  return mode === 1 && high !== undefined && low !== undefined ? decodeNumber([high, low], 'int32') : null;
}

/** The demo asset's identity registers (1000-1023): manufacturer, model, serial number, 8 registers each. */
export function encodeIdentity(identity: { manufacturer: string; model: string; serialNumber: string }, image: RegisterImage): void {
  [identity.manufacturer, identity.model, identity.serialNumber].forEach((text, i) => {
    encodeString(text.slice(0, 16), 8).forEach((register, j) => {
      image[demoAddresses.identity + i * 8 + j] = register;
    });
  });
}

export function decodeIdentity(registers: readonly number[]): { manufacturer: string; model: string; serialNumber: string } {
  return {
    manufacturer: decodeString(registers.slice(0, 8)),
    model: decodeString(registers.slice(8, 16)),
    serialNumber: decodeString(registers.slice(16, 24)),
  };
}
