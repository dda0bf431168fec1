import * as yup from 'yup';
import { configIndex, integer, quantity } from '../numbers';
import { deviceCommunicationSchema, urlConnectionSchema } from './connection';
import { fieldOf, joinPath, validationMessages, taggedUnion, uniqueBy } from './time-window';

/** Limits of schedules, parameters and Modbus commands (device-model.md sections 5, 8, 9; api.md sections 5, 9). */
export const commandLimits = {
  /** Most schedule items in one PUT /v2/schedule. */
  scheduleItems: 192,
  /** Identifiers in a schedule or parameters call: 1 to 100. */
  identifiersMin: 1,
  identifiersMax: 100,
  /** Sager furnace schedule entries: 11 in parameters, 12 in reports. */
  sagerFurnaceParameterEntries: 11,
  sagerFurnaceReportEntries: 12,
  /** Modbus: highest address, most coils or registers in one write, most per read. */
  modbusAddressMax: 65535,
  modbusRegisterValueMax: 65535,
  modbusWriteItems: 1968,
  modbusReadRegisters: 125,
  modbusReadBits: 2000,
  /** Register report length of a Modbus asset's own register reports: 1 to 123. */
  modbusReportLength: 123,
  /** getJournal: 1 to 500 lines. */
  journalLinesMax: 500,
  /** OSI selectors: hex characters of the transport, session and presentation selectors. */
  transportSelectorLength: 8,
  sessionSelectorLength: 16,
  presentationSelectorLength: 16,
} as const;

/** How far ahead a command may start: 2147483647 ms, about 24.8 days (device-model.md section 8). */
export const maxCommandStartAheadMs = 2147483647;
/** How far in the past a command's end may lie before the schedule is refused: 24 hours (section 8). */
export const maxCommandEndAgeMs = 24 * 60 * 60 * 1000;
/** Longest command, end minus start: 2147483647 ms (section 8). */
export const maxCommandIntervalMs = 2147483647;

const isoDateTime = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/** Milliseconds since the epoch of an ISO 8601 date and time with a zone, or undefined when it is none (a 30 February included). */
export function parseIsoDateTime(value: string): number | undefined {
  const match = isoDateTime.exec(value);
  if (match === null) {
    return undefined;
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) {
    return undefined;
  }
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

/** An ISO 8601 date and time with a zone (Z or an offset); kept as the string given. */
export const isoDateTimeSchema = yup
  .string()
  .test('iso-date-time', '${path} must be an ISO 8601 date and time with a zone, such as 2026-05-01T12:00:00Z', (value) => {
    return value === undefined || parseIsoDateTime(value) !== undefined;
  });

function typeField<T extends string>(type: T) {
  return yup
    .string()
    .oneOf([type] as const)
    .required();
}

const percentage = quantity().min(0).max(100);
const power = quantity();

/** limitProductionPower: cap production at a percentage of nominal power (device-model.md section 3.7). */
export const limitProductionPowerCommandSchema = yup.object({ type: typeField('limitProductionPower'), percentage: percentage.required() }).exact();

/** applyAfrrDeltaSetpoint: an aFRR delta in W on top of the current setpoint (section 3.7). */
export const applyAfrrDeltaSetpointCommandSchema = yup.object({ type: typeField('applyAfrrDeltaSetpoint'), deltaSetpoint: power.required() }).exact();

/**
 * limitPower: limits at the grid connection in W, feedIn and consume, null for none (section 3.7).
 * At least one is given, and the pair obeys the inverted-limit rule of section 5.
 */
export const limitPowerCommandSchema = yup
  .object({
    type: typeField('limitPower'),
    feedIn: power.nullable().default(null),
    consume: power.nullable().default(null),
  })
  .exact()
  .test('limit-power-given', '${path} must give feedIn, consume or both', (value) => value.feedIn !== null || value.consume !== null)
  .test('limit-power-pair', validationMessages.invertedLimits, (value) => {
    return value.feedIn === null || value.consume === null || -value.consume <= value.feedIn;
  });

/**
 * setBatteryOperation (section 3.7): dispatchPower in W (positive discharges, negative charges),
 * or chargeToState, a state of charge in percent to charge or discharge to; not both.
 * deliverFCR: the battery takes part in frequency containment meanwhile (default false).
 */
export const setBatteryOperationCommandSchema = yup
  .object({
    type: typeField('setBatteryOperation'),
    dispatchPower: power.nullable().default(null),
    deliverFCR: yup.boolean().default(false),
    chargeToState: percentage.nullable().default(null),
  })
  .exact()
  .test('battery-operation', '${path} must give dispatchPower or chargeToState, not both', (value) => {
    return value.dispatchPower === null || value.chargeToState === null;
  });

/** setRelayOperation: the state of each relay channel, in the asset's channel order (section 3.7). */
export const setRelayOperationCommandSchema = yup
  .object({
    type: typeField('setRelayOperation'),
    relays: yup
      .array(
        yup
          .string()
          .oneOf(['on', 'off'] as const)
          .required(),
      )
      .min(1)
      .required(),
  })
  .exact();

/**
 * setEVOperation: a charging limit, by activePower in W or by phaseCurrent in A, exactly one
 * (section 3.7). Like the EV limits of the config (section 3.4), both are non-positive:
 * consumption is negative.
 */
export const setEvOperationCommandSchema = yup
  .object({
    type: typeField('setEVOperation'),
    activePower: quantity().max(0).optional(),
    phaseCurrent: quantity().max(0).optional(),
  })
  .exact()
  .test('ev-operation', '${path} must give exactly one of activePower and phaseCurrent', (value) => {
    return (value.activePower === undefined) !== (value.phaseCurrent === undefined);
  });

function productionOperationSchema<T extends 'setSolarOperation' | 'setWindOperation'>(type: T) {
  return yup
    .object({
      type: typeField(type),
      activePower: quantity().min(0).optional(),
      activePowerPercentage: percentage.optional(),
      reactivePower: quantity().optional(),
    })
    .exact()
    .test('production-operation', '${path} must give activePower or activePowerPercentage (not both), or reactivePower', (value) => {
      const byPower = value.activePower !== undefined;
      const byPercentage = value.activePowerPercentage !== undefined;
      return !(byPower && byPercentage) && (byPower || byPercentage || value.reactivePower !== undefined);
    });
}

/** setSolarOperation: limit by activePower (W) or activePowerPercentage, plus reactivePower (var) (section 3.7). */
export const setSolarOperationCommandSchema = productionOperationSchema('setSolarOperation');
/** setWindOperation: as setSolarOperation (section 3.7). */
export const setWindOperationCommandSchema = productionOperationSchema('setWindOperation');

/**
 * setGeneratorOperation: fields not shown in the spec (section 3.7). Ours: run (start or stop
 * the generator) and, while running, an optional activePower setpoint in W.
 */
export const setGeneratorOperationCommandSchema = yup
  .object({
    type: typeField('setGeneratorOperation'),
    run: yup.boolean().required(),
    activePower: quantity().min(0).optional(),
  })
  .exact();

/** An asset command, tagged by `type` (device-model.md section 3.7; spec README "Schedule items"). */
export const assetCommandSchema = taggedUnion({
  limitProductionPower: limitProductionPowerCommandSchema,
  applyAfrrDeltaSetpoint: applyAfrrDeltaSetpointCommandSchema,
  limitPower: limitPowerCommandSchema,
  setBatteryOperation: setBatteryOperationCommandSchema,
  setRelayOperation: setRelayOperationCommandSchema,
  setEVOperation: setEvOperationCommandSchema,
  setSolarOperation: setSolarOperationCommandSchema,
  setWindOperation: setWindOperationCommandSchema,
  setGeneratorOperation: setGeneratorOperationCommandSchema,
});
export type AssetCommand = yup.InferType<typeof assetCommandSchema>;
export type AssetCommandType = AssetCommand['type'];

/**
 * A schedule item: startAt, endAt (ISO 8601) and a command (spec README "Schedule items").
 * endAt must be later than startAt. The time checks that give error keys are the server's
 * (see classifyScheduleItem).
 */
export const scheduleItemSchema = yup
  .object({
    startAt: isoDateTimeSchema.required(),
    endAt: isoDateTimeSchema.required(),
    command: assetCommandSchema,
  })
  .exact()
  .test('end-after-start', '${path} must be later than startAt', function check(value) {
    const start = parseIsoDateTime(value.startAt);
    const end = parseIsoDateTime(value.endAt);
    if (start === undefined || end === undefined || end > start) {
      return true;
    }
    const path = joinPath(this.path, 'endAt');
    return this.createError({ path, message: `${path} must be later than startAt` });
  });
export type ScheduleItem = yup.InferType<typeof scheduleItemSchema>;

/** What the server does with one schedule item at time `now` (device-model.md section 8; spec README "Commands in the past"). */
export type ScheduleItemVerdict = 'ok' | 'drop' | 'start_at_too_far_in_future' | 'end_at_too_far_in_the_past' | 'interval_too_long';

/**
 * Classifies a (valid) schedule item at `now`: an end more than 24 hours ago refuses the call
 * (end_at_too_far_in_the_past); an end in the past within those 24 hours, or now, is dropped
 * silently; a start more than 2147483647 ms ahead, or an interval longer than that, refuses the call.
 */
export function classifyScheduleItem(item: { startAt: string; endAt: string }, now: Date | number): ScheduleItemVerdict {
  const at = typeof now === 'number' ? now : now.getTime();
  const start = Date.parse(item.startAt);
  const end = Date.parse(item.endAt);
  if (at - end > maxCommandEndAgeMs) {
    return 'end_at_too_far_in_the_past';
  }
  if (end <= at) {
    return 'drop';
  }
  if (start - at > maxCommandStartAheadMs) {
    return 'start_at_too_far_in_future';
  }
  if (end - start > maxCommandIntervalMs) {
    return 'interval_too_long';
  }
  return 'ok';
}

/** Identifiers in a list must not repeat ("Ids must be unique"). */
export function uniqueIdentifiers<S extends yup.ArraySchema<unknown[] | undefined, yup.AnyObject, unknown, yup.Flags>>(schema: S): S {
  return uniqueBy(schema, validationMessages.idsUnique, (identifier) => identifier);
}

/** 1 to 100 asset or controller identifiers, none repeated (api.md section 5). */
export const identifiersSchema = uniqueIdentifiers(
  yup.array(yup.string().trim().min(1).max(100).required()).min(commandLimits.identifiersMin).max(commandLimits.identifiersMax),
);

/**
 * PUT /v2/schedule body (api.md sections 5, 7): the schedule (at most 192 items; empty clears
 * the schedule, since a call replaces it) and exactly one of assetIdentifiers or
 * controllerIdentifiers. The 192 limit applies to controllers too.
 */
export const scheduleBodySchema = yup
  .object({
    schedule: yup.array(scheduleItemSchema).max(commandLimits.scheduleItems).required(),
    assetIdentifiers: identifiersSchema.optional().default(undefined),
    controllerIdentifiers: identifiersSchema.optional().default(undefined),
  })
  .exact()
  .test('one-target', '${path} must give exactly one of assetIdentifiers and controllerIdentifiers', function check(value) {
    if ((value.assetIdentifiers === undefined) !== (value.controllerIdentifiers === undefined)) {
      return true;
    }
    return this.createError({ message: 'Exactly one of assetIdentifiers and controllerIdentifiers must be given' });
  });
export type ScheduleBody = yup.InferType<typeof scheduleBodySchema>;

/**
 * One entry of a Sager furnace schedule (device-model.md section 3.8): charge, the charging
 * power in percent of nominal (our reading; the spec names the field only), from startAt to endAt.
 */
export const sagerFurnaceEntrySchema = yup
  .object({
    charge: percentage.required(),
    startAt: isoDateTimeSchema.required(),
    endAt: isoDateTimeSchema.required(),
  })
  .exact()
  .test('end-after-start', '', function check(value) {
    const start = parseIsoDateTime(value.startAt);
    const end = parseIsoDateTime(value.endAt);
    if (start === undefined || end === undefined || end > start) {
      return true;
    }
    const path = joinPath(this.path, 'endAt');
    return this.createError({ path, message: `${path} must be later than startAt` });
  });

/** sagerFurnace parameters: a schedule of at most 11 entries (section 3.8). */
export const sagerFurnaceParametersSchema = yup
  .object({
    type: typeField('sagerFurnace'),
    schedule: yup.array(sagerFurnaceEntrySchema).max(commandLimits.sagerFurnaceParameterEntries).required(),
  })
  .exact();

/** demoBattery parameters: the error and warning codes the demo battery reports, for tests and demos (section 3.8). */
export const demoBatteryParametersSchema = yup
  .object({
    type: typeField('demoBattery'),
    errors: yup.array(yup.string().trim().min(1).max(100).required()).max(50).default([]),
    warnings: yup.array(yup.string().trim().min(1).max(100).required()).max(50).default([]),
  })
  .exact();

/** hedno parameters: localMode, the grid operator's local mode of the gridOperatorHedno loop (section 3.8). */
export const hednoParametersSchema = yup.object({ type: typeField('hedno'), localMode: yup.boolean().required() }).exact();

/** Asset parameters, tagged by `type` (device-model.md section 3.8; spec README "Asset parameters"). */
export const assetParametersSchema = taggedUnion({
  sagerFurnace: sagerFurnaceParametersSchema,
  demoBattery: demoBatteryParametersSchema,
  hedno: hednoParametersSchema,
});
export type AssetParameters = yup.InferType<typeof assetParametersSchema>;

/** PUT /v1/parameters body (api.md section 7): parameters and 1-100 assetIdentifiers. */
export const parametersBodySchema = yup
  .object({
    parameters: assetParametersSchema,
    assetIdentifiers: identifiersSchema.required(),
  })
  .exact();
export type ParametersBody = yup.InferType<typeof parametersBodySchema>;

const address = integer().min(0).max(commandLimits.modbusAddressMax).required();
const registerValue = integer().min(0).max(commandLimits.modbusRegisterValueMax);

function readCommandSchema<T extends string>(type: T, maxLength: number) {
  return yup
    .object({ type: typeField(type), addr: address, length: integer().min(1).max(maxLength).required() })
    .exact()
    .test('address-range', '', function check(value: unknown) {
      const { addr, length } = value as { addr: number; length: number };
      if (addr + length - 1 <= commandLimits.modbusAddressMax) {
        return true;
      }
      const path = joinPath(this.path, 'length');
      return this.createError({ path, message: `${path} reads past address ${commandLimits.modbusAddressMax}` });
    });
}

/** Modbus writeCoil: addr and binary (api.md sections 3, 5). */
export const writeCoilCommandSchema = yup.object({ type: typeField('writeCoil'), addr: address, binary: yup.boolean().required() }).exact();
/** Modbus writeRegister: addr and value 0-65535. */
export const writeRegisterCommandSchema = yup.object({ type: typeField('writeRegister'), addr: address, value: registerValue.required() }).exact();
/** Modbus writeCoils: addr and 1-1968 booleans. */
export const writeCoilsCommandSchema = yup
  .object({
    type: typeField('writeCoils'),
    addr: address,
    valueAry: yup.array(yup.boolean().required()).min(1).max(commandLimits.modbusWriteItems).required(),
  })
  .exact();
/** Modbus writeRegisters: addr and 1-1968 register values. */
export const writeRegistersCommandSchema = yup
  .object({
    type: typeField('writeRegisters'),
    addr: address,
    valueAry: yup.array(registerValue.required()).min(1).max(commandLimits.modbusWriteItems).required(),
  })
  .exact();

/**
 * readDeviceIdentification (Modbus function 43/14): deviceIdCode 1 (basic), 2 (regular),
 * 3 (extended) or 4 (one object), default 1; objectId 0-255, default 0.
 */
export const readDeviceIdentificationCommandSchema = yup
  .object({
    type: typeField('readDeviceIdentification'),
    deviceIdCode: yup
      .number()
      .oneOf([1, 2, 3, 4] as const)
      .default(1),
    objectId: integer().min(0).max(255).default(0),
  })
  .exact();

/** A Modbus command, tagged by `type` (api.md sections 3, 5). */
export const modbusCommandSchema = taggedUnion({
  writeCoil: writeCoilCommandSchema,
  writeRegister: writeRegisterCommandSchema,
  writeCoils: writeCoilsCommandSchema,
  writeRegisters: writeRegistersCommandSchema,
  readHoldingRegisters: readCommandSchema('readHoldingRegisters', commandLimits.modbusReadRegisters),
  readInputRegisters: readCommandSchema('readInputRegisters', commandLimits.modbusReadRegisters),
  readCoils: readCommandSchema('readCoils', commandLimits.modbusReadBits),
  readDiscreteInputs: readCommandSchema('readDiscreteInputs', commandLimits.modbusReadBits),
  readDeviceIdentification: readDeviceIdentificationCommandSchema,
});
export type ModbusCommand = yup.InferType<typeof modbusCommandSchema>;

/** The Modbus writes an asset may run at start-up (battery initializationCommands, section 3.4). */
export const modbusWriteCommandSchema = taggedUnion({
  writeCoil: writeCoilCommandSchema,
  writeRegister: writeRegisterCommandSchema,
  writeCoils: writeCoilsCommandSchema,
  writeRegisters: writeRegistersCommandSchema,
});

const itemName = yup.string().trim().min(1).max(1000);
const itemNames = uniqueBy(yup.array(itemName.required()).min(1).max(1000).required(), validationMessages.propertiesUnique, (name) => name);

/** The value types a browse-style write item carries. */
export const writeValueTypes = ['boolean', 'integer', 'double', 'string'] as const;

/** One item of a browse-style write: a name and a value of the stated valueType. */
export const writeItemSchema = yup
  .object({
    name: itemName.required(),
    valueType: yup.string().oneOf(writeValueTypes).required(),
    value: yup
      .mixed<boolean | number | string>((value): value is boolean | number | string => ['boolean', 'number', 'string'].includes(typeof value))
      .required(),
  })
  .exact()
  .test('typed-value', '', function check(item) {
    const fits =
      (item.valueType === 'boolean' && typeof item.value === 'boolean') ||
      (item.valueType === 'integer' && Number.isInteger(item.value)) ||
      (item.valueType === 'double' && typeof item.value === 'number' && Number.isFinite(item.value)) ||
      (item.valueType === 'string' && typeof item.value === 'string');
    const path = joinPath(this.path, 'value');
    return fits || this.createError({ path, message: `${path} must be a value of type ${item.valueType}` });
  });

/**
 * A browse-style command (OPC XML-DA, Vestas AP; api.md section 3), tagged by `type`: browse an
 * item (the root when itemName is empty), get properties, get the server status, read or write items.
 */
export const browseCommandSchema = taggedUnion({
  browse: yup.object({ type: typeField('browse'), itemName: yup.string().trim().max(1000).default('') }).exact(),
  getProperties: yup.object({ type: typeField('getProperties'), names: itemNames }).exact(),
  getStatus: yup.object({ type: typeField('getStatus') }).exact(),
  read: yup.object({ type: typeField('read'), names: itemNames }).exact(),
  write: yup
    .object({
      type: typeField('write'),
      items: uniqueBy(yup.array(writeItemSchema).min(1).max(1000).required(), validationMessages.propertiesUnique, fieldOf('name'), 'name'),
    })
    .exact(),
});
export type BrowseCommand = yup.InferType<typeof browseCommandSchema>;

function hexSelector(max: number) {
  return yup
    .string()
    .matches(/^[0-9a-fA-F]+$/, '${path} must be a hex string')
    .max(max);
}

/**
 * OSI selectors of an ISO/OSI (IEC 61850 MMS) association (device-model.md section 5): hex
 * strings of at most 8 (transport) and 16 (session, presentation) characters.
 */
export const osiSelectorsSchema = yup
  .object({
    transportSelector: hexSelector(commandLimits.transportSelectorLength).optional(),
    sessionSelector: hexSelector(commandLimits.sessionSelectorLength).optional(),
    presentationSelector: hexSelector(commandLimits.presentationSelectorLength).optional(),
  })
  .exact();

/** The cloud-to-device message types (device-model.md section 3.10). */
export const cloudToDeviceMessageTypes = [
  'setConfig',
  'executeModbusCommand',
  'executeOPCXMLDACommand',
  'executeVestasAPCommand',
  'getMetadata',
  'reboot',
  'forceUpdate',
  'reprovision',
  'debugPing',
  'setAssetSchedule',
  'setAssetParameters',
  'getJournal',
  'getSignalQuality',
  'getRoutingTable',
  'scanNetwork',
  'openTunnel',
  'ack',
] as const;
export type CloudToDeviceMessageType = (typeof cloudToDeviceMessageTypes)[number];

const assetIndex = configIndex();
const noFields = <T extends CloudToDeviceMessageType>(type: T) => yup.object({ type: typeField(type) }).exact();

/** A message for one asset or one control loop: exactly one of assetIndex and controlLoopIndex. */
function oneTarget<S extends yup.ObjectSchema<{ assetIndex?: number; controlLoopIndex?: number }>>(schema: S): S {
  return schema.test(
    'one-target',
    'Exactly one of assetIndex and controlLoopIndex must be given',
    (value) => (value.assetIndex === undefined) !== (value.controlLoopIndex === undefined),
  ) as S;
}

/**
 * The cloud-to-device messages other than setConfig (whose config is `deviceConfigSchema`, see
 * `cloudToDeviceMessageSchema` in config.ts), tagged by `type` (device-model.md section 3.10).
 * Fields the spec does not show are ours: commands name their asset by index in the config;
 * getJournal lines default to 100; openTunnel names the tunnel and a host:port destination.
 */
export const cloudToDeviceCommandSchemas = {
  executeModbusCommand: yup.object({ type: typeField('executeModbusCommand'), device: deviceCommunicationSchema, command: modbusCommandSchema }).exact(),
  executeOPCXMLDACommand: yup
    .object({ type: typeField('executeOPCXMLDACommand'), connection: urlConnectionSchema.default(undefined).required(), command: browseCommandSchema })
    .exact(),
  executeVestasAPCommand: yup.object({ type: typeField('executeVestasAPCommand'), assetIndex: assetIndex.required(), command: browseCommandSchema }).exact(),
  getMetadata: yup.object({ type: typeField('getMetadata'), assetIndex: assetIndex.optional() }).exact(),
  reboot: yup.object({ type: typeField('reboot'), hard: yup.boolean().default(false) }).exact(),
  forceUpdate: noFields('forceUpdate'),
  reprovision: noFields('reprovision'),
  debugPing: yup.object({ type: typeField('debugPing'), payload: yup.string().max(1000).optional() }).exact(),
  setAssetSchedule: oneTarget(
    yup
      .object({
        type: typeField('setAssetSchedule'),
        assetIndex: assetIndex.optional(),
        controlLoopIndex: assetIndex.optional(),
        schedule: yup.array(scheduleItemSchema).max(commandLimits.scheduleItems).required(),
      })
      .exact(),
  ),
  /** Parameters for an asset (sagerFurnace, demoBattery) or for a control loop (hedno: the gridOperatorHedno loop). */
  setAssetParameters: oneTarget(
    yup
      .object({
        type: typeField('setAssetParameters'),
        assetIndex: assetIndex.optional(),
        controlLoopIndex: assetIndex.optional(),
        parameters: assetParametersSchema,
      })
      .exact(),
  ),
  getJournal: yup.object({ type: typeField('getJournal'), lines: integer().min(1).max(commandLimits.journalLinesMax).default(100) }).exact(),
  getSignalQuality: noFields('getSignalQuality'),
  getRoutingTable: noFields('getRoutingTable'),
  scanNetwork: noFields('scanNetwork'),
  openTunnel: yup
    .object({
      type: typeField('openTunnel'),
      tunnelId: yup.string().trim().min(1).max(100).required(),
      destination: yup
        .string()
        .trim()
        .required()
        .matches(/^[A-Za-z0-9.-]+:\d{1,5}$/, '${path} must be host:port'),
    })
    .exact(),
  ack: yup.object({ type: typeField('ack'), messageId: yup.string().trim().min(1).max(100).required() }).exact(),
};
