import { issuesOf } from '../validation';
import { controlLoopSchema, mixedPowerMetersMessage, primarySecondaryOverlapMessage } from './control-loops';
import { validationMessages } from './time-window';

const issues = issuesOf;

const limit = { consumption: 1000, feedIn: 1000 };
const powerLimiter = { type: 'powerLimiter', meterAssetIndex: 0, primaryLimitableAssetIndices: [1, 2], contractualLimit: limit };
const cascade = {
  type: 'cascadeBatteryPowerLimiter',
  meterAssetIndex: 0,
  primaryBatteryAssetIndices: [1],
  secondaryBatteryAssetIndices: [2],
  contractualLimit: limit,
};
const peakShaver = { type: 'batteryPeakShaver', meterAssetIndex: 0, batteryAssetIndices: [1], contractualLimit: limit };
const optimizer = { type: 'optimizer', topology: { name: 'site' } };

describe('common loop fields (device-model.md section 3.5)', () => {
  it('defaults controlLoopSleep to 0.1 s', () => {
    expect(controlLoopSchema.cast(powerLimiter)).toMatchObject({ controlLoopSleep: 0.1 });
  });

  it.each([
    [
      'an unknown type',
      { type: 'magic' },
      'type',
      expect.stringMatching(/^type must be one of the following values: proportionalPeakShaver, batteryPowerLimiter, /),
    ],
    ['a sleep of 0', { ...powerLimiter, controlLoopSleep: 0 }, 'controlLoopSleep', 'controlLoopSleep must be a positive number'],
    ['a negative reporting interval', { ...powerLimiter, reportingInterval: -1 }, 'reportingInterval', 'reportingInterval must be a positive number'],
    ['no meter', { ...powerLimiter, meterAssetIndex: undefined }, 'meterAssetIndex', 'meterAssetIndex is a required field'],
    ['no contractual limit', { ...powerLimiter, contractualLimit: undefined }, 'contractualLimit', 'contractualLimit is a required field'],
    [
      'no reserved power',
      { type: 'powerReservationLimiter', meterAssetIndex: 0, limitableAssetIndices: [1], monitoredCapacity: 1 },
      'reservedPower',
      'reservedPower is a required field',
    ],
    [
      'an empty asset list',
      { ...powerLimiter, primaryLimitableAssetIndices: [] },
      'primaryLimitableAssetIndices',
      'primaryLimitableAssetIndices field must have at least 1 items',
    ],
    [
      'a gain above 1',
      { type: 'proportionalPeakShaver', meterAssetIndex: 0, batteryAssetIndices: [1], activePowerLimit: 1, gain: 1.1 },
      'gain',
      'gain must be less than or equal to 1',
    ],
    [
      'a negative gain',
      { type: 'proportionalPeakShaver', meterAssetIndex: 0, batteryAssetIndices: [1], activePowerLimit: 1, gain: -0.1 },
      'gain',
      'gain must be greater than or equal to 0',
    ],
  ])('refuses %s', (_name, loop, path, message) => {
    expect(issues(controlLoopSchema, loop)).toEqual([{ path, message }]);
  });

  it('accepts a gain of 0 and of 1', () => {
    const loop = { type: 'proportionalPeakShaver', meterAssetIndex: 0, batteryAssetIndices: [1], activePowerLimit: 1 };
    expect(issues(controlLoopSchema, { ...loop, gain: 0 })).toEqual([]);
    expect(issues(controlLoopSchema, { ...loop, gain: 1 })).toEqual([]);
  });
});

describe('primary and secondary assets must not overlap (device-model.md section 5)', () => {
  it.each([
    ['a power limiter with disjoint lists', { ...powerLimiter, secondaryLimitableAssetIndices: [3] }],
    ['a cascade with disjoint lists', cascade],
  ])('accepts %s', (_name, loop) => {
    expect(issues(controlLoopSchema, loop)).toEqual([]);
  });

  it.each([
    ['a power limiter', { ...powerLimiter, secondaryLimitableAssetIndices: [3, 2] }, 'secondaryLimitableAssetIndices'],
    ['a cascade', { ...cascade, secondaryBatteryAssetIndices: [1] }, 'secondaryBatteryAssetIndices'],
  ])('refuses overlap in %s', (_name, loop, path) => {
    expect(issues(controlLoopSchema, loop)).toEqual([{ path, message: primarySecondaryOverlapMessage }]);
  });
});

describe('limits and schedules of loops (device-model.md section 5)', () => {
  it.each([
    [
      'contractual, physical and soft limits',
      { ...powerLimiter, physicalLimit: { consumption: 2000, feedIn: 2000 }, softLimit: { consumption: -100, feedIn: 500 } },
    ],
    [
      'a limit schedule with weekdays',
      {
        ...powerLimiter,
        limitSchedule: [
          { start: '08:00', end: '12:00', weekdays: [0], consumption: 1 },
          { start: '08:00', end: '12:00', weekdays: [1], feedIn: 1 },
        ],
      },
    ],
    [
      'a state-of-charge schedule',
      {
        ...peakShaver,
        stateOfChargeSchedule: [
          { start: '00:00', end: '06:00', min: 20, max: 80 },
          { start: '06:00', end: '07:00', min: 50, max: 50 },
        ],
      },
    ],
  ])('accepts %s', (_name, loop) => {
    expect(issues(controlLoopSchema, loop)).toEqual([]);
  });

  it.each([
    [
      'inverted contractual limits',
      { ...powerLimiter, contractualLimit: { consumption: -2000, feedIn: 1000 } },
      'contractualLimit',
      validationMessages.invertedLimits,
    ],
    ['inverted physical limits', { ...powerLimiter, physicalLimit: { consumption: 10, feedIn: -20 } }, 'physicalLimit', validationMessages.invertedLimits],
    ['inverted soft limits', { ...peakShaver, softLimit: { consumption: -5, feedIn: 4 } }, 'softLimit', validationMessages.invertedLimits],
    [
      'an overnight limit window',
      { ...powerLimiter, limitSchedule: [{ start: '23:00', end: '01:00' }] },
      'limitSchedule[0].end',
      validationMessages.invalidTimeWindow,
    ],
    [
      'overlapping limit windows',
      {
        ...powerLimiter,
        limitSchedule: [
          { start: '08:00', end: '12:00' },
          { start: '09:00', end: '10:00', weekdays: [4] },
        ],
      },
      'limitSchedule[1]',
      validationMessages.overlappingSchedules,
    ],
    [
      'overlapping state-of-charge windows',
      {
        ...peakShaver,
        stateOfChargeSchedule: [
          { start: '00:00', end: '06:00', min: 0, max: 100 },
          { start: '05:00', end: '07:00', min: 0, max: 100 },
        ],
      },
      'stateOfChargeSchedule[1]',
      validationMessages.overlappingSchedules,
    ],
    [
      'a state-of-charge minimum above the maximum',
      { ...peakShaver, stateOfChargeSchedule: [{ start: '00:00', end: '06:00', min: 60, max: 40 }] },
      'stateOfChargeSchedule[0].max',
      'stateOfChargeSchedule[0].max must not be below min',
    ],
  ])('refuses %s', (_name, loop, path, message) => {
    expect(issues(controlLoopSchema, loop)).toEqual([{ path, message }]);
  });

  it('defaults soft limits to absent, schedules to empty', () => {
    const cast = controlLoopSchema.cast(peakShaver);
    expect(cast).toMatchObject({ limitSchedule: [], stateOfChargeSchedule: [], evAssetIndices: [] });
    expect(cast).not.toHaveProperty('softLimit');
  });
});

describe('loop constants (device-model.md section 9)', () => {
  it.each([
    ['modbusServer heartbeatTimeout', { type: 'modbusServer', assetIndices: [0] }, { heartbeatTimeout: 60, port: 502 }],
    ['realTimeInterface reportingInterval', { type: 'realTimeInterface', meterAssetIndex: 0 }, { reportingInterval: 60 }],
    ['batteryPeakShaver evAssetControlLoopSleep', peakShaver, { evAssetControlLoopSleep: 5000 }],
    [
      'gridOperatorHedno hint and grace',
      { type: 'gridOperatorHedno', meterAssetIndex: 0, limitableAssetIndices: [1] },
      { localMode: false, routerRestartTimeout: 30, gracePeriod: 30 },
    ],
  ])('defaults %s', (_name, loop, expected) => {
    expect(controlLoopSchema.cast(loop)).toMatchObject(expected);
  });

  it.each([
    ['a heartbeat of 3600 s', { type: 'modbusServer', assetIndices: [0], heartbeatTimeout: 3600 }],
    ['a real-time report every 60 s', { type: 'realTimeInterface', meterAssetIndex: 0, reportingInterval: 60 }],
    ['a grace of 3 hours', { type: 'gridOperatorHedno', meterAssetIndex: 0, limitableAssetIndices: [1], gracePeriod: 180 }],
  ])('accepts %s', (_name, loop) => {
    expect(issues(controlLoopSchema, loop)).toEqual([]);
  });

  it.each([
    [
      'a heartbeat of 3601 s',
      { type: 'modbusServer', assetIndices: [0], heartbeatTimeout: 3601 },
      'heartbeatTimeout',
      'heartbeatTimeout must be less than or equal to 3600',
    ],
    [
      'a real-time report every 61 s',
      { type: 'realTimeInterface', meterAssetIndex: 0, reportingInterval: 61 },
      'reportingInterval',
      'reportingInterval must be less than or equal to 60',
    ],
    [
      'a grace of 29 minutes',
      { type: 'gridOperatorHedno', meterAssetIndex: 0, limitableAssetIndices: [1], gracePeriod: 29 },
      'gracePeriod',
      'gracePeriod must be greater than or equal to 30',
    ],
    [
      'a grace above 3 hours',
      { type: 'gridOperatorHedno', meterAssetIndex: 0, limitableAssetIndices: [1], gracePeriod: 181 },
      'gracePeriod',
      'gracePeriod must be less than or equal to 180',
    ],
    [
      'a charger stopping below its start',
      { type: 'generatorBatteryCharger', generatorAssetIndex: 0, batteryAssetIndices: [1], startStateOfCharge: 50, stopStateOfCharge: 40 },
      'stopStateOfCharge',
      'stopStateOfCharge must be above startStateOfCharge',
    ],
    ['an aFRR limiter with no assets', { type: 'afrrLimiter', meterAssetIndex: 0 }, '', 'this must list battery or limitable assets'],
  ])('refuses %s', (_name, loop, path, message) => {
    expect(issues(controlLoopSchema, loop)).toEqual([{ path, message }]);
  });
});

describe('optimizer (device-model.md sections 3.6, 5, 9)', () => {
  it('defaults the solver options and basePower', () => {
    expect(controlLoopSchema.cast(optimizer)).toEqual({
      type: 'optimizer',
      controlLoopSleep: 0.1,
      solverOptions: { solver: 'choose', timeLimit: 10, tolerance: 1e-7 },
      topology: { name: 'site', assets: { controllable: [], powerMeterable: [] }, children: [] },
      basePower: 100000,
    });
  });

  it.each([
    ['each solver', { ...optimizer, solverOptions: { solver: 'ipm', primalFeasibilityTolerance: 1e-10 } }],
    [
      'a tree of nodes, one kind of meter per node',
      {
        ...optimizer,
        topology: {
          name: 'site',
          constraint: { consumption: 1000, feedIn: 0 },
          assets: {
            controllable: [1],
            powerMeterable: [
              { assetIndex: 0, meter: 'net' },
              { assetIndex: 4, meter: 'net' },
            ],
          },
          children: [
            {
              name: 'pv',
              assets: {
                powerMeterable: [
                  { assetIndex: 2, meter: 'individual' },
                  { assetIndex: 3, meter: 'individual' },
                ],
              },
              children: [{ name: 'string-1' }],
            },
          ],
        },
      },
    ],
  ])('accepts %s', (_name, loop) => {
    expect(issues(controlLoopSchema, loop)).toEqual([]);
  });

  it.each([
    [
      'an unknown solver',
      { ...optimizer, solverOptions: { solver: 'gurobi' } },
      'solverOptions.solver',
      'solverOptions.solver must be one of the following values: simplex, choose, ipm',
    ],
    [
      'a primal feasibility tolerance below 1e-10',
      { ...optimizer, solverOptions: { primalFeasibilityTolerance: 1e-11 } },
      'solverOptions.primalFeasibilityTolerance',
      'solverOptions.primalFeasibilityTolerance must be greater than or equal to 1e-10',
    ],
    ['a time limit of 0', { ...optimizer, solverOptions: { timeLimit: 0 } }, 'solverOptions.timeLimit', 'solverOptions.timeLimit must be a positive number'],
    ['a basePower of 0', { ...optimizer, basePower: 0 }, 'basePower', 'basePower must be a positive number'],
    ['no topology', { type: 'optimizer' }, 'topology', 'topology is a required field'],
    [
      'net and individual meters in one node',
      {
        ...optimizer,
        topology: {
          name: 'site',
          assets: {
            powerMeterable: [
              { assetIndex: 0, meter: 'net' },
              { assetIndex: 1, meter: 'individual' },
            ],
          },
        },
      },
      'topology.assets.powerMeterable',
      mixedPowerMetersMessage,
    ],
    [
      'mixed meters in a child node',
      {
        ...optimizer,
        topology: {
          name: 'site',
          children: [
            {
              name: 'a',
              assets: {
                powerMeterable: [
                  { assetIndex: 0, meter: 'individual' },
                  { assetIndex: 1, meter: 'net' },
                ],
              },
            },
          ],
        },
      },
      'topology.children[0].assets.powerMeterable',
      mixedPowerMetersMessage,
    ],
    [
      'an inverted node constraint',
      { ...optimizer, topology: { name: 'site', constraint: { consumption: -10, feedIn: 5 } } },
      'topology.constraint',
      validationMessages.invertedLimits,
    ],
    [
      'an unnamed child',
      { ...optimizer, topology: { name: 'site', children: [{}] } },
      'topology.children[0].name',
      'topology.children[0].name is a required field',
    ],
  ])('refuses %s', (_name, loop, path, message) => {
    expect(issues(controlLoopSchema, loop)).toEqual([{ path, message }]);
  });
});
