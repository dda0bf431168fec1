import * as yup from 'yup';
import { configIndex, integer, numberLimits, quantity } from '../numbers';
import { joinPath, limitPairSchema, taggedUnion, weeklyWindowFields, withNoOverlapRule, withTimeWindowRule } from './time-window';

/** The active-control loop types (device-model.md section 3.5). apparentPowerLimiter is deprecated. */
export const controlLoopTypes = [
  'proportionalPeakShaver',
  'batteryPowerLimiter',
  'batteryCurrentLimiter',
  'cascadeBatteryPowerLimiter',
  'batteryPowerReservationLimiter',
  'powerReservationLimiter',
  'powerLimiter',
  'apparentPowerLimiter',
  'currentLimiter',
  'temperaturePowerLimiter',
  'realTimeInterface',
  'afrrLimiter',
  'zonbalansPowerLimiter',
  'modbusServer',
  'batteryPeakShaver',
  'generatorBatteryCharger',
  'gridOperatorHedno',
  'optimizer',
] as const;
export type ControlLoopType = (typeof controlLoopTypes)[number];

/** Defaults and limits of the loops (device-model.md sections 5, 9). */
export const controlLoopDefaults = {
  controlLoopSleep: 0.1,
  modbusServerHeartbeatTimeout: 60,
  modbusServerHeartbeatTimeoutMax: 3600,
  realTimeInterfaceReportingInterval: 60,
  realTimeInterfaceReportingIntervalMax: 60,
  batteryPeakShaverEvAssetControlLoopSleep: 5000,
  solverTimeLimit: 10,
  solverTolerance: 1e-7,
  solverPrimalFeasibilityToleranceMin: 1e-10,
  basePower: 100000,
  /** gridOperatorHedno: the router restart hint, and the grace period range, in minutes. */
  hednoRouterRestartTimeout: 30,
  hednoGraceMin: 30,
  hednoGraceMax: 180,
} as const;

/** Message of the rule that loops serving Modbus TCP (modbusServer, realTimeInterface) listen on different ports (ours: two cannot share one). */
export const modbusPortsUniqueMessage = 'Loops serving Modbus must listen on different ports';

/** Message of the primary/secondary rule (device-model.md section 5; the spec gives the rule, not a text). */
export const primarySecondaryOverlapMessage = 'Primary and secondary limitable asset indices must not overlap';

const index = configIndex();
const indices = yup.array(index.required());
/** A non-empty list of asset indices. */
const requiredIndices = indices.min(1).required();

function typeField<T extends ControlLoopType>(type: T) {
  return yup
    .string()
    .oneOf([type] as const)
    .required();
}

/**
 * Fields of every loop (section 3.5): identifier (for controller schedules), controlLoopSleep
 * (s between iterations, default 0.1) and reportingInterval (s between status reports; the
 * device's reporting interval when not given).
 */
const commonFields = {
  identifier: yup.string().trim().min(1).max(100).optional(),
  controlLoopSleep: quantity().positive().max(numberLimits.durationSecondsMax).default(controlLoopDefaults.controlLoopSleep),
  reportingInterval: quantity().positive().optional(),
};

/** A limit schedule entry: a weekly window and the limits that hold in it (W). */
export const limitScheduleEntrySchema = withTimeWindowRule(
  yup
    .object({
      ...weeklyWindowFields,
      consumption: quantity().nullable().default(null),
      feedIn: quantity().nullable().default(null),
    })
    .exact(),
);

/** A limit schedule: weekly windows that must not overlap (device-model.md section 5). */
export const limitScheduleSchema = withNoOverlapRule(yup.array(limitScheduleEntrySchema).default([]));

/** A state-of-charge schedule entry: a weekly window and the range (percent) to keep the batteries in. */
export const stateOfChargeScheduleEntrySchema = withTimeWindowRule(
  yup
    .object({
      ...weeklyWindowFields,
      min: quantity().min(0).max(100).required(),
      max: quantity().min(0).max(100).required(),
    })
    .exact()
    .test('soc-range', '', function check(value) {
      if (value.min <= value.max) {
        return true;
      }
      const path = joinPath(this.path, 'max');
      return this.createError({ path, message: `${path} must not be below min` });
    }),
);
/** A state-of-charge schedule: weekly windows that must not overlap (device-model.md section 5). */
export const stateOfChargeScheduleSchema = withNoOverlapRule(yup.array(stateOfChargeScheduleEntrySchema).default([]));

const gain = quantity().min(0).max(1);
const deadband = quantity().min(0).default(0);
const optionalLimit = limitPairSchema.default(undefined);

/** Adds the rule that primary and secondary asset index lists share no index, on `<secondary>`. */
function withDisjoint<S extends yup.AnyObjectSchema>(schema: S, primary: string, secondary: string): S {
  return schema.test('disjoint', primarySecondaryOverlapMessage, function check(value: unknown) {
    const loop = value as Record<string, unknown> | undefined;
    const first = loop?.[primary];
    const second = loop?.[secondary];
    if (!Array.isArray(first) || !Array.isArray(second)) {
      return true;
    }
    return !second.some((item) => first.includes(item)) || this.createError({ path: joinPath(this.path, secondary) });
  });
}

/** proportionalPeakShaver: discharges batteries in proportion (gain) to how far the meter exceeds the limit. */
export const proportionalPeakShaverSchema = yup
  .object({
    type: typeField('proportionalPeakShaver'),
    ...commonFields,
    meterAssetIndex: index.required(),
    batteryAssetIndices: requiredIndices,
    activePowerLimit: quantity().required(),
    gain: gain.default(0.5),
    deadband,
    limitSchedule: limitScheduleSchema,
  })
  .exact();

/** batteryPowerLimiter: keeps the grid connection within contractual (and physical) limits with batteries. */
export const batteryPowerLimiterSchema = yup
  .object({
    type: typeField('batteryPowerLimiter'),
    ...commonFields,
    meterAssetIndex: index.required(),
    batteryAssetIndices: requiredIndices,
    contractualLimit: limitPairSchema.default(undefined).required(),
    physicalLimit: optionalLimit,
    deadband,
    limitSchedule: limitScheduleSchema,
  })
  .exact();

/** batteryCurrentLimiter: as batteryPowerLimiter, on phase current (A). */
export const batteryCurrentLimiterSchema = yup
  .object({
    type: typeField('batteryCurrentLimiter'),
    ...commonFields,
    meterAssetIndex: index.required(),
    batteryAssetIndices: requiredIndices,
    contractualLimit: limitPairSchema.default(undefined).required(),
    deadband,
  })
  .exact();

/** cascadeBatteryPowerLimiter: primary batteries first, secondary ones when those are exhausted. */
export const cascadeBatteryPowerLimiterSchema = withDisjoint(
  yup
    .object({
      type: typeField('cascadeBatteryPowerLimiter'),
      ...commonFields,
      meterAssetIndex: index.required(),
      primaryBatteryAssetIndices: requiredIndices,
      secondaryBatteryAssetIndices: requiredIndices,
      contractualLimit: limitPairSchema.default(undefined).required(),
      deadband,
    })
    .exact(),
  'primaryBatteryAssetIndices',
  'secondaryBatteryAssetIndices',
);

/** A reservation of battery power (W) kept free for other uses. */
const reservedPower = yup.object({ charge: quantity().min(0).default(0), discharge: quantity().min(0).default(0) }).exact();

/** batteryPowerReservationLimiter: keeps charge and discharge headroom, and a state-of-charge schedule. */
export const batteryPowerReservationLimiterSchema = yup
  .object({
    type: typeField('batteryPowerReservationLimiter'),
    ...commonFields,
    meterAssetIndex: index.required(),
    batteryAssetIndices: requiredIndices,
    reservedPower: reservedPower.default(undefined).required(),
    stateOfChargeSchedule: stateOfChargeScheduleSchema,
    softLimit: optionalLimit,
  })
  .exact();

/** powerReservationLimiter: keeps a reserve of grid capacity by limiting assets. */
export const powerReservationLimiterSchema = yup
  .object({
    type: typeField('powerReservationLimiter'),
    ...commonFields,
    meterAssetIndex: index.required(),
    limitableAssetIndices: requiredIndices,
    monitoredCapacity: quantity().positive().required(),
    reservedPower: reservedPower.default(undefined).required(),
  })
  .exact();

/** powerLimiter: limits primary assets first, then secondary ones, to keep the connection within its limits. */
export const powerLimiterSchema = withDisjoint(
  yup
    .object({
      type: typeField('powerLimiter'),
      ...commonFields,
      meterAssetIndex: index.required(),
      primaryLimitableAssetIndices: requiredIndices,
      secondaryLimitableAssetIndices: indices.default([]),
      contractualLimit: limitPairSchema.default(undefined).required(),
      physicalLimit: optionalLimit,
      softLimit: optionalLimit,
      monitoredCapacity: quantity().positive().optional(),
      limitSchedule: limitScheduleSchema,
      deadband,
    })
    .exact(),
  'primaryLimitableAssetIndices',
  'secondaryLimitableAssetIndices',
);

/** apparentPowerLimiter (deprecated): caps apparent power (VA) at the connection. */
export const apparentPowerLimiterSchema = yup
  .object({
    type: typeField('apparentPowerLimiter'),
    ...commonFields,
    meterAssetIndex: index.required(),
    limitableAssetIndices: requiredIndices,
    apparentPowerLimit: quantity().positive().required(),
  })
  .exact();

/** currentLimiter: keeps phase currents (A) within consumption and feed-in limits. */
export const currentLimiterSchema = yup
  .object({
    type: typeField('currentLimiter'),
    ...commonFields,
    meterAssetIndex: index.required(),
    limitableAssetIndices: requiredIndices,
    contractualLimit: limitPairSchema.default(undefined).required(),
    deadband,
  })
  .exact();

/** A derating step: at or above temperature (degrees C), production limited to activePowerPercentage. */
const deratingStep = yup.object({ temperature: quantity().required(), activePowerPercentage: quantity().min(0).max(100).required() }).exact();

/** temperaturePowerLimiter: derates assets as a named temperature of a temperature sensor rises. */
export const temperaturePowerLimiterSchema = yup
  .object({
    type: typeField('temperaturePowerLimiter'),
    ...commonFields,
    temperatureSensorAssetIndex: index.required(),
    temperatureName: yup.string().trim().min(1).max(100).required(),
    limitableAssetIndices: requiredIndices,
    derating: yup.array(deratingStep).min(1).required(),
  })
  .exact();

/** realTimeInterface: reports to a grid operator in real time; reportingInterval default 60, max 60 s. */
export const realTimeInterfaceSchema = yup
  .object({
    type: typeField('realTimeInterface'),
    ...commonFields,
    reportingInterval: quantity()
      .positive()
      .max(controlLoopDefaults.realTimeInterfaceReportingIntervalMax)
      .default(controlLoopDefaults.realTimeInterfaceReportingInterval),
    meterAssetIndex: index.required(),
    assetIndices: indices.default([]),
    /** The Modbus TCP port and unit the grid operator's client reaches the interface on (ours: the interface cannot listen without them; defaults as modbusServer). */
    port: integer().min(1).max(65535).default(502),
    unitId: integer().min(0).max(255).default(1),
  })
  .exact();

/** afrrLimiter: delivers aFRR deltas with batteries and limitable assets. */
export const afrrLimiterSchema = yup
  .object({
    type: typeField('afrrLimiter'),
    ...commonFields,
    meterAssetIndex: index.required(),
    batteryAssetIndices: indices.default([]),
    limitableAssetIndices: indices.default([]),
    contractualLimit: optionalLimit,
  })
  .exact()
  .test('afrr-assets', '${path} must list battery or limitable assets', (value) => value.batteryAssetIndices.length + value.limitableAssetIndices.length > 0);

/** zonbalansPowerLimiter: the Zonbalans (net-balancing) limiter on feed-in. */
export const zonbalansPowerLimiterSchema = yup
  .object({
    type: typeField('zonbalansPowerLimiter'),
    ...commonFields,
    meterAssetIndex: index.required(),
    limitableAssetIndices: requiredIndices,
    contractualLimit: limitPairSchema.default(undefined).required(),
  })
  .exact();

/** modbusServer: lets a local controller read and steer over Modbus TCP; heartbeatTimeout s, default 60, max 3600. */
export const modbusServerSchema = yup
  .object({
    type: typeField('modbusServer'),
    ...commonFields,
    port: integer().min(1).max(65535).default(502),
    unitId: integer().min(0).max(255).default(1),
    heartbeatTimeout: integer().positive().max(controlLoopDefaults.modbusServerHeartbeatTimeoutMax).default(controlLoopDefaults.modbusServerHeartbeatTimeout),
    assetIndices: requiredIndices,
  })
  .exact();

/** batteryPeakShaver: shaves peaks with batteries and EV curtailment; evAssetControlLoopSleep ms, default 5000. */
export const batteryPeakShaverSchema = yup
  .object({
    type: typeField('batteryPeakShaver'),
    ...commonFields,
    meterAssetIndex: index.required(),
    batteryAssetIndices: requiredIndices,
    evAssetIndices: indices.default([]),
    evAssetControlLoopSleep: integer().positive().max(numberLimits.durationMsMax).default(controlLoopDefaults.batteryPeakShaverEvAssetControlLoopSleep),
    contractualLimit: limitPairSchema.default(undefined).required(),
    softLimit: optionalLimit,
    limitSchedule: limitScheduleSchema,
    stateOfChargeSchedule: stateOfChargeScheduleSchema,
  })
  .exact();

/** generatorBatteryCharger: runs a generator to charge batteries between two states of charge (percent). */
export const generatorBatteryChargerSchema = yup
  .object({
    type: typeField('generatorBatteryCharger'),
    ...commonFields,
    generatorAssetIndex: index.required(),
    batteryAssetIndices: requiredIndices,
    startStateOfCharge: quantity().min(0).max(100).required(),
    stopStateOfCharge: quantity().min(0).max(100).required(),
  })
  .exact()
  .test('charger-range', '', function check(value) {
    if (value.startStateOfCharge < value.stopStateOfCharge) {
      return true;
    }
    const path = joinPath(this.path, 'stopStateOfCharge');
    return this.createError({ path, message: `${path} must be above startStateOfCharge` });
  });

/**
 * gridOperatorHedno: follows the Greek grid operator's (HEDNO) setpoints. routerRestartTimeout is
 * the hint in minutes (default 30); gracePeriod 30 minutes to 3 hours before the fallback applies.
 */
export const gridOperatorHednoSchema = yup
  .object({
    type: typeField('gridOperatorHedno'),
    ...commonFields,
    meterAssetIndex: index.required(),
    limitableAssetIndices: requiredIndices,
    localMode: yup.boolean().default(false),
    routerRestartTimeout: integer().positive().default(controlLoopDefaults.hednoRouterRestartTimeout),
    gracePeriod: integer().min(controlLoopDefaults.hednoGraceMin).max(controlLoopDefaults.hednoGraceMax).default(controlLoopDefaults.hednoGraceMin),
  })
  .exact();

/** Solvers of the optimizer (device-model.md section 3.6), as HiGHS names them. */
export const solvers = ['simplex', 'choose', 'ipm'] as const;

/** Solver options (section 3.6): timeLimit s (default 10), tolerance (default 1e-7), primalFeasibilityTolerance (min 1e-10). */
export const solverOptionsSchema = yup
  .object({
    solver: yup.string().oneOf(solvers).default('choose'),
    timeLimit: quantity().positive().max(numberLimits.durationSecondsMax).default(controlLoopDefaults.solverTimeLimit),
    tolerance: quantity().positive().default(controlLoopDefaults.solverTolerance),
    primalFeasibilityTolerance: quantity().min(controlLoopDefaults.solverPrimalFeasibilityToleranceMin).optional(),
  })
  .exact();

/** Message of the meter-mixing rule (device-model.md section 5; the spec gives the rule, not a text). */
export const mixedPowerMetersMessage = 'Net and individual power meters must not be mixed in one topology node';

/** A power-meterable asset of a topology node: a meter measuring the node's net flow, or one asset's own flow. */
export const powerMeterableSchema = yup
  .object({
    assetIndex: index.required(),
    meter: yup
      .string()
      .oneOf(['net', 'individual'] as const)
      .required(),
  })
  .exact();

/** A topology node as the optimizer reads it (device-model.md section 3.6). */
export interface TopologyNode {
  name: string;
  constraint?: { consumption: number | null; feedIn: number | null; monitored: boolean };
  assets: { controllable: number[]; powerMeterable: { assetIndex: number; meter: 'net' | 'individual' }[] };
  children: TopologyNode[];
}

/**
 * A node of the optimizer's topology (section 3.6): a name, an optional constraint (limits in W,
 * the limit-pair rule of section 5), its controllable and power-meterable assets (net and
 * individual meters not mixed), and child nodes.
 */
export const topologyNodeSchema: yup.ObjectSchema<TopologyNode> = yup
  .object({
    name: yup.string().trim().min(1).max(100).required(),
    constraint: limitPairSchema.default(undefined),
    assets: yup
      .object({
        controllable: indices.default([]),
        powerMeterable: yup
          .array(powerMeterableSchema)
          .default([])
          .test('not-mixed', mixedPowerMetersMessage, (meters) => new Set(meters.map((meter) => meter.meter)).size <= 1),
      })
      .exact()
      .default({ controllable: [], powerMeterable: [] }),
    children: yup.array(yup.lazy(() => topologyNodeSchema)).default([]),
  })
  .exact();

/** optimizer: solves the site's dispatch over the topology; basePower W (default 100000) scales the problem. */
export const optimizerSchema = yup
  .object({
    type: typeField('optimizer'),
    ...commonFields,
    solverOptions: solverOptionsSchema.default({}),
    topology: topologyNodeSchema.default(undefined).required(),
    basePower: quantity().positive().default(controlLoopDefaults.basePower),
  })
  .exact();

/** An active-control loop, picked by its `type` (device-model.md sections 3.5, 3.6). */
export const controlLoopSchema = taggedUnion({
  proportionalPeakShaver: proportionalPeakShaverSchema,
  batteryPowerLimiter: batteryPowerLimiterSchema,
  batteryCurrentLimiter: batteryCurrentLimiterSchema,
  cascadeBatteryPowerLimiter: cascadeBatteryPowerLimiterSchema,
  batteryPowerReservationLimiter: batteryPowerReservationLimiterSchema,
  powerReservationLimiter: powerReservationLimiterSchema,
  powerLimiter: powerLimiterSchema,
  apparentPowerLimiter: apparentPowerLimiterSchema,
  currentLimiter: currentLimiterSchema,
  temperaturePowerLimiter: temperaturePowerLimiterSchema,
  realTimeInterface: realTimeInterfaceSchema,
  afrrLimiter: afrrLimiterSchema,
  zonbalansPowerLimiter: zonbalansPowerLimiterSchema,
  modbusServer: modbusServerSchema,
  batteryPeakShaver: batteryPeakShaverSchema,
  generatorBatteryCharger: generatorBatteryChargerSchema,
  gridOperatorHedno: gridOperatorHednoSchema,
  optimizer: optimizerSchema,
} satisfies Record<ControlLoopType, yup.ISchema<unknown>>);
export type ControlLoop = yup.InferType<typeof controlLoopSchema>;
