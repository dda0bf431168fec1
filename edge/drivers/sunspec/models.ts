/**
 * SunSpec register models (SunSpec Information Model Specification; the sunspec/models
 * definitions): where a device's model chain starts, how it is walked, and the points of the
 * models the SunSpec driver reads. Offsets are from the first data register of a model (after
 * its ID and L registers), as in the SMDX definitions.
 */
import { decodeString, decodeSunspec, registerCounts, scaled, sunspecTypes, type SunspecType } from '../../modbus/codec';
import { ModbusRequestError, type ModbusUnit, type RegisterBlock } from '../../modbus/link';

/** 'SunS' in two registers, the marker of a SunSpec map. */
export const sunspecMarker = [0x5375, 0x6e53] as const;
/** Where devices put the marker, in the order the specification says to look. */
export const sunspecBaseAddresses = [40000, 0, 50000] as const;
/** The model id that ends the chain. */
export const endModelId = 0xffff;
/** Models walked at most (a safety bound: real devices have a handful). */
const mostModels = 64;

/** A device whose registers do not hold the SunSpec map the asset type needs (no marker, no measurement model). */
export class SunspecMapError extends Error {
  override readonly name = 'SunspecMapError';
}

/** A model found in the chain: its id, the address of its ID register and its length L (data registers). */
export interface SunspecModel {
  id: number;
  address: number;
  length: number;
}

/** A point of a model: its offset, type and the name of its scale factor point, if any. */
export interface SunspecPoint {
  offset: number;
  type: SunspecType;
  sf?: string;
}

export type ModelPoints = Record<string, SunspecPoint>;

function points<const P extends ModelPoints>(table: P): P {
  return table;
}

/** Common model 1: identity (strings of 16 and 8 registers). */
export const commonModel = {
  id: 1,
  manufacturer: { offset: 0, length: 16 },
  model: { offset: 16, length: 16 },
  options: { offset: 32, length: 8 },
  version: { offset: 40, length: 8 },
  serialNumber: { offset: 48, length: 16 },
} as const;

/** Integer inverter models 101 (single phase), 102 (split phase), 103 (three phase), with scale factors. */
export const integerInverterPoints = points({
  A: { offset: 0, type: 'uint16', sf: 'A_SF' },
  AphA: { offset: 1, type: 'uint16', sf: 'A_SF' },
  AphB: { offset: 2, type: 'uint16', sf: 'A_SF' },
  AphC: { offset: 3, type: 'uint16', sf: 'A_SF' },
  A_SF: { offset: 4, type: 'sunssf' },
  PPVphAB: { offset: 5, type: 'uint16', sf: 'V_SF' },
  PPVphBC: { offset: 6, type: 'uint16', sf: 'V_SF' },
  PPVphCA: { offset: 7, type: 'uint16', sf: 'V_SF' },
  PhVphA: { offset: 8, type: 'uint16', sf: 'V_SF' },
  PhVphB: { offset: 9, type: 'uint16', sf: 'V_SF' },
  PhVphC: { offset: 10, type: 'uint16', sf: 'V_SF' },
  V_SF: { offset: 11, type: 'sunssf' },
  W: { offset: 12, type: 'int16', sf: 'W_SF' },
  W_SF: { offset: 13, type: 'sunssf' },
  Hz: { offset: 14, type: 'uint16', sf: 'Hz_SF' },
  Hz_SF: { offset: 15, type: 'sunssf' },
  VA: { offset: 16, type: 'int16', sf: 'VA_SF' },
  VA_SF: { offset: 17, type: 'sunssf' },
  VAr: { offset: 18, type: 'int16', sf: 'VAr_SF' },
  VAr_SF: { offset: 19, type: 'sunssf' },
  PF: { offset: 20, type: 'int16', sf: 'PF_SF' },
  PF_SF: { offset: 21, type: 'sunssf' },
  WH: { offset: 22, type: 'acc32', sf: 'WH_SF' },
  WH_SF: { offset: 24, type: 'sunssf' },
  DCA: { offset: 25, type: 'uint16', sf: 'DCA_SF' },
  DCA_SF: { offset: 26, type: 'sunssf' },
  DCV: { offset: 27, type: 'uint16', sf: 'DCV_SF' },
  DCV_SF: { offset: 28, type: 'sunssf' },
  DCW: { offset: 29, type: 'int16', sf: 'DCW_SF' },
  DCW_SF: { offset: 30, type: 'sunssf' },
  St: { offset: 36, type: 'enum16' },
});

/** Float inverter models 111, 112, 113: the same quantities as float32, no scale factors. */
export const floatInverterPoints = points({
  A: { offset: 0, type: 'float32' },
  AphA: { offset: 2, type: 'float32' },
  AphB: { offset: 4, type: 'float32' },
  AphC: { offset: 6, type: 'float32' },
  PPVphAB: { offset: 8, type: 'float32' },
  PPVphBC: { offset: 10, type: 'float32' },
  PPVphCA: { offset: 12, type: 'float32' },
  PhVphA: { offset: 14, type: 'float32' },
  PhVphB: { offset: 16, type: 'float32' },
  PhVphC: { offset: 18, type: 'float32' },
  W: { offset: 20, type: 'float32' },
  Hz: { offset: 22, type: 'float32' },
  VA: { offset: 24, type: 'float32' },
  VAr: { offset: 26, type: 'float32' },
  PF: { offset: 28, type: 'float32' },
  WH: { offset: 30, type: 'float32' },
  DCA: { offset: 32, type: 'float32' },
  DCV: { offset: 34, type: 'float32' },
  DCW: { offset: 36, type: 'float32' },
  St: { offset: 46, type: 'enum16' },
});

export const integerInverterModels = [101, 102, 103] as const;
export const floatInverterModels = [111, 112, 113] as const;
/** Operating state of models 101-113 (St) and 701 (InvSt) in which the inverter tracks the maximum power point (unlimited). */
export const mpptState = 4;

/** Nameplate model 120: the rated active power. */
export const nameplatePoints = points({
  WRtg: { offset: 1, type: 'uint16', sf: 'WRtg_SF' },
  WRtg_SF: { offset: 2, type: 'sunssf' },
});
export const nameplateModel = 120;

/** Basic settings model 121: WMax, which WMaxLimPct of model 123 is a percentage of. */
export const settingsPoints = points({
  WMax: { offset: 0, type: 'uint16', sf: 'WMax_SF' },
  WMax_SF: { offset: 20, type: 'sunssf' },
});
export const settingsModel = 121;

/** Immediate controls model 123: the active power limit in % of WMax and its enable. */
export const controlsPoints = points({
  WMaxLimPct: { offset: 3, type: 'uint16', sf: 'WMaxLimPct_SF' },
  WMaxLim_Ena: { offset: 7, type: 'enum16' },
  WMaxLimPct_SF: { offset: 21, type: 'sunssf' },
});
export const controlsModel = 123;

/** DER AC measurement model 701. */
export const derMeasurementPoints = points({
  InvSt: { offset: 2, type: 'enum16' },
  W: { offset: 8, type: 'int16', sf: 'W_SF' },
  VA: { offset: 9, type: 'int16', sf: 'VA_SF' },
  Var: { offset: 10, type: 'int16', sf: 'Var_SF' },
  PF: { offset: 11, type: 'uint16', sf: 'PF_SF' },
  A: { offset: 12, type: 'int16', sf: 'A_SF' },
  Hz: { offset: 15, type: 'uint32', sf: 'Hz_SF' },
  TotWhInj: { offset: 17, type: 'uint64', sf: 'TotWh_SF' },
  AL1: { offset: 43, type: 'int16', sf: 'A_SF' },
  VL1L2: { offset: 44, type: 'int16', sf: 'V_SF' },
  VL1: { offset: 45, type: 'int16', sf: 'V_SF' },
  WL1: { offset: 39, type: 'int16', sf: 'W_SF' },
  AL2: { offset: 66, type: 'int16', sf: 'A_SF' },
  VL2L3: { offset: 67, type: 'int16', sf: 'V_SF' },
  VL2: { offset: 68, type: 'int16', sf: 'V_SF' },
  WL2: { offset: 62, type: 'int16', sf: 'W_SF' },
  AL3: { offset: 89, type: 'int16', sf: 'A_SF' },
  VL3L1: { offset: 90, type: 'int16', sf: 'V_SF' },
  VL3: { offset: 91, type: 'int16', sf: 'V_SF' },
  WL3: { offset: 85, type: 'int16', sf: 'W_SF' },
  A_SF: { offset: 111, type: 'sunssf' },
  V_SF: { offset: 112, type: 'sunssf' },
  Hz_SF: { offset: 113, type: 'sunssf' },
  W_SF: { offset: 114, type: 'sunssf' },
  PF_SF: { offset: 115, type: 'sunssf' },
  VA_SF: { offset: 116, type: 'sunssf' },
  Var_SF: { offset: 117, type: 'sunssf' },
  TotWh_SF: { offset: 118, type: 'sunssf' },
});
export const derMeasurementModel = 701;

/** DER capacity model 702: rated and set maximum active power. */
export const derCapacityPoints = points({
  WMaxRtg: { offset: 0, type: 'uint16', sf: 'W_SF' },
  WMax: { offset: 24, type: 'uint16', sf: 'W_SF' },
  W_SF: { offset: 41, type: 'sunssf' },
});
export const derCapacityModel = 702;

/** DER AC controls model 704: the active power limit in % of WMax and its enable. */
export const derControlsPoints = points({
  WMaxLimPctEna: { offset: 12, type: 'enum16' },
  WMaxLimPct: { offset: 13, type: 'uint16', sf: 'WMaxLim_SF' },
  WMaxLim_SF: { offset: 56, type: 'sunssf' },
});
export const derControlsModel = 704;

/** The register address of a point of a model found in the chain. */
export function pointAddress(model: SunspecModel, point: { offset: number }): number {
  return model.address + 2 + point.offset;
}

/** The raw value of a point (null: not implemented, or not read). */
export function rawPoint(block: RegisterBlock, model: SunspecModel, point: SunspecPoint): number | null {
  const registers = block.slice(pointAddress(model, point), registerCounts[sunspecTypes[point.type]]);
  return registers === undefined ? null : decodeSunspec(registers, point.type);
}

/** The value of a named point of a model, scaled by its scale factor; null when it or its scale factor is not implemented. */
export function pointValue<P extends ModelPoints>(block: RegisterBlock, model: SunspecModel, table: P, name: keyof P): number | null {
  const point = table[name];
  if (point === undefined) {
    return null;
  }
  const raw = rawPoint(block, model, point);
  if (point.sf === undefined) {
    return raw;
  }
  const sf = table[point.sf];
  return scaled(raw, sf === undefined ? null : rawPoint(block, model, sf));
}

/** A string point of the common model. */
export function stringPoint(registers: readonly number[], field: { offset: number; length: number }): string | null {
  const text = decodeString(registers.slice(field.offset, field.offset + field.length));
  return text === '' ? null : text;
}

/**
 * Finds the model chain: 'SunS' at 40000, else 0, else 50000 (a unit that refuses the address
 * or holds something else there sends us on), then each model's ID and L up to the end marker.
 * A timeout or connection error fails the discovery (tried again at the next poll).
 */
export async function discoverModels(unit: ModbusUnit): Promise<SunspecModel[]> {
  let base: number | undefined;
  for (const address of sunspecBaseAddresses) {
    try {
      const marker = await unit.readHoldingRegisters(address, 2);
      if (marker[0] === sunspecMarker[0] && marker[1] === sunspecMarker[1]) {
        base = address;
        break;
      }
    } catch (error) {
      if (!(error instanceof ModbusRequestError && error.failure === 'responseError')) {
        throw error;
      }
    }
  }
  if (base === undefined) {
    throw new SunspecMapError(`no SunSpec marker at ${sunspecBaseAddresses.join(', ')}`);
  }
  const models: SunspecModel[] = [];
  let address = base + 2;
  while (models.length < mostModels && address + 1 <= 0xffff) {
    const [id, length] = await unit.readHoldingRegisters(address, 2);
    if (id === undefined || id === endModelId || length === undefined) {
      break;
    }
    models.push({ id, address, length });
    address += 2 + length;
  }
  return models;
}

/** The first model of the chain with one of the ids. */
export function findModel(models: readonly SunspecModel[], ids: readonly number[]): SunspecModel | undefined {
  return models.find((model) => ids.includes(model.id));
}

/** The raw registers of a whole model (its data registers), for the string points of model 1. */
export function modelRegisters(block: RegisterBlock, model: SunspecModel): number[] | undefined {
  return block.slice(model.address + 2, model.length);
}
