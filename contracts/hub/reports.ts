/**
 * Device-to-cloud reports (device-model.md section 3.9; docs/gateway-protocol.md): the payload of
 * a `report` envelope (protocol.ts).
 *
 * Every report reads { type, at, asset?, controller?, observations }. Each report type is defined
 * once, below, as a small table of fields and their kinds; the TypeScript types are inferred from
 * that table and `validateReport` runs checks compiled from it. yup is not used here: the hub
 * validates every report on its hot path (10,000 reports per second on two cores, issue 5), and
 * these checks cost well under a microsecond for a meter report (bench/validation.bench.ts).
 *
 * Conventions (where the spec is silent, ours):
 * - Measurements are optional and nullable: absent means the asset does not provide the value,
 *   null means it does but the value could not be read this time.
 * - Units: W, var, VA, V, A, Hz, Wh, %, °C, m/s, degrees, W/m². Energy counters are cumulative
 *   readings of the asset's register, not deltas.
 * - Signs: an asset's activePower is positive when it delivers power (a producer producing, a
 *   battery discharging, a generator running) and negative when it draws power (a battery or an
 *   EV charging, a heat storage heating). A meter's activePower is positive when power is
 *   imported through it from the grid, negative when exported.
 * - Setpoints are active power in W in the asset's sign convention.
 * - connectionStatistics count the requests to the asset since the previous report of the same
 *   type and asset (deltas, so that they add up over any period).
 */
import { commandLimits } from '../device/commands';
import { controlLoopTypes, type ControlLoopType } from '../device/control-loops';
import { isIsoDateTime } from '../dates';
import { isStorableText, type Envelope } from './protocol';

// ---------------------------------------------------------------------------------------------
// Field kinds: the declarative vocabulary of the tables.
// ---------------------------------------------------------------------------------------------

interface FieldBase<O extends boolean, N extends boolean> {
  /** The field may be absent. */
  readonly optional: O;
  /** The field may be null. */
  readonly nullable: N;
}

export interface NumberField<O extends boolean = boolean, N extends boolean = boolean> extends FieldBase<O, N> {
  readonly kind: 'number';
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
  readonly unit?: string;
}
export interface StringField<O extends boolean = boolean, N extends boolean = boolean> extends FieldBase<O, N> {
  readonly kind: 'string';
  readonly maxLength: number;
}
export interface BooleanField<O extends boolean = boolean, N extends boolean = boolean> extends FieldBase<O, N> {
  readonly kind: 'boolean';
}
export interface EnumField<V extends string = string, O extends boolean = boolean, N extends boolean = boolean> extends FieldBase<O, N> {
  readonly kind: 'enum';
  readonly values: readonly V[];
}
/** An ISO 8601 date and time with a zone (Z or an offset), kept as the string given. */
export interface TimeField<O extends boolean = boolean, N extends boolean = boolean> extends FieldBase<O, N> {
  readonly kind: 'time';
}
export interface ObjectField<S extends Fields = Fields, O extends boolean = boolean, N extends boolean = boolean> extends FieldBase<O, N> {
  readonly kind: 'object';
  readonly fields: S;
}
export interface ArrayField<I extends Field = Field, O extends boolean = boolean, N extends boolean = boolean> extends FieldBase<O, N> {
  readonly kind: 'array';
  readonly item: I;
  readonly maxItems: number;
}
/** Any JSON object, not looked into (an echo of what the cloud sent, a config the hub checks apart). */
export interface JsonObjectField<O extends boolean = boolean, N extends boolean = boolean> extends FieldBase<O, N> {
  readonly kind: 'jsonObject';
}

export type Field = NumberField | StringField | BooleanField | EnumField | TimeField | ObjectField | ArrayField | JsonObjectField;
export type Fields = { readonly [key: string]: Field };

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type KindValue<F> = F extends { kind: 'number' }
  ? number
  : F extends { kind: 'string' } | { kind: 'time' }
    ? string
    : F extends { kind: 'boolean' }
      ? boolean
      : F extends EnumField<infer V>
        ? V
        : F extends ObjectField<infer S>
          ? Shape<S>
          : F extends ArrayField<infer I>
            ? FieldValue<I>[]
            : F extends { kind: 'jsonObject' }
              ? Record<string, unknown>
              : never;

/** The value a field holds. */
export type FieldValue<F> = F extends { nullable: true } ? KindValue<F> | null : KindValue<F>;

/** The object a table of fields describes. */
export type Shape<S extends Fields> = Simplify<
  { [K in keyof S as S[K] extends { optional: true } ? never : K]: FieldValue<S[K]> } & {
    [K in keyof S as S[K] extends { optional: true } ? K : never]?: FieldValue<S[K]>;
  }
>;

/** A measurement: a finite number, optional and nullable. */
function measurement(unit: string): NumberField<true, true> {
  return { kind: 'number', optional: true, nullable: true, min: -Infinity, max: Infinity, integer: false, unit };
}
function percentage(): NumberField<true, true> {
  return { kind: 'number', optional: true, nullable: true, min: 0, max: 100, integer: false, unit: '%' };
}
/** A request counter: an integer of at least 0, required. */
function counter(): NumberField<false, false> {
  return { kind: 'number', optional: false, nullable: false, min: 0, max: Number.MAX_SAFE_INTEGER, integer: true };
}
/** An index into the config's assets or control loops: an integer of at least 0, required. */
function index(): NumberField<false, false> {
  return { kind: 'number', optional: false, nullable: false, min: 0, max: Number.MAX_SAFE_INTEGER, integer: true };
}
function integer(min: number, max: number, unit?: string): NumberField<true, true> {
  return { kind: 'number', optional: true, nullable: true, min, max, integer: true, unit };
}
function text(maxLength: number): StringField<true, true> {
  return { kind: 'string', optional: true, nullable: true, maxLength };
}
function flag(): BooleanField<true, true> {
  return { kind: 'boolean', optional: true, nullable: true };
}
function oneOf<const V extends string>(values: readonly V[]): EnumField<V, true, true> {
  return { kind: 'enum', optional: true, nullable: true, values };
}
function time(): TimeField<true, true> {
  return { kind: 'time', optional: true, nullable: true };
}
/** A group of fields: optional, not nullable. */
function group<const S extends Fields>(fields: S): ObjectField<S, true, false> {
  return { kind: 'object', optional: true, nullable: false, fields };
}
/** A list of at most `maxItems` entries: optional, not nullable. */
function list<const I extends Field>(item: I, maxItems: number): ArrayField<I, true, false> {
  return { kind: 'array', optional: true, nullable: false, item, maxItems };
}
function jsonObject(): JsonObjectField<true, false> {
  return { kind: 'jsonObject', optional: true, nullable: false };
}
/** The field as required and not nullable. */
function required<F extends Field>(field: F): Omit<F, 'optional' | 'nullable'> & { readonly optional: false; readonly nullable: false } {
  return { ...field, optional: false, nullable: false };
}
/** The field as required but nullable. */
function present<F extends Field>(field: F): Omit<F, 'optional' | 'nullable'> & { readonly optional: false; readonly nullable: true } {
  return { ...field, optional: false, nullable: true };
}

// ---------------------------------------------------------------------------------------------
// Building blocks shared by several report types.
// ---------------------------------------------------------------------------------------------

/** The states of device-model.md section 4. */
export const batteryStatuses = ['on', 'off', 'other'] as const;
export const windConverterStatuses = ['running', 'on', 'pause', 'stop'] as const;
export const generatorStatuses = ['running', 'standby', 'off', 'other'] as const;
export const relayChannelStates = ['on', 'off'] as const;
/** EV charge point states (OCPP 1.6 ChargePointStatus, lower-cased). */
export const chargePointStatuses = [
  'available',
  'preparing',
  'charging',
  'suspendedEv',
  'suspendedEvse',
  'finishing',
  'reserved',
  'unavailable',
  'faulted',
] as const;
/** Alarm levels (OpenEMS's Level without OK: an alarm that is no longer active says so with active false). */
export const alarmLevels = ['info', 'warning', 'fault'] as const;
/** What a control loop is doing (ours; the spec does not show loop states). */
export const controlLoopStates = ['active', 'idle', 'fallback', 'error'] as const;
export const cellularTechnologies = ['gsm', 'umts', 'lte', 'nr', 'other'] as const;

/** Request outcome counters of the connection to an asset (device-model.md section 3.9). */
export const connectionStatisticsFields = {
  success: counter(),
  queueFull: counter(),
  invalidRequest: counter(),
  notReady: counter(),
  connectionError: counter(),
  timeout: counter(),
  responseError: counter(),
} as const;

/** Setpoint layering (device-model.md sections 3.9, 4): desired per source, confirmed by the asset, effective. */
export const setpointFields = {
  /** The setpoint the asset read back. */
  confirmed: present(measurement('W')),
  /** What each source asks for; absent for a source that does not steer the asset. */
  desired: required(
    group({
      cloud: measurement('W'),
      activeControl: measurement('W'),
      gridOperator: measurement('W'),
      modbusServer: measurement('W'),
      afrr: measurement('W'),
    }),
  ),
  /** The setpoint the device wrote, after layering the desired ones and the limits. */
  effective: present(measurement('W')),
} as const;

const threePhases = { l1: measurement(''), l2: measurement(''), l3: measurement('') } as const;
const threeLines = { l12: measurement('V'), l23: measurement('V'), l31: measurement('V') } as const;

/** AC quantities a meter or an inverter measures. */
const acFields = {
  activePower: measurement('W'),
  reactivePower: measurement('var'),
  apparentPower: measurement('VA'),
  powerFactor: { ...measurement(''), min: -1, max: 1 },
  frequency: measurement('Hz'),
  /** Line-to-neutral voltages, V. */
  phaseVoltage: group(threePhases),
  /** Line-to-line voltages, V. */
  lineVoltage: group(threeLines),
  /** Currents per phase, A. */
  phaseCurrent: group(threePhases),
  /** Currents per line conductor, A (differs from phaseCurrent in a delta connection). */
  lineCurrent: group(threePhases),
  /** Active power per phase, W. */
  phaseActivePower: group(threePhases),
} as const;

const statistics = { connectionStatistics: required(group(connectionStatisticsFields)) } as const;
const controllable = { setpoints: group(setpointFields) } as const;

const producerFields = {
  ...acFields,
  /** Power the asset could deliver now without a limit (available power), W. */
  availablePower: measurement('W'),
  /** Active power limit in force at the asset, in % of nominal power. */
  activePowerLimitPercentage: percentage(),
  energyProduced: measurement('Wh'),
  ...controllable,
  ...statistics,
} as const;

const batteryFields = {
  ...acFields,
  stateOfCharge: percentage(),
  stateOfHealth: percentage(),
  status: oneOf(batteryStatuses),
  /** Largest charge and discharge power the battery allows now, W (both 0 or more). */
  maxChargePower: { ...measurement('W'), min: 0 },
  maxDischargePower: { ...measurement('W'), min: 0 },
  dcVoltage: measurement('V'),
  dcCurrent: measurement('A'),
  temperature: measurement('°C'),
  minCellVoltage: measurement('V'),
  maxCellVoltage: measurement('V'),
  minCellTemperature: measurement('°C'),
  maxCellTemperature: measurement('°C'),
  energyCharged: measurement('Wh'),
  energyDischarged: measurement('Wh'),
  ...controllable,
  ...statistics,
} as const;

const meterFields = {
  ...acFields,
  energyImport: measurement('Wh'),
  energyExport: measurement('Wh'),
  ...statistics,
} as const;

/** A flash report: the fast subset (reporting interval 0.2-4 s, device-model.md section 3.4), no statistics. */
const flashFields = {
  activePower: measurement('W'),
  reactivePower: measurement('var'),
} as const;

/** One entry of a Sager furnace schedule as reported (up to 12, device-model.md section 3.9). */
export const sagerFurnaceReportEntryFields = {
  charge: required(percentage()),
  startAt: required(time()),
  endAt: required(time()),
} as const;

const chargePointFields = {
  /** The charge point's number on the charger, from 0. */
  point: index(),
  status: oneOf(chargePointStatuses),
  activePower: measurement('W'),
  phaseCurrent: group(threePhases),
  /** Energy charged in the current session, Wh. */
  sessionEnergy: measurement('Wh'),
  vehicleStateOfCharge: percentage(),
} as const;

/** An item read or written through OPC XML-DA or Vestas AP: its value as the device formats it (numbers and booleans too), and its quality. */
const browseItemFields = { name: required(text(500)), value: text(10_000), quality: text(100) } as const;

const commandReply = {
  /** The id of the cloud-to-device message this report answers; absent when the device reports on its own. */
  messageId: text(64),
} as const;

// ---------------------------------------------------------------------------------------------
// The report types.
// ---------------------------------------------------------------------------------------------

/**
 * Whom a report is about: an asset (asset index required), a control loop (controller index
 * required), the device itself (neither), optionally an asset, or exactly one of both.
 */
export type ReportTarget = 'asset' | 'controller' | 'device' | 'optionalAsset' | 'assetOrController';

export interface ReportDefinition {
  readonly target: ReportTarget;
  readonly observations: Fields;
}

function definition<const T extends ReportTarget, const S extends Fields>(target: T, observations: S): { readonly target: T; readonly observations: S } {
  return { target, observations };
}

const assetReportDefinitions = {
  solarPower: definition('asset', { ...producerFields, dcPower: measurement('W'), dcVoltage: measurement('V'), dcCurrent: measurement('A') }),
  'solarPower.flash': definition('asset', { ...flashFields, ...controllable }),
  windPower: definition('asset', {
    ...producerFields,
    windSpeed: measurement('m/s'),
    rotorSpeed: measurement('rpm'),
    nacelleDirection: measurement('degrees'),
    converterStatus: oneOf(windConverterStatuses),
  }),
  'windPower.flash': definition('asset', { ...flashFields, windSpeed: measurement('m/s'), ...controllable }),
  batteryPower: definition('asset', batteryFields),
  /** batteryPower averaged over the reporting interval (device-model.md section 3.12 forwards it apart). */
  batteryPowerFiltered: definition('asset', batteryFields),
  'batteryPower.flash': definition('asset', { ...flashFields, stateOfCharge: percentage(), ...controllable }),
  meterPower: definition('asset', meterFields),
  /** The meter flash report carries activePower and the config's additionalProperties (device-model.md section 3.4). */
  'meterPower.flash': definition('asset', {
    ...flashFields,
    phaseVoltage: acFields.phaseVoltage,
    lineVoltage: acFields.lineVoltage,
    phaseCurrent: acFields.phaseCurrent,
    lineCurrent: acFields.lineCurrent,
  }),
  thermalPower: definition('asset', {
    /** Electric power the heat storage draws, W (negative while heating). */
    activePower: measurement('W'),
    /** Storage temperature, °C. */
    temperature: measurement('°C'),
    /** Charge of the heat storage, % of its capacity. */
    stateOfCharge: percentage(),
    storedEnergy: measurement('Wh'),
    /** The Sager furnace's schedule as the furnace holds it. */
    schedule: list(required(group(sagerFurnaceReportEntryFields)), commandLimits.sagerFurnaceReportEntries),
    ...controllable,
    ...statistics,
  }),
  evPower: definition('asset', {
    activePower: measurement('W'),
    phaseCurrent: group(threePhases),
    energyCharged: measurement('Wh'),
    points: list(required(group(chargePointFields)), 64),
    ...controllable,
    ...statistics,
  }),
  environmental: definition('asset', {
    irradiance: measurement('W/m²'),
    ambientTemperature: measurement('°C'),
    moduleTemperature: measurement('°C'),
    windSpeed: measurement('m/s'),
    windDirection: measurement('degrees'),
    /** The named channels of a temperature sensor. */
    temperatures: list(required(group({ name: required(text(100)), value: present(measurement('°C')) })), 64),
    ...statistics,
  }),
  /** A meter with relay outputs (a protection relay, for one): the meter's readings and the channels' states. */
  meterRelayPower: definition('asset', { ...meterFields, channels: list(present(oneOf(relayChannelStates)), 64), tripped: flag() }),
  generatorPower: definition('asset', {
    ...producerFields,
    status: oneOf(generatorStatuses),
    fuelLevel: percentage(),
    runningHours: { ...measurement('h'), min: 0 },
  }),
  relay: definition('asset', { channels: list(present(oneOf(relayChannelStates)), 64), ...statistics }),
} as const;

const deviceReportDefinitions = {
  /** The config the device runs, after a setConfig or a local change; the hub checks `config` against deviceConfigSchema apart. */
  config: definition('device', {
    ...commandReply,
    source: required(oneOf(['cloud', 'local', 'default'] as const)),
    config: required(jsonObject()),
  }),
  /**
   * The outcome of a cloud-to-device message, once the device has carried it out (the envelope
   * ack only says the message arrived and was kept).
   */
  ack: definition('device', {
    messageId: required(text(64)),
    messageType: required(text(64)),
    /** debugPing: its payload, echoed. */
    payload: text(1000),
  }),
  /** A failure on the device: carrying out a message (messageId), or its own (a crashed loop, a full disk). */
  error: definition('optionalAsset', {
    ...commandReply,
    messageType: text(64),
    code: required(text(100)),
    message: required(text(2000)),
  }),
  /** An alarm an asset raised (readAlarms) or the device raised; active false when it clears. */
  alarm: definition('optionalAsset', {
    code: required(text(100)),
    level: required(oneOf(alarmLevels)),
    active: required(flag()),
    description: text(2000),
  }),
  /** The identifiers the device read from its configured assets. */
  assetIdentifiers: definition('device', {
    assets: required(list(required(group({ asset: index(), identifier: present(text(200)) })), 1000)),
  }),
  /** Assets the device found that its config does not name. */
  unidentifiedAssets: definition('device', {
    assets: required(
      list(
        required(
          group({
            host: text(253),
            port: integer(1, 65535),
            slaveId: integer(0, 255),
            manufacturer: text(200),
            model: text(200),
            serialNumber: text(200),
          }),
        ),
        1000,
      ),
    ),
  }),
  /** Answer to getMetadata (SunSpec common model: manufacturer, model, version, serial number). */
  assetMetadata: definition('asset', {
    ...commandReply,
    manufacturer: text(200),
    model: text(200),
    serialNumber: text(200),
    firmwareVersion: text(200),
    hardwareVersion: text(200),
    nominalActivePower: measurement('W'),
    /** Further type-specific values, not looked into. */
    details: jsonObject(),
  }),
  /** Answer to getJournal: up to 500 lines of the system journal, oldest first. */
  journal: definition('device', { ...commandReply, lines: required(list(required(text(8192)), commandLimits.journalLinesMax)) }),
  /** The cellular link, on getSignalQuality and periodically. */
  signalQuality: definition('device', {
    ...commandReply,
    technology: oneOf(cellularTechnologies),
    operator: text(100),
    band: text(50),
    rssi: measurement('dBm'),
    rsrp: measurement('dBm'),
    rsrq: measurement('dB'),
    sinr: measurement('dB'),
  }),
  /** Answer to getRoutingTable. */
  routingTable: definition('device', {
    ...commandReply,
    routes: required(
      list(required(group({ destination: required(text(64)), gateway: text(64), interface: required(text(32)), metric: integer(0, 2 ** 32 - 1) })), 1000),
    ),
  }),
  /** Answer to scanNetwork: the hosts found on the local networks. */
  networkScan: definition('device', {
    ...commandReply,
    hosts: required(
      list(
        required(
          group({
            address: required(text(64)),
            mac: text(17),
            hostname: text(253),
            vendor: text(200),
            openPorts: list(required(integer(1, 65535)), 1000),
          }),
        ),
        4096,
      ),
    ),
  }),
  /** Answer to executeModbusCommand: the command as carried out, and what the asset answered. */
  executedModbusCommand: definition('device', {
    ...commandReply,
    command: required(jsonObject()),
    registers: list(required(integer(0, commandLimits.modbusRegisterValueMax)), commandLimits.modbusReadRegisters),
    bits: list(required(flag()), commandLimits.modbusReadBits),
    identification: jsonObject(),
    error: text(2000),
  }),
  /** Answer to executeOPCXMLDACommand and executeVestasAPCommand: the items read or written. */
  executedOPCXMLDACommand: definition('device', {
    ...commandReply,
    command: required(jsonObject()),
    items: list(required(group(browseItemFields)), 1000),
    error: text(2000),
  }),
  executedVestasAPCommand: definition('asset', {
    ...commandReply,
    command: required(jsonObject()),
    items: list(required(group(browseItemFields)), 1000),
    error: text(2000),
  }),
  /** A schedule item the asset or loop started to carry out (setAssetSchedule), as it was sent. */
  executedAssetSchedule: definition('assetOrController', {
    ...commandReply,
    startAt: required(time()),
    endAt: required(time()),
    command: required(jsonObject()),
  }),
  /** Parameters the asset or loop took over (setAssetParameters), as they were sent. */
  executedAssetParameters: definition('assetOrController', { ...commandReply, parameters: required(jsonObject()) }),
} as const;

/** What every control loop reports (ours; the spec names a status report per loop type and no fields). */
export const controlLoopStatusFields = {
  state: required(oneOf(controlLoopStates)),
  /** Power at the monitored point (grid connection or the loop's meters), W, meter sign. */
  monitoredPower: measurement('W'),
  /** The limits the loop enforces now, W (null: none). */
  consumptionLimit: measurement('W'),
  feedInLimit: measurement('W'),
  /** How long the last iteration took, ms (the "slow control loop" monitor). */
  iterationMs: { ...measurement('ms'), min: 0 },
  /** Assets the loop could not limit or control in the last iteration, by index. */
  unlimitableAssets: list(required(index()), 1000),
  uncontrollableAssets: list(required(index()), 1000),
  /** Meters or sensors the loop could not read in the last iteration, by index. */
  unreadableAssets: list(required(index()), 1000),
} as const;

const batteryLoopFields = { stateOfCharge: percentage(), batteryPower: measurement('W') } as const;

/** Fields some loops add to controlLoopStatusFields. */
const controlLoopStatusExtras = {
  proportionalPeakShaver: {},
  batteryPowerLimiter: batteryLoopFields,
  batteryCurrentLimiter: { ...batteryLoopFields, phaseCurrent: group(threePhases), currentLimit: measurement('A') },
  cascadeBatteryPowerLimiter: batteryLoopFields,
  batteryPowerReservationLimiter: { ...batteryLoopFields, reservedPower: measurement('W') },
  powerReservationLimiter: { reservedPower: measurement('W') },
  powerLimiter: {},
  apparentPowerLimiter: { apparentPower: measurement('VA'), apparentPowerLimit: measurement('VA') },
  currentLimiter: { phaseCurrent: group(threePhases), currentLimit: measurement('A') },
  temperaturePowerLimiter: { temperature: measurement('°C') },
  afrrLimiter: { afrrDeltaSetpoint: measurement('W'), afrrAllocated: measurement('W') },
  zonbalansPowerLimiter: {},
  modbusServer: { clientConnected: flag(), lastHeartbeatAt: time() },
  batteryPeakShaver: batteryLoopFields,
  generatorBatteryCharger: { ...batteryLoopFields, generatorRunning: flag() },
  gridOperatorHedno: { localMode: flag(), gridOperatorLimit: measurement('W') },
  optimizer: {
    solverStatus: oneOf(['optimal', 'infeasible', 'unbounded', 'timeLimit', 'error'] as const),
    objective: measurement(''),
    solveMs: { ...measurement('ms'), min: 0 },
  },
} as const satisfies Record<Exclude<ControlLoopType, 'realTimeInterface'>, Fields>;

type StatusLoop = keyof typeof controlLoopStatusExtras;
/** The status report type of a loop: `${loop}Status`; the realTimeInterface loop reports rtiStatus. */
export type ControlLoopStatusType = `${StatusLoop}Status`;

type ControlLoopStatusDefinitions = {
  [L in StatusLoop as `${L}Status`]: {
    readonly target: 'controller';
    readonly observations: typeof controlLoopStatusFields & (typeof controlLoopStatusExtras)[L];
  };
};

function controlLoopStatusDefinitions(): ControlLoopStatusDefinitions {
  const definitions: Record<string, ReportDefinition> = {};
  for (const loop of controlLoopTypes) {
    if (loop !== 'realTimeInterface') {
      definitions[`${loop}Status`] = definition('controller', { ...controlLoopStatusFields, ...controlLoopStatusExtras[loop] });
    }
  }
  return definitions as ControlLoopStatusDefinitions;
}

/** Every report type and its definition: the one place a report's shape is said. */
export const reportDefinitions = {
  ...assetReportDefinitions,
  ...deviceReportDefinitions,
  /** The realTimeInterface loop's status: the link to the grid operator's real-time interface. */
  rtiStatus: definition('controller', {
    ...controlLoopStatusFields,
    connected: flag(),
    lastExchangeAt: time(),
    /** What the site reports to the grid operator, W and var. */
    activePower: measurement('W'),
    reactivePower: measurement('var'),
    /** The range the site offers, W. */
    maxActivePower: measurement('W'),
    minActivePower: measurement('W'),
    /** The setpoint the grid operator sent, W. */
    gridOperatorSetpoint: measurement('W'),
  }),
  ...controlLoopStatusDefinitions(),
} as const;

type Definitions = typeof reportDefinitions;
export type ReportType = keyof Definitions;
export const reportTypes = Object.keys(reportDefinitions) as ReportType[];

type TargetShape<T extends ReportTarget> = T extends 'asset'
  ? { asset: number }
  : T extends 'controller'
    ? { controller: number }
    : T extends 'optionalAsset'
      ? { asset?: number }
      : T extends 'assetOrController'
        ? { asset?: number; controller?: number }
        : unknown;

/** The report of one type. */
export type ReportOf<T extends ReportType> = Simplify<
  { type: T; at: string } & TargetShape<Definitions[T]['target']> & { observations: Shape<Definitions[T]['observations']> }
>;

/** Any device-to-cloud report. */
export type DeviceReport = { [T in ReportType]: ReportOf<T> }[ReportType];
export type ReportEnvelope = Envelope<'report', DeviceReport>;

export type SetpointObservations = Shape<typeof setpointFields>;
export type ConnectionStatistics = Shape<typeof connectionStatisticsFields>;
export type SolarPowerReport = ReportOf<'solarPower'>;
export type SolarPowerFlashReport = ReportOf<'solarPower.flash'>;
export type WindPowerReport = ReportOf<'windPower'>;
export type WindPowerFlashReport = ReportOf<'windPower.flash'>;
export type BatteryPowerReport = ReportOf<'batteryPower'>;
export type BatteryPowerFilteredReport = ReportOf<'batteryPowerFiltered'>;
export type BatteryPowerFlashReport = ReportOf<'batteryPower.flash'>;
export type MeterPowerReport = ReportOf<'meterPower'>;
export type MeterPowerFlashReport = ReportOf<'meterPower.flash'>;
export type ThermalPowerReport = ReportOf<'thermalPower'>;
export type EvPowerReport = ReportOf<'evPower'>;
export type EnvironmentalReport = ReportOf<'environmental'>;
export type MeterRelayPowerReport = ReportOf<'meterRelayPower'>;
export type GeneratorPowerReport = ReportOf<'generatorPower'>;
export type RelayReport = ReportOf<'relay'>;
export type ConfigReport = ReportOf<'config'>;
export type RtiStatusReport = ReportOf<'rtiStatus'>;
export type AckReport = ReportOf<'ack'>;
export type ErrorReport = ReportOf<'error'>;
export type AlarmReport = ReportOf<'alarm'>;
export type AssetIdentifiersReport = ReportOf<'assetIdentifiers'>;
export type UnidentifiedAssetsReport = ReportOf<'unidentifiedAssets'>;
export type AssetMetadataReport = ReportOf<'assetMetadata'>;
export type JournalReport = ReportOf<'journal'>;
export type SignalQualityReport = ReportOf<'signalQuality'>;
export type RoutingTableReport = ReportOf<'routingTable'>;
export type NetworkScanReport = ReportOf<'networkScan'>;
export type ExecutedModbusCommandReport = ReportOf<'executedModbusCommand'>;
export type ExecutedOPCXMLDACommandReport = ReportOf<'executedOPCXMLDACommand'>;
export type ExecutedVestasAPCommandReport = ReportOf<'executedVestasAPCommand'>;
export type ExecutedAssetScheduleReport = ReportOf<'executedAssetSchedule'>;
export type ExecutedAssetParametersReport = ReportOf<'executedAssetParameters'>;
/** The status report of one control loop type, e.g. ControlLoopStatusReport<'powerLimiter'> (type powerLimiterStatus). */
export type ControlLoopStatusReport<L extends StatusLoop = StatusLoop> = ReportOf<`${L}Status`>;

// ---------------------------------------------------------------------------------------------
// Validation: checks compiled once from the tables.
// ---------------------------------------------------------------------------------------------

export interface ReportIssue {
  path: string;
  message: string;
}
export type ReportValidation = { ok: true; report: DeviceReport } | { ok: false; issues: ReportIssue[] };

/** Checks a value found at `key` of the object or array at `parent`; the path is built only for an issue. */
type Check = (value: unknown, parent: string, key: string | number, issues: ReportIssue[]) => void;

function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') {
    return `${parent}[${key}]`;
  }
  return parent === '' ? key : `${parent}.${key}`;
}

function describeNumber(field: NumberField): string {
  const what = field.integer ? 'an integer' : 'a finite number';
  if (field.min > -Infinity && field.max < Number.MAX_SAFE_INTEGER) {
    return `${what} from ${field.min} to ${field.max}`;
  }
  if (field.min > -Infinity) {
    return `${what} of at least ${field.min}`;
  }
  if (field.max < Number.MAX_SAFE_INTEGER) {
    return `${what} of at most ${field.max}`;
  }
  return what;
}

function compileNumber(field: NumberField): Check {
  const { min, max, integer: isInteger } = field;
  const message = `must be ${describeNumber(field)}${field.nullable ? ' or null' : ''}`;
  return (value, parent, key, issues) => {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (isInteger && !Number.isInteger(value))) {
      issues.push({ path: pathOf(parent, key), message: `${pathOf(parent, key)} ${message}` });
    }
  };
}

const unstorableMessage = 'must not contain U+0000 or an unpaired surrogate';

function compileString(field: StringField): Check {
  const { maxLength } = field;
  const message = `must be a string of at most ${maxLength} characters${field.nullable ? ' or null' : ''}`;
  return (value, parent, key, issues) => {
    if (typeof value !== 'string' || value.length > maxLength) {
      issues.push({ path: pathOf(parent, key), message: `${pathOf(parent, key)} ${message}` });
      return;
    }
    if (!isStorableText(value)) {
      issues.push({ path: pathOf(parent, key), message: `${pathOf(parent, key)} ${unstorableMessage}` });
    }
  };
}

function compileEnum(field: EnumField): Check {
  const allowed = new Set<unknown>(field.values);
  const message = `must be one of ${field.values.join(', ')}${field.nullable ? ' or null' : ''}`;
  return (value, parent, key, issues) => {
    if (!allowed.has(value)) {
      issues.push({ path: pathOf(parent, key), message: `${pathOf(parent, key)} ${message}` });
    }
  };
}

const timeMessage = 'must be an ISO 8601 date and time with a zone, such as 2026-05-01T12:00:00Z';

function checkTime(value: unknown, parent: string, key: string | number, issues: ReportIssue[]): void {
  if (typeof value !== 'string' || !isIsoDateTime(value)) {
    issues.push({ path: pathOf(parent, key), message: `${pathOf(parent, key)} ${timeMessage}` });
  }
}

function checkBoolean(value: unknown, parent: string, key: string | number, issues: ReportIssue[]): void {
  if (typeof value !== 'boolean') {
    issues.push({ path: pathOf(parent, key), message: `${pathOf(parent, key)} must be true or false` });
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How deep the free-form objects of a report (a config, parameters, details) may nest. */
export const jsonObjectDepthMax = 32;

/** The first problem of a free-form JSON value: too deep, or text that cannot be stored; null when there is none. Stops at the depth limit. */
function jsonValueProblem(value: unknown, depth: number): string | null {
  if (typeof value === 'string') {
    return isStorableText(value) ? null : unstorableMessage;
  }
  if (typeof value !== 'object' || value === null) {
    return null;
  }
  if (depth > jsonObjectDepthMax) {
    return `must nest at most ${jsonObjectDepthMax} levels deep`;
  }
  const entries = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
  if (!Array.isArray(value)) {
    for (const name of Object.keys(value)) {
      if (!isStorableText(name)) {
        return `keys ${unstorableMessage}`;
      }
    }
  }
  for (const entry of entries) {
    const problem = jsonValueProblem(entry, depth + 1);
    if (problem !== null) {
      return problem;
    }
  }
  return null;
}

function checkJsonObject(value: unknown, parent: string, key: string | number, issues: ReportIssue[]): void {
  if (!isPlainObject(value)) {
    issues.push({ path: pathOf(parent, key), message: `${pathOf(parent, key)} must be an object` });
    return;
  }
  const problem = jsonValueProblem(value, 1);
  if (problem !== null) {
    issues.push({ path: pathOf(parent, key), message: `${pathOf(parent, key)} ${problem}` });
  }
}

interface CompiledField {
  key: string;
  optional: boolean;
  nullable: boolean;
  check: Check;
}

/**
 * The check of an object: each known field, then any unknown one (by counting, so a valid object
 * costs no key list). `staticPath` is the object's path when no list lies above it, so that a
 * valid report builds no path strings.
 */
function compileObject(fields: Fields, staticPath: string | undefined): Check {
  const compiled: CompiledField[] = Object.entries(fields).map(([key, field]) => ({
    key,
    optional: field.optional,
    nullable: field.nullable,
    check: compileField(field, staticPath === undefined ? undefined : pathOf(staticPath, key)),
  }));
  const known = new Set(Object.keys(fields));
  const count = compiled.length;
  return (value, parent, key, issues) => {
    const path = staticPath ?? pathOf(parent, key);
    if (!isPlainObject(value)) {
      issues.push({ path, message: `${path} must be an object` });
      return;
    }
    let present = 0;
    for (let i = 0; i < count; i += 1) {
      const field = compiled[i] as CompiledField;
      const fieldValue = value[field.key];
      if (fieldValue === undefined) {
        if (!field.optional) {
          issues.push({ path: pathOf(path, field.key), message: `${pathOf(path, field.key)} is required` });
        }
        continue;
      }
      present += 1;
      if (fieldValue === null && field.nullable) {
        continue;
      }
      field.check(fieldValue, path, field.key, issues);
    }
    let total = 0;
    for (const name in value) {
      if (Object.prototype.hasOwnProperty.call(value, name)) {
        total += 1;
      }
    }
    if (total !== present) {
      for (const name of Object.keys(value)) {
        if (!known.has(name)) {
          issues.push({ path: pathOf(path, name), message: `${pathOf(path, name)} is not a known field` });
        }
      }
    }
  };
}

function compileArray(field: ArrayField, staticPath: string | undefined): Check {
  const { maxItems } = field;
  const item = field.item;
  const check = compileField(item, undefined);
  return (value, parent, key, issues) => {
    if (!Array.isArray(value)) {
      issues.push({ path: pathOf(parent, key), message: `${pathOf(parent, key)} must be a list` });
      return;
    }
    if (value.length > maxItems) {
      issues.push({ path: pathOf(parent, key), message: `${pathOf(parent, key)} must have at most ${maxItems} entries` });
      return;
    }
    const path = staticPath ?? pathOf(parent, key);
    for (let i = 0; i < value.length; i += 1) {
      const entry: unknown = value[i];
      if (entry === null && item.nullable) {
        continue;
      }
      check(entry, path, i, issues);
    }
  };
}

function compileField(field: Field, staticPath: string | undefined): Check {
  switch (field.kind) {
    case 'number':
      return compileNumber(field);
    case 'string':
      return compileString(field);
    case 'boolean':
      return checkBoolean;
    case 'enum':
      return compileEnum(field);
    case 'time':
      return checkTime;
    case 'object':
      return compileObject(field.fields, staticPath);
    case 'array':
      return compileArray(field, staticPath);
    case 'jsonObject':
      return checkJsonObject;
  }
}

const assetIndex = index();

/** The whole report of one type as a table: type, at, the target's indices, observations. */
function reportFields(type: string, { target, observations }: ReportDefinition): Fields {
  const fields: Record<string, Field> = {
    type: required(oneOf([type])),
    at: required(time()),
  };
  if (target === 'asset') {
    fields.asset = assetIndex;
  } else if (target === 'controller') {
    fields.controller = assetIndex;
  } else if (target === 'optionalAsset') {
    fields.asset = { ...assetIndex, optional: true };
  } else if (target === 'assetOrController') {
    fields.asset = { ...assetIndex, optional: true };
    fields.controller = { ...assetIndex, optional: true };
  }
  fields.observations = required(group(observations));
  return fields;
}

interface CompiledReport {
  check: Check;
  exactlyOneTarget: boolean;
}

const compiledReports = new Map<string, CompiledReport>(
  Object.entries(reportDefinitions as Record<string, ReportDefinition>).map(([type, definition]) => [
    type,
    { check: compileObject(reportFields(type, definition), ''), exactlyOneTarget: definition.target === 'assetOrController' },
  ]),
);

const typeMessage = `type must be a report type: ${reportTypes.join(', ')}`;

/**
 * Validates a device-to-cloud report (the payload of a report envelope): its type is known, `at`
 * is an ISO 8601 date and time with a zone, the asset or controller index is there when the
 * type needs it, every field is known and of its kind, numbers are finite, lists within their
 * limits. Returns the value itself, typed, or every issue with its path (`observations.activePower`).
 */
export function validateReport(value: unknown): ReportValidation {
  if (!isPlainObject(value)) {
    return { ok: false, issues: [{ path: '', message: 'A report must be an object' }] };
  }
  const type = value.type;
  if (type === undefined) {
    return { ok: false, issues: [{ path: 'type', message: 'type is required' }] };
  }
  const compiled = typeof type === 'string' ? compiledReports.get(type) : undefined;
  if (compiled === undefined) {
    return { ok: false, issues: [{ path: 'type', message: typeMessage }] };
  }
  const issues: ReportIssue[] = [];
  compiled.check(value, '', '', issues);
  if (compiled.exactlyOneTarget && (value.asset === undefined) === (value.controller === undefined)) {
    issues.push({ path: '', message: `${type} reports must give exactly one of asset and controller` });
  }
  if (issues.length > 0) {
    return { ok: false, issues };
  }
  return { ok: true, report: value as DeviceReport };
}

// ---------------------------------------------------------------------------------------------
// Plausibility: what a valid report must also be to be stored (docs/gateway-protocol.md, section 4).
// ---------------------------------------------------------------------------------------------

/**
 * How far a report's `at` may lie from the server's clock. Behind: a gateway keeps its backlog
 * on disk while the link is down, for weeks at most, and raw reports are kept 90 days by
 * default; a year covers both with room. Ahead: a device clock may run a little fast; more
 * than that is a clock that was never set (or a forged date) and would land in a month no
 * partition holds.
 */
export const reportTimeWindow = {
  maxAgeDays: 366,
  maxAheadMinutes: 15,
} as const;

/** How many assets and control loops the config a device runs has: the indices its reports may name. */
export interface RunningConfig {
  assets: number;
  controllers: number;
}

/** The counts of a config (contracts/device/config.ts: `assets`, `activeControl`); null when the value is not one. */
export function runningConfigOf(config: unknown): RunningConfig | null {
  if (typeof config !== 'object' || config === null || !Array.isArray((config as { assets?: unknown }).assets)) {
    return null;
  }
  const { assets, activeControl } = config as { assets: unknown[]; activeControl?: unknown };
  return { assets: assets.length, controllers: Array.isArray(activeControl) ? activeControl.length : 0 };
}

/**
 * The issues that make a valid report implausible, empty when there are none: `at` outside
 * reportTimeWindow around `now` (epoch milliseconds), or an `asset` or `controller` index the
 * running config does not have. Without a known running config the indices are not checked.
 */
export function implausibleReportIssues(
  report: { at: string; asset?: number | null; controller?: number | null },
  now: number,
  running: RunningConfig | null,
): ReportIssue[] {
  const issues: ReportIssue[] = [];
  const at = Date.parse(report.at);
  const earliest = now - reportTimeWindow.maxAgeDays * 24 * 60 * 60 * 1000;
  const latest = now + reportTimeWindow.maxAheadMinutes * 60 * 1000;
  if (!(at >= earliest && at <= latest)) {
    issues.push({
      path: 'at',
      message: `at must lie between ${new Date(earliest).toISOString()} and ${new Date(latest).toISOString()} (${reportTimeWindow.maxAgeDays} days before to ${reportTimeWindow.maxAheadMinutes} minutes after the server's clock)`,
    });
  }
  if (running === null) {
    return issues;
  }
  if (typeof report.asset === 'number' && report.asset >= running.assets) {
    issues.push({
      path: 'asset',
      message:
        running.assets === 0
          ? "asset must be an index of the running config's assets, and it has none"
          : `asset must be an index of the running config's assets: 0 to ${running.assets - 1}`,
    });
  }
  if (typeof report.controller === 'number' && report.controller >= running.controllers) {
    issues.push({
      path: 'controller',
      message:
        running.controllers === 0
          ? "controller must be an index of the running config's control loops, and it has none"
          : `controller must be an index of the running config's control loops: 0 to ${running.controllers - 1}`,
    });
  }
  return issues;
}

/** What subscribers get for each stored report, on channels.reports(deviceId). */
export interface StoredReport {
  deviceId: number;
  reportId: string;
  type: string;
  at: string;
  assetIndex: number | null;
  controllerIndex: number | null;
  body: Record<string, unknown>;
}
