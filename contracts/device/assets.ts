import * as yup from 'yup';
import { configIndex, integer, numberLimits, quantity } from '../numbers';
import {
  batteryTypes,
  evGroupConnectorTypes,
  evTypes,
  generatorTypes,
  heatTypes,
  irradianceSensorTypes,
  meterTypes,
  miscTypes,
  relayTypes,
  solarGroupConnectorTypes,
  solarTypes,
  temperatureSensorTypes,
  windSensorTypes,
  windTypes,
  type AssetType,
} from './asset-types';
import { commandLimits, modbusWriteCommandSchema, osiSelectorsSchema } from './commands';
import { connectionSchema, slaveIdSchema } from './connection';
import { fieldOf, joinPath, validationMessages, staticLimitSchema, taggedUnion, timeWindowSchema, uniqueBy } from './time-window';

/** Defaults of asset fields (device-model.md sections 3.4, 9). */
export const assetDefaults = {
  timeout: 500,
  nominalPhaseVoltage: 230,
  /** pointCount (charging points) per EV type; 1 for the types the spec does not name. */
  pointCount: { abl: 2, 'demo-ev': 8, alpitronic: 4 } as Partial<Record<AssetType, number>>,
  pointCountOther: 1,
  gotionContainerCount: 19,
  smartGridRampRate: 20000,
  vestasTimeout: 4,
  flashReportInterval: 1,
} as const;

/** Slave id reserved for the aggregator of alfen batteries (device-model.md section 5). */
export const alfenAggregatorSlaveId = 100;

/**
 * Slave id ranges per type where they differ from 0-255 (device-model.md section 3.4). Ours:
 * types whose firmware refuses unit id 0 (the Modbus broadcast address) take 1-255; serial
 * meters that follow the Modbus RTU addressing take 1-247.
 */
export const slaveIdRanges: Partial<Record<AssetType, readonly [number, number]>> = {
  'sma-inverter': [1, 255],
  'sma-sunny-tripower': [1, 255],
  'sma-datamanager': [1, 255],
  'huawei-inverter': [1, 255],
  'huawei-smartlogger': [1, 255],
  'sungrow-string-inverter': [1, 255],
  'sungrow-logger': [1, 255],
  alfen: [1, 255],
  eastron: [1, 247],
  janitza: [1, 247],
  socomec: [1, 247],
  chint: [1, 247],
  wago: [1, 247],
  'carlo-gavazzi': [1, 247],
  iskra: [1, 247],
  lovato: [1, 247],
  finder: [1, 247],
};

function typeOf(parent: unknown): string | undefined {
  const type = parent !== null && typeof parent === 'object' ? (parent as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : undefined;
}

const slaveId = slaveIdSchema
  .optional()
  .test('slave-id-range', '', function check(value) {
    const type = typeOf(this.parent);
    const range = type === undefined ? undefined : slaveIdRanges[type as AssetType];
    if (value === undefined || range === undefined || (value >= range[0] && value <= range[1])) {
      return true;
    }
    return this.createError({ message: `${this.path} must be between ${range[0]} and ${range[1]} for ${type}` });
  })
  .test('alfen-aggregator', '${path} 100 is reserved for the aggregator of alfen batteries', function check(value) {
    return !(value === alfenAggregatorSlaveId && typeOf(this.parent) === 'alfen');
  });

/** A ramp rate: W per second both ways, or up and down separately with maxDelay in seconds (section 3.4). */
export const rampRateSchema = yup.lazy((value: unknown) =>
  value !== null && typeof value === 'object'
    ? yup
        .object({
          up: quantity().positive().required(),
          down: quantity().positive().required(),
          maxDelay: quantity().min(0).required(),
        })
        .exact()
        .default(undefined)
    : quantity().positive().optional(),
);

/**
 * Fields every asset has (device-model.md section 3.4). Units: nominalActivePower W,
 * powerResponseMs ms, fallbackSetpoint W (the setpoint the asset falls back to when the
 * gateway loses its controller), timeout ms.
 */
const commonFields = {
  identifier: yup.string().trim().min(1).max(100).optional(),
  communication: connectionSchema,
  readOnly: yup.boolean().default(false),
  slaveId,
  timeout: integer().positive().max(numberLimits.durationMsMax).default(assetDefaults.timeout),
  nominalActivePower: quantity().min(0).optional(),
  powerResponseMs: integer().min(0).max(numberLimits.durationMsMax).optional(),
  powerMeterAssetIndex: configIndex().optional(),
  fallbackSetpoint: quantity().optional(),
  rampRate: rampRateSchema,
};

/** Type-specific defaults, filled in before the fields are cast (device-model.md section 9). */
function typeDefaults(value: unknown): unknown {
  const type = typeOf(value);
  if (type === undefined || value === null || typeof value !== 'object') {
    return value;
  }
  const asset = value as Record<string, unknown>;
  const extra: Record<string, unknown> = {};
  const pointCount = assetDefaults.pointCount[type as AssetType];
  if (pointCount !== undefined && asset.pointCount === undefined) {
    extra.pointCount = pointCount;
  }
  if (type === 'gotion' && asset.containerCount === undefined) {
    extra.containerCount = assetDefaults.gotionContainerCount;
  }
  if (type === 'smart-grid' && asset.rampRate === undefined) {
    extra.rampRate = assetDefaults.smartGridRampRate;
  }
  return Object.keys(extra).length === 0 ? value : { ...asset, ...extra };
}

/** Flash (fast) reporting of solar and wind: interval 0.2-4 s, default 1 (device-model.md sections 3.4, 5). */
export const productionFlashReportSchema = yup
  .object({ reportingInterval: quantity().min(0.2).max(4).default(assetDefaults.flashReportInterval) })
  .exact()
  .default(undefined);

/** An environmental sensor a solar or wind asset uses, by kind (section 3.4); factor scales irradiance. */
export const environmentalSensorSchema = taggedUnion(
  {
    irradiance: yup
      .object({
        kind: yup
          .string()
          .oneOf(['irradiance'] as const)
          .required(),
        assetIndex: configIndex().required(),
        factor: quantity().positive().default(1),
      })
      .exact(),
    temperature: yup
      .object({
        kind: yup
          .string()
          .oneOf(['temperature'] as const)
          .required(),
        assetIndex: configIndex().required(),
      })
      .exact(),
    wind: yup
      .object({
        kind: yup
          .string()
          .oneOf(['wind'] as const)
          .required(),
        assetIndex: configIndex().required(),
      })
      .exact(),
  },
  { tag: 'kind' },
);

/**
 * Fields of solar and wind (device-model.md section 3.4). vestas timeouts (s, default 4) are
 * read by the vestas-ap and vestas-rcs drivers.
 */
const productionFields = {
  staticLimit: staticLimitSchema.default(undefined),
  enableFlashReport: productionFlashReportSchema,
  fallbackLimit: yup
    .object({ onlyInOptimizer: yup.boolean().default(false), activePowerPercentage: quantity().min(0).max(100).required() })
    .exact()
    .default(undefined),
  environmentalSensors: yup.array(environmentalSensorSchema).min(1).optional().default(undefined),
  afrrReferenceSignalResponseMs: integer().min(0).max(numberLimits.durationMsMax).optional(),
  readAlarms: yup.boolean().default(true),
};

function assetObject<F extends yup.ObjectShape>(fields: F) {
  return yup.object(fields).exact().transform(typeDefaults);
}

/** Solar asset configuration (device-model.md sections 3.3, 3.4), except solar-group. */
export const solarAssetSchema = assetObject({
  type: yup
    .string()
    .oneOf(solarTypes.filter((type): type is Exclude<typeof type, 'solar-group'> => type !== 'solar-group'))
    .required(),
  ...commonFields,
  ...productionFields,
});

/** Wind asset configuration (sections 3.3, 3.4). */
export const windAssetSchema = assetObject({
  type: yup.string().oneOf(windTypes).required(),
  ...commonFields,
  ...productionFields,
  readTimeout: quantity().positive().max(numberLimits.durationSecondsMax).default(assetDefaults.vestasTimeout),
  writeTimeout: quantity().positive().max(numberLimits.durationSecondsMax).default(assetDefaults.vestasTimeout),
});

/** Endianness of 32-bit values over two registers (section 3.4). */
export const endiannesses = ['big', 'mid-little'] as const;

/**
 * Battery asset configuration (section 3.4). stateOfChargeLimits in percent, min not above max;
 * powerLimits in W, optionally only within a daily time window; initializationCommands are
 * Modbus writes run when the driver starts. Type-specific (ours, section 3.4 "not shown"):
 * containerCount (gotion, default 19, min 1), clusterCount and rackCount, endianness.
 */
export const batteryAssetSchema = assetObject({
  type: yup.string().oneOf(batteryTypes).required(),
  ...commonFields,
  stateOfChargeLimits: yup
    .object({ min: quantity().min(0).max(100).required(), max: quantity().min(0).max(100).required() })
    .exact()
    .default(undefined)
    .test('soc-limits', '', function check(value) {
      if (value === undefined || value.min <= value.max) {
        return true;
      }
      const path = joinPath(this.path, 'max');
      return this.createError({ path, message: `${path} must not be below min` });
    }),
  powerLimits: yup
    .object({ charge: quantity().min(0).required(), discharge: quantity().min(0).required(), timeWindow: timeWindowSchema.default(undefined) })
    .exact()
    .default(undefined),
  initializationCommands: yup.array(modbusWriteCommandSchema).max(100).default([]),
  noFlashReport: yup.boolean().default(false),
  containerCount: integer().min(1).optional(),
  clusterCount: integer().min(1).optional(),
  rackCount: integer().min(1).optional(),
  endianness: yup.string().oneOf(endiannesses).optional(),
});

/** Extra quantities a meter's flash report may carry (section 3.4). */
export const meterFlashProperties = ['reactivePower', 'phaseVoltage', 'lineVoltage', 'phaseCurrent', 'lineCurrent'] as const;

/** Meter asset configuration (section 3.4): flash report 0.2-2 s (default 1) with unique additionalProperties. */
export const meterAssetSchema = assetObject({
  type: yup.string().oneOf(meterTypes).required(),
  ...commonFields,
  invertCurrent: yup.boolean().default(false),
  enableFlashReport: yup
    .object({
      reportingInterval: quantity().min(0.2).max(2).default(assetDefaults.flashReportInterval),
      additionalProperties: uniqueBy(
        yup.array(yup.string().oneOf(meterFlashProperties).required()).default([]),
        validationMessages.propertiesUnique,
        (property) => property,
      ),
    })
    .exact()
    .default(undefined),
  uncontrollablePeakPower: yup
    .object({ consumption: quantity().min(0).required(), generation: quantity().min(0).required() })
    .exact()
    .default(undefined),
});

/** An EV limit (section 3.4): activePower (W) and phaseCurrent (A), both non-positive (consumption is negative). */
export const evLimitSchema = yup
  .object({ activePower: quantity().max(0).optional(), phaseCurrent: quantity().max(0).optional() })
  .exact()
  .default(undefined);

/** Fields of EV chargers (section 3.4); the spec's spelling minimumChargingDurantion is the field's name. Durations in s. */
const evFields = {
  nominalPhaseVoltage: quantity().positive().default(assetDefaults.nominalPhaseVoltage),
  pointCount: integer().min(1).default(assetDefaults.pointCountOther),
  nominalPhaseCurrent: quantity().positive().optional(),
  fallbackLimit: evLimitSchema,
  staticLimit: evLimitSchema,
  minimumChargingDurantion: quantity().min(60).optional(),
  maximumBlockDuration: quantity().min(300).optional(),
  debugEnableDistribution: yup.boolean().default(false),
};

/** EV charger configuration (sections 3.3, 3.4), except ev-group. */
export const evAssetSchema = assetObject({
  type: yup
    .string()
    .oneOf(evTypes.filter((type): type is Exclude<typeof type, 'ev-group'> => type !== 'ev-group'))
    .required(),
  ...commonFields,
  ...evFields,
});

/** Generator configuration (section 3.4): minimumRuntime in minutes, minimumSetpointPowerPercentage 0-100. */
export const generatorAssetSchema = assetObject({
  type: yup.string().oneOf(generatorTypes).required(),
  ...commonFields,
  minimumRuntime: integer().min(0).optional(),
  minimumSetpointPowerPercentage: quantity().min(0).max(100).optional(),
});

/** One relay channel (section 3.4): normallyOff wiring and the state it takes by default. name is ours, for display. */
export const relayChannelSchema = yup
  .object({
    name: yup.string().trim().min(1).max(100).optional(),
    normallyOff: yup.boolean().default(true),
    default: yup
      .string()
      .oneOf(['on', 'off'] as const)
      .default('off'),
  })
  .exact();

/** Relay configuration (section 3.4): at least one channel. */
export const relayAssetSchema = assetObject({
  type: yup.string().oneOf(relayTypes).required(),
  ...commonFields,
  relays: yup.array(relayChannelSchema).min(1).required(),
});

/** Heat storage configuration (section 3.3); capacity in Wh is ours, for the state-of-charge display. */
export const heatAssetSchema = assetObject({
  type: yup.string().oneOf(heatTypes).required(),
  ...commonFields,
  capacity: quantity().positive().optional(),
});

/** Irradiance sensor (section 3.3; fields ours): factor and offset correct the reading. */
export const irradianceSensorAssetSchema = assetObject({
  type: yup.string().oneOf(irradianceSensorTypes).required(),
  ...commonFields,
  factor: quantity().positive().default(1),
  offset: quantity().default(0),
});

/** Wind sensor (section 3.3; fields ours): the anemometer's height in m. */
export const windSensorAssetSchema = assetObject({
  type: yup.string().oneOf(windSensorTypes).required(),
  ...commonFields,
  heightM: quantity().min(0).optional(),
});

/** One temperature a temperature sensor reads (ours): a name and the register it is in. */
export const temperatureChannelSchema = yup
  .object({
    name: yup.string().trim().min(1).max(100).required(),
    register: integer().min(0).max(commandLimits.modbusAddressMax).required(),
    scale: quantity().positive().default(0.1),
  })
  .exact();

/** Temperature sensor (section 3.3): its temperatures, names and registers each unique (section 5). */
export const temperatureSensorAssetSchema = assetObject({
  type: yup.string().oneOf(temperatureSensorTypes).required(),
  ...commonFields,
  temperatures: uniqueBy(
    uniqueBy(yup.array(temperatureChannelSchema).min(1).optional().default(undefined), validationMessages.temperatureNamesUnique, fieldOf('name'), 'name'),
    validationMessages.temperatureRegistersUnique,
    fieldOf('register'),
    'register',
  ),
});

/** A register report of the test Modbus inverter: addr and length 1-123 (device-model.md section 5). */
export const registerReportSchema = yup
  .object({
    name: yup.string().trim().min(1).max(100).required(),
    addr: integer().min(0).max(commandLimits.modbusAddressMax).required(),
    length: integer().min(1).max(commandLimits.modbusReportLength).required(),
  })
  .exact();

/**
 * Misc (test) assets (section 3.3). Fields ours: registerReports (test-modbus-inverter),
 * endianness, osiSelectors (abb-protection-relay speaks IEC 61850 MMS).
 */
export const miscAssetSchema = assetObject({
  type: yup.string().oneOf(miscTypes).required(),
  ...commonFields,
  registerReports: uniqueBy(yup.array(registerReportSchema).max(100).default([]), validationMessages.idsUnique, fieldOf('name'), 'name'),
  endianness: yup.string().oneOf(endiannesses).default('big'),
  osiSelectors: osiSelectorsSchema.default(undefined),
});

function connectorsOf<C extends Record<string, yup.ISchema<unknown>>>(schemas: C) {
  return yup.array(taggedUnion(schemas)).min(1).required();
}

const evConnectorSchemas = Object.fromEntries(evGroupConnectorTypes.map((type) => [type, evAssetSchema])) as Record<
  (typeof evGroupConnectorTypes)[number],
  typeof evAssetSchema
>;
const solarConnectorSchemas = Object.fromEntries(solarGroupConnectorTypes.map((type) => [type, solarAssetSchema])) as Record<
  (typeof solarGroupConnectorTypes)[number],
  typeof solarAssetSchema
>;

/** ev-group (section 3.3): EV fields for the group as a whole and its chargers as assetConnectors. */
export const evGroupAssetSchema = assetObject({
  type: yup
    .string()
    .oneOf(['ev-group'] as const)
    .required(),
  ...commonFields,
  ...evFields,
  assetConnectors: connectorsOf(evConnectorSchemas),
});

/** solar-group (section 3.3): solar fields for the group as a whole and its inverters as assetConnectors. */
export const solarGroupAssetSchema = assetObject({
  type: yup
    .string()
    .oneOf(['solar-group'] as const)
    .required(),
  ...commonFields,
  ...productionFields,
  assetConnectors: connectorsOf(solarConnectorSchemas),
});

function schemasFor<T extends string, S>(types: readonly T[], schema: S): Record<T, S> {
  return Object.fromEntries(types.map((type) => [type, schema])) as Record<T, S>;
}

/** An asset configuration, picked by its `type` (device-model.md sections 3.3, 3.4). */
export const assetSchema = taggedUnion(
  {
    ...schemasFor(
      solarTypes.filter((type) => type !== 'solar-group'),
      solarAssetSchema,
    ),
    'solar-group': solarGroupAssetSchema,
    ...schemasFor(windTypes, windAssetSchema),
    ...schemasFor(meterTypes, meterAssetSchema),
    ...schemasFor(batteryTypes, batteryAssetSchema),
    ...schemasFor(heatTypes, heatAssetSchema),
    ...schemasFor(irradianceSensorTypes, irradianceSensorAssetSchema),
    ...schemasFor(windSensorTypes, windSensorAssetSchema),
    ...schemasFor(temperatureSensorTypes, temperatureSensorAssetSchema),
    ...schemasFor(
      evTypes.filter((type) => type !== 'ev-group'),
      evAssetSchema,
    ),
    'ev-group': evGroupAssetSchema,
    ...schemasFor(generatorTypes, generatorAssetSchema),
    ...schemasFor(miscTypes, miscAssetSchema),
    ...schemasFor(relayTypes, relayAssetSchema),
  },
  { message: '${path} must be a known asset type' },
);
export type AssetConfig = yup.InferType<typeof assetSchema>;
export type SolarAsset = yup.InferType<typeof solarAssetSchema>;
export type WindAsset = yup.InferType<typeof windAssetSchema>;
export type BatteryAsset = yup.InferType<typeof batteryAssetSchema>;
export type MeterAsset = yup.InferType<typeof meterAssetSchema>;
export type EvAsset = yup.InferType<typeof evAssetSchema>;
export type EvGroupAsset = yup.InferType<typeof evGroupAssetSchema>;
export type SolarGroupAsset = yup.InferType<typeof solarGroupAssetSchema>;
