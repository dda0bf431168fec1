/**
 * Register maps as data (docs/edge.md "Register maps"): a device family is a declarative map of
 * its Modbus registers, checked by this schema, and run by one generic driver (driver.ts) and
 * served by one map-driven simulator (edge/simulators/map-simulator.ts).
 *
 * A map names the asset type it serves, the report it makes (a report type of
 * contracts/hub/reports.ts fit for the type's category), and its points: each a register (or
 * coil) with its table, value type, word order and scale, and the report field it fills (a path
 * into the report's observations, checked against the report's definition). Scale is a factor
 * (negative to turn the device's sign into the report's convention) or a scale-factor point
 * (value × 10^sf, as SunSpec has). A status point maps raw values to the report's enumeration.
 * The setpoint says how a W setpoint becomes register writes: W, % of nominal power, or A of
 * charge current, with the writes that enable and release it. A map that fails the schema is
 * refused with a GridportError invalid_config naming the map and the point.
 */
import * as yup from 'yup';
import { categoryOfType, type AssetCategory, type AssetType } from '../../../contracts/device/asset-types';
import { endiannesses } from '../../../contracts/device/assets';
import { GridportError } from '../../../contracts/errors';
import { reportDefinitions, type Field, type ReportType } from '../../../contracts/hub/reports';

/** Value types of a point and the registers each takes (`string` takes `length`). */
export const pointTypes = { u16: 1, s16: 1, u32: 2, s32: 2, f32: 2, u64: 4, s64: 4, f64: 4, string: 0, bit: 1 } as const;
export type PointType = keyof typeof pointTypes;
/** Where a point is: holding and input registers (functions 3, 4), coils and discrete inputs (1, 2; type bit). */
export const pointTables = ['holding', 'input', 'coil', 'discrete'] as const;
export type PointTable = (typeof pointTables)[number];

/** The report each category's maps make. */
export const reportsByCategory: Record<AssetCategory, readonly ReportType[]> = {
  solar: ['solarPower'],
  wind: ['windPower'],
  meter: ['meterPower'],
  battery: ['batteryPower'],
  heat: ['thermalPower'],
  irradianceSensor: ['environmental'],
  windSensor: ['environmental'],
  temperatureSensor: ['environmental'],
  ev: ['evPower'],
  generator: ['generatorPower'],
  misc: ['solarPower', 'meterPower', 'meterRelayPower'],
  relay: ['relay'],
};

/** Modbus register addresses, 0-65535 (protocol addresses: "40001" style register numbers less one). */
const address = () => yup.number().integer().min(0).max(0xffff);
const name = () =>
  yup
    .string()
    .matches(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, '${path} must be a name of letters, digits and _ (at most 64)')
    .required();

/** A register value a write puts (enable flags, modes): a 16-bit register. */
const registerWriteSchema = yup
  .object({
    address: address().required(),
    value: yup.number().integer().min(0).max(0xffff_ffff).required(),
    /** u32: the value takes two registers, written in one request (big word order). */
    type: yup
      .string()
      .oneOf(['u16', 'u32'] as const)
      .default('u16'),
  })
  .exact()
  .test('fits', '${path} value must fit its type', (write) => write.type === 'u32' || write.value <= 0xffff);

const pointSchema = yup
  .object({
    name: name(),
    address: address().required(),
    table: yup.string().oneOf(pointTables).default('holding'),
    type: yup
      .string()
      .oneOf(Object.keys(pointTypes) as PointType[])
      .required(),
    /** Registers of a string. */
    length: yup.number().integer().min(1).max(125).optional(),
    wordOrder: yup.string().oneOf(endiannesses).optional(),
    /** value = raw × scale; a negative scale turns the sign. */
    scale: yup
      .number()
      .default(1)
      .test('non-zero', '${path} must not be 0', (value) => value !== 0),
    /** value = raw × scale × 10^(the named point): a SunSpec scale factor. */
    scaleFactor: yup.string().optional(),
    /** Raw values the device answers for "not available": read as null. */
    unavailable: yup.array(yup.number().required()).default([]),
    /** The report field the value fills: a path into its observations (`phaseCurrent.l1`, `points.0.status`). */
    field: yup.string().optional(),
    /** Status: raw value (a number, or a string's text) to the report's enumeration value. */
    enum: yup.object().optional().default(undefined),
    /** The value of a raw value the enumeration lacks (otherwise null). */
    enumDefault: yup.string().optional(),
    /** False: read only for metadata (identity), not each poll. */
    poll: yup.boolean().default(true),
    /** The value takes the sign of another field (a current magnitude signed by its phase's power). */
    signOf: yup.string().optional(),
  })
  .exact();

const setpointSchema = yup
  .object({
    /** What the register holds: W, % of nominal power, or A of charge current per phase. */
    kind: yup
      .string()
      .oneOf(['watts', 'percent', 'current'] as const)
      .required(),
    address: address().required(),
    type: yup
      .string()
      .oneOf(['u16', 's16', 'u32', 's32', 'f32'] as const)
      .required(),
    wordOrder: yup.string().oneOf(endiannesses).optional(),
    /** raw × scale = the register's quantity (W, %, A); negative turns the sign. */
    scale: yup
      .number()
      .default(1)
      .test('non-zero', '${path} must not be 0', (value) => value !== 0),
    /** The register takes the magnitude; `direction` gives the sign. */
    magnitude: yup.boolean().default(false),
    /** Where the magnitude of a negative setpoint goes, when charging has a register of its own (magnitude only). */
    negativeAddress: address().optional(),
    direction: yup
      .object({
        address: address().required(),
        positive: yup.number().integer().required(),
        negative: yup.number().integer().required(),
        zero: yup.number().integer().optional(),
      })
      .exact()
      .default(undefined),
    /** Written before the value (one request each). */
    enable: yup.array(registerWriteSchema).default([]),
    /** Written to release the setpoint; none: the setpoint is released by writing the nominal power (percent: 100). */
    release: yup.array(registerWriteSchema).default([]),
    /** The point whose value is nominal power, W (percent); else the config's nominalActivePower. */
    nominalPoint: yup.string().optional(),
    /** Phases a charge current is drawn on (current). */
    phases: yup.number().integer().oneOf([1, 3]).default(3),
    /** The range of a setpoint, W, asset convention: fields of the report (maxChargePower) or numbers; else 0..nominal (battery ±nominal, ev -nominal..0). */
    min: yup.mixed<string | number>().optional(),
    max: yup.mixed<string | number>().optional(),
    /** A quantity (A, W or %) under `below` in magnitude writes `raw` instead: the device's own "off" (ABL: 1000 ‰, outlet disabled). */
    off: yup
      .object({
        below: yup.number().positive().required(),
        raw: yup.number().integer().min(0).max(0xffff).required(),
      })
      .exact()
      .default(undefined),
    /** Whether the setpoint register is read back each poll as the confirmed setpoint. */
    readBack: yup.boolean().default(true),
  })
  .exact()
  .default(undefined);

const identityValue = yup.mixed<string | { point: string }>().optional();

export const registerMapSchema = yup
  .object({
    /** The asset type it serves. */
    type: yup.string().required(),
    /** The vendor document it is taken from: name and version. */
    source: yup.string().min(3).max(500).required(),
    report: yup.string().required(),
    defaultSlaveId: yup.number().integer().min(0).max(255).default(1),
    wordOrder: yup.string().oneOf(endiannesses).default('big'),
    /** How frames go on the line: the connection's own (MBAP on TCP, RTU on RS485), or Modbus ASCII on an RS485 line (devices that speak only ASCII). */
    framing: yup
      .string()
      .oneOf(['native', 'ascii'] as const)
      .default('native'),
    /** Single registers written with function 16 (write multiple), for devices that lack function 6. */
    writeMultiple: yup.boolean().default(false),
    /** Largest request and the gap read across (units that answer fewer than 125 registers). */
    requests: yup
      .object({ maxRegisters: yup.number().integer().min(1).max(125).default(125), gap: yup.number().integer().min(0).max(125).default(8) })
      .exact()
      .default({ maxRegisters: 125, gap: 8 }),
    points: yup.array(pointSchema).min(1).max(500).required(),
    setpoint: setpointSchema,
    /** Relay channels: coils (or holding registers 0/1) from `address`, one per configured relay. */
    relays: yup
      .object({
        table: yup
          .string()
          .oneOf(['coil', 'holding'] as const)
          .required(),
        address: address().required(),
        max: yup.number().integer().min(1).max(64).default(8),
      })
      .exact()
      .default(undefined),
    /** Generator run request. */
    run: yup
      .object({
        address: address().required(),
        run: yup.number().integer().min(0).max(0xffff).required(),
        stop: yup.number().integer().min(0).max(0xffff).required(),
      })
      .exact()
      .default(undefined),
    /** Meter: invertCurrent negates powers, currents and power factor and swaps import and export energy. */
    invertable: yup.boolean().default(false),
    identity: yup
      .object({ manufacturer: identityValue, model: identityValue, serialNumber: identityValue, firmwareVersion: identityValue })
      .exact()
      .default(undefined),
    /** Free text: what the map does not cover, how the device must be set up. */
    notes: yup.string().max(2000).optional(),
  })
  .exact();

export type RegisterPoint = yup.InferType<typeof pointSchema> & { table: PointTable; type: PointType };
export type SetpointSpec = NonNullable<yup.InferType<typeof setpointSchema>>;
export type RegisterMap = Omit<yup.InferType<typeof registerMapSchema>, 'type' | 'report' | 'points'> & {
  type: AssetType;
  report: ReportType;
  points: RegisterPoint[];
};
/** A map as written (defaults left out). */
export type RegisterMapInput =
  yup.InferType<typeof registerMapSchema> extends infer M
    ? { [K in keyof M]?: unknown } & { type: string; source: string; report: string; points: unknown[] }
    : never;

/** The registers a point takes. */
export function registerCount(point: Pick<RegisterPoint, 'type' | 'length'>): number {
  return point.type === 'string' ? (point.length ?? 1) : pointTypes[point.type];
}

/** The definition a field path names in a report's observations, or a reason it names none. */
export function fieldAt(report: ReportType, path: string): Field | string {
  let fields: Record<string, Field> = reportDefinitions[report].observations;
  let field: Field | undefined;
  const parts = path.split('.');
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] ?? '';
    if (field?.kind === 'array') {
      if (!/^\d+$/.test(part) || Number(part) >= field.maxItems) {
        return `${part} is no index of ${parts.slice(0, i).join('.')}`;
      }
      field = field.item;
      fields = field.kind === 'object' ? field.fields : {};
      continue;
    }
    field = Object.hasOwn(fields, part) ? fields[part] : undefined;
    if (field === undefined) {
      return `${report} has no field ${parts.slice(0, i + 1).join('.')}`;
    }
    if (field.kind === 'object') {
      fields = field.fields;
    }
  }
  return field ?? `${report} has no field ${path}`;
}

/** Fields a map may not fill: the agent's own. */
const reservedFields = ['connectionStatistics', 'setpoints'];

function issue(path: string, message: string): GridportError {
  return new GridportError('invalid_config', [{ path, message }], `register map: ${path}: ${message}`);
}

/**
 * A checked register map, defaults filled in; throws GridportError invalid_config naming the
 * map (`where`: its file or type) and the point at fault.
 */
export function parseRegisterMap(input: unknown, where: string): RegisterMap {
  let cast: yup.InferType<typeof registerMapSchema>;
  try {
    cast = registerMapSchema.validateSync(input, { abortEarly: true, stripUnknown: false });
  } catch (error) {
    if (error instanceof yup.ValidationError) {
      const at = error.path ?? '';
      const point = /^points\[(\d+)\]/.exec(at);
      const named = point === null ? undefined : ((input as { points?: { name?: unknown }[] }).points?.[Number(point[1])]?.name as string | undefined);
      throw issue(`${where}${at === '' ? '' : `.${at}`}`, `${error.message}${named === undefined ? '' : ` (point ${named})`}`);
    }
    throw error;
  }
  const category = categoryOfType(cast.type);
  if (category === undefined) {
    throw issue(`${where}.type`, `${cast.type} is not an asset type the config accepts`);
  }
  const report = cast.report as ReportType;
  if (!reportsByCategory[category].includes(report)) {
    throw issue(`${where}.report`, `${cast.type} (${category}) makes ${reportsByCategory[category].join(' or ')}, not ${cast.report}`);
  }
  const names = new Set<string>();
  const points = cast.points as RegisterPoint[];
  const fields = new Set<string>();
  for (const point of points) {
    const at = `${where}.points.${point.name}`;
    if (names.has(point.name)) {
      throw issue(at, `point ${point.name} is given twice`);
    }
    names.add(point.name);
    if (point.type === 'string' && point.length === undefined) {
      throw issue(at, 'a string needs its length in registers');
    }
    if ((point.type === 'bit') !== (point.table === 'coil' || point.table === 'discrete')) {
      throw issue(at, 'type bit is for coils and discrete inputs, and they hold only bits');
    }
    if (point.address + registerCount(point) > 0x10000) {
      throw issue(at, `register ${point.address} + ${registerCount(point)} runs past 65535`);
    }
    if (point.field !== undefined) {
      if (reservedFields.includes(point.field.split('.')[0] ?? '')) {
        throw issue(at, `${point.field} is filled by the agent, not by a register`);
      }
      if (fields.has(point.field)) {
        throw issue(at, `field ${point.field} is filled twice`);
      }
      fields.add(point.field);
      const field = fieldAt(report, point.field);
      if (typeof field === 'string') {
        throw issue(at, field);
      }
      if (field.kind === 'enum') {
        const values = Object.values((point.enum ?? {}) as Record<string, unknown>);
        if (values.length === 0) {
          throw issue(at, `${point.field} is an enumeration: give the raw values in enum`);
        }
        for (const value of [...values, ...(point.enumDefault === undefined ? [] : [point.enumDefault])]) {
          if (typeof value !== 'string' || !field.values.includes(value)) {
            throw issue(at, `${String(value)} is not one of ${point.field}'s values (${field.values.join(', ')})`);
          }
        }
      } else if (field.kind !== 'number') {
        throw issue(at, `${point.field} is no number or enumeration`);
      } else if (point.type === 'string') {
        throw issue(at, `${point.field} is a number; a string cannot fill it`);
      }
    }
  }
  for (const point of points) {
    const at = `${where}.points.${point.name}`;
    if (point.scaleFactor !== undefined) {
      const factor = points.find((other) => other.name === point.scaleFactor);
      if (factor === undefined || factor.type !== 's16') {
        throw issue(at, `scale factor ${point.scaleFactor} is no s16 point of this map`);
      }
    }
    if (point.signOf !== undefined && !fields.has(point.signOf)) {
      throw issue(at, `signOf ${point.signOf} is no field of this map`);
    }
  }
  const setpoint = cast.setpoint;
  if (setpoint !== undefined) {
    if (setpoint.kind === 'percent' && setpoint.nominalPoint !== undefined && !names.has(setpoint.nominalPoint)) {
      throw issue(`${where}.setpoint.nominalPoint`, `${setpoint.nominalPoint} is no point of this map`);
    }
    if (setpoint.magnitude && setpoint.direction === undefined) {
      throw issue(`${where}.setpoint.direction`, 'a magnitude setpoint needs its direction register');
    }
    if (setpoint.negativeAddress !== undefined && !setpoint.magnitude) {
      throw issue(`${where}.setpoint.negativeAddress`, 'a register for negative setpoints needs magnitude');
    }
    for (const bound of ['min', 'max'] as const) {
      const value = setpoint[bound];
      if (typeof value === 'string' && !fields.has(value.replace(/^-/, ''))) {
        throw issue(`${where}.setpoint.${bound}`, `${value} is no field of this map`);
      }
      if (value !== undefined && typeof value !== 'string' && !Number.isFinite(value)) {
        throw issue(`${where}.setpoint.${bound}`, 'must be a number of W or a field');
      }
    }
    if (setpoint.off !== undefined && setpoint.type !== 'u16' && setpoint.type !== 's16') {
      throw issue(`${where}.setpoint.off`, 'an off value is for a one-register setpoint (u16, s16)');
    }
    if (setpoint.kind === 'current' && category !== 'ev') {
      throw issue(`${where}.setpoint.kind`, 'a current setpoint is for EV chargers');
    }
  }
  if (cast.relays !== undefined && report !== 'relay' && report !== 'meterRelayPower') {
    throw issue(`${where}.relays`, `${report} has no relay channels`);
  }
  if (cast.run !== undefined && category !== 'generator') {
    throw issue(`${where}.run`, 'a run request is for generators');
  }
  for (const [key, value] of Object.entries(cast.identity ?? {})) {
    if (typeof value === 'object' && value !== null && !names.has(value.point)) {
      throw issue(`${where}.identity.${key}`, `${value.point} is no point of this map`);
    }
  }
  return { ...cast, type: cast.type as AssetType, report, points };
}
