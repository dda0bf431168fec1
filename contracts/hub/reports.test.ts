import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isIsoDateTime } from '../dates';
import { parseIsoDateTime } from '../device/commands';
import { controlLoopTypes } from '../device/control-loops';
import {
  implausibleReportIssues,
  jsonObjectDepthMax,
  reportTimeWindow,
  reportTypes,
  validateReport,
  type ControlLoopStatusReport,
  type ControlLoopStatusType,
  type DeviceReport,
  type MeterPowerReport,
  type ReportOf,
  type ReportType,
} from './reports';
import { envelopeTypes, parseEnvelope } from './protocol';

const at = '2026-05-01T12:00:00.250+02:00';
const statistics = { success: 10, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 1, timeout: 2, responseError: 0 };
const setpoints = { confirmed: 50000, desired: { cloud: 60000, activeControl: 50000, gridOperator: null }, effective: 50000 };
const phases = { l1: 230.1, l2: 229.8, l3: null };

const meterReport: MeterPowerReport = {
  type: 'meterPower',
  at,
  asset: 0,
  observations: {
    activePower: 12500.5,
    reactivePower: -300,
    powerFactor: 0.99,
    frequency: 50.01,
    phaseVoltage: phases,
    phaseCurrent: { l1: 18.2, l2: 17.9, l3: 18.4 },
    energyImport: 123456789,
    energyExport: null,
    connectionStatistics: statistics,
  },
};

/** A valid report of every type that is not a loop status; the type checks that each matches its TypeScript type. */
const examples: { [T in Exclude<ReportType, ControlLoopStatusType>]: ReportOf<T> } = {
  solarPower: {
    type: 'solarPower',
    at,
    asset: 1,
    observations: { activePower: 80000, dcPower: 82000, energyProduced: 1e9, activePowerLimitPercentage: 60, setpoints, connectionStatistics: statistics },
  },
  'solarPower.flash': { type: 'solarPower.flash', at, asset: 1, observations: { activePower: 80000, reactivePower: null } },
  windPower: {
    type: 'windPower',
    at,
    asset: 2,
    observations: { activePower: 1.5e6, windSpeed: 9.2, rotorSpeed: 14, converterStatus: 'running', setpoints, connectionStatistics: statistics },
  },
  'windPower.flash': { type: 'windPower.flash', at, asset: 2, observations: { activePower: 1.5e6, windSpeed: 9.3 } },
  batteryPower: {
    type: 'batteryPower',
    at,
    asset: 3,
    observations: {
      activePower: -250000,
      stateOfCharge: 55.5,
      status: 'on',
      maxChargePower: 500000,
      maxDischargePower: 500000,
      setpoints,
      connectionStatistics: statistics,
    },
  },
  batteryPowerFiltered: {
    type: 'batteryPowerFiltered',
    at,
    asset: 3,
    observations: { activePower: -249000, stateOfCharge: 55.4, status: 'other', connectionStatistics: statistics },
  },
  'batteryPower.flash': { type: 'batteryPower.flash', at, asset: 3, observations: { activePower: -250100, stateOfCharge: 55.5 } },
  meterPower: meterReport,
  'meterPower.flash': {
    type: 'meterPower.flash',
    at,
    asset: 0,
    observations: { activePower: 12400, phaseVoltage: phases, lineCurrent: { l1: 1, l2: 2, l3: 3 } },
  },
  thermalPower: {
    type: 'thermalPower',
    at,
    asset: 4,
    observations: {
      activePower: -30000,
      temperature: 450,
      schedule: [{ charge: 100, startAt: '2026-05-01T22:00:00Z', endAt: '2026-05-02T06:00:00Z' }],
      connectionStatistics: statistics,
    },
  },
  evPower: {
    type: 'evPower',
    at,
    asset: 5,
    observations: {
      activePower: -22000,
      points: [
        { point: 0, status: 'charging', activePower: -11000, phaseCurrent: { l1: 16, l2: 16, l3: 16 }, sessionEnergy: 5300 },
        { point: 1, status: 'available', activePower: 0 },
      ],
      setpoints,
      connectionStatistics: statistics,
    },
  },
  environmental: {
    type: 'environmental',
    at,
    asset: 6,
    observations: { irradiance: 850, moduleTemperature: 41.5, temperatures: [{ name: 'cabinet', value: 30 }], connectionStatistics: statistics },
  },
  meterRelayPower: {
    type: 'meterRelayPower',
    at,
    asset: 7,
    observations: { activePower: 100, channels: ['on', 'off', null], tripped: false, connectionStatistics: statistics },
  },
  generatorPower: {
    type: 'generatorPower',
    at,
    asset: 8,
    observations: { activePower: 90000, status: 'standby', fuelLevel: 80, runningHours: 1200.5, connectionStatistics: statistics },
  },
  relay: { type: 'relay', at, asset: 9, observations: { channels: ['on', 'off'], connectionStatistics: statistics } },
  config: { type: 'config', at, observations: { messageId: 'outbox-17', source: 'cloud', config: { version: 2, assets: [] } } },
  rtiStatus: {
    type: 'rtiStatus',
    at,
    controller: 2,
    observations: { state: 'idle', connected: true, lastExchangeAt: at, activePower: 1000, gridOperatorSetpoint: null },
  },
  ack: { type: 'ack', at, observations: { messageId: 'outbox-18', messageType: 'setAssetSchedule' } },
  error: {
    type: 'error',
    at,
    asset: 1,
    observations: { messageId: 'outbox-19', messageType: 'executeModbusCommand', code: 'modbus_timeout', message: 'The asset did not answer within 500 ms' },
  },
  alarm: { type: 'alarm', at, asset: 2, observations: { code: 'E-1043', level: 'fault', active: true, description: 'Grid loss' } },
  assetIdentifiers: {
    type: 'assetIdentifiers',
    at,
    observations: {
      assets: [
        { asset: 0, identifier: 'SN-123' },
        { asset: 1, identifier: null },
      ],
    },
  },
  unidentifiedAssets: {
    type: 'unidentifiedAssets',
    at,
    observations: { assets: [{ host: '192.168.1.20', port: 502, slaveId: 1, manufacturer: 'SMA', model: null }] },
  },
  assetMetadata: {
    type: 'assetMetadata',
    at,
    asset: 1,
    observations: {
      messageId: 'outbox-20',
      manufacturer: 'Fronius',
      model: 'Tauro',
      serialNumber: '42',
      nominalActivePower: 100000,
      details: { sunspec: true },
    },
  },
  journal: { type: 'journal', at, observations: { messageId: 'outbox-21', lines: ['May 01 12:00:00 agent[1]: started'] } },
  signalQuality: { type: 'signalQuality', at, observations: { technology: 'lte', operator: 'KPN', rssi: -71, rsrp: -98, rsrq: -11, sinr: 12.5 } },
  routingTable: { type: 'routingTable', at, observations: { routes: [{ destination: '0.0.0.0/0', gateway: '192.168.1.1', interface: 'eth0', metric: 100 }] } },
  networkScan: { type: 'networkScan', at, observations: { hosts: [{ address: '192.168.1.20', mac: '00:11:22:33:44:55', openPorts: [502, 80] }] } },
  executedModbusCommand: {
    type: 'executedModbusCommand',
    at,
    observations: { messageId: 'outbox-22', command: { type: 'readHoldingRegisters' }, registers: [1, 65535], error: null },
  },
  executedOPCXMLDACommand: {
    type: 'executedOPCXMLDACommand',
    at,
    observations: { command: { type: 'read' }, items: [{ name: 'a.b', value: '1.5', quality: 'good' }] },
  },
  executedVestasAPCommand: {
    type: 'executedVestasAPCommand',
    at,
    asset: 2,
    observations: { command: { type: 'write' }, items: [{ name: 'Wtur.W', value: null }] },
  },
  executedAssetSchedule: {
    type: 'executedAssetSchedule',
    at,
    controller: 1,
    observations: { startAt: '2026-05-01T10:00:00Z', endAt: '2026-05-01T11:00:00Z', command: { type: 'limitPower', feedIn: 0 } },
  },
  executedAssetParameters: { type: 'executedAssetParameters', at, asset: 4, observations: { parameters: { type: 'sagerFurnace', schedule: [] } } },
};

const powerLimiterStatus: ControlLoopStatusReport<'powerLimiter'> = {
  type: 'powerLimiterStatus',
  at,
  controller: 0,
  observations: { state: 'active', monitoredPower: -400000, feedInLimit: 350000, consumptionLimit: null, iterationMs: 12, unlimitableAssets: [3] },
};

const loopStatusExamples: DeviceReport[] = controlLoopTypes
  .filter((loop) => loop !== 'realTimeInterface')
  .map((loop) => ({ type: `${loop}Status`, at, controller: 0, observations: { state: 'idle', monitoredPower: 1000 } }) as DeviceReport);

const allExamples: DeviceReport[] = [...Object.values(examples), powerLimiterStatus, ...loopStatusExamples];

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The example of `type` with `change` applied to a deep copy of it. */
function changed(
  type: Exclude<ReportType, ControlLoopStatusType>,
  change: (report: Record<string, unknown> & { observations: Record<string, unknown> }) => void,
): unknown {
  const report = clone(examples[type]) as unknown as Record<string, unknown> & { observations: Record<string, unknown> };
  change(report);
  return report;
}

function issues(value: unknown): { path: string; message: string }[] {
  const result = validateReport(value);
  return result.ok ? [] : result.issues;
}

describe('device-to-cloud reports (device-model.md section 3.9)', () => {
  it('has a valid example for every report type', () => {
    expect(new Set(allExamples.map((report) => report.type))).toEqual(new Set(reportTypes));
  });

  it.each(allExamples.map((report) => [report.type, report] as const))('accepts a %s report', (_type, report) => {
    expect(validateReport(report)).toEqual({ ok: true, report });
  });

  it('hands back the very value it was given, typed', () => {
    const result = validateReport(meterReport);
    expect(result.ok && result.report).toBe(meterReport);
  });

  it.each([
    ['a report that is not an object', [], '', 'A report must be an object'],
    ['a report without a type', { at, observations: {} }, 'type', 'type is required'],
    [
      'a type that is not a string',
      { type: 3, at, observations: {} },
      'type',
      expect.stringMatching(/^type must be a report type: solarPower, solarPower.flash, /),
    ],
    ['an unknown type', { type: 'nuclearPower', at, asset: 0, observations: {} }, 'type', expect.stringContaining('type must be a report type:')],
  ])('refuses %s', (_name, report, path, message) => {
    expect(issues(report)).toEqual([{ path, message }]);
  });

  const timeMessage = 'at must be an ISO 8601 date and time with a zone, such as 2026-05-01T12:00:00Z';
  it.each([
    ['no at', (r: Record<string, unknown>) => delete r.at, 'at', 'at is required'],
    ['an at without a zone', (r: Record<string, unknown>) => (r.at = '2026-05-01T12:00:00'), 'at', timeMessage],
    ['an at that is a date only', (r: Record<string, unknown>) => (r.at = '2026-05-01'), 'at', timeMessage],
    ['an at on 30 February', (r: Record<string, unknown>) => (r.at = '2026-02-30T12:00:00Z'), 'at', timeMessage],
    ['an at that is a number', (r: Record<string, unknown>) => (r.at = 1777636800000), 'at', timeMessage],
    ['no asset on an asset report', (r: Record<string, unknown>) => delete r.asset, 'asset', 'asset is required'],
    ['a negative asset index', (r: Record<string, unknown>) => (r.asset = -1), 'asset', 'asset must be an integer of at least 0'],
    ['a fractional asset index', (r: Record<string, unknown>) => (r.asset = 1.5), 'asset', 'asset must be an integer of at least 0'],
    ['a controller on an asset report', (r: Record<string, unknown>) => (r.controller = 1), 'controller', 'controller is not a known field'],
    ['an unknown top-level field', (r: Record<string, unknown>) => (r.id = 'x'), 'id', 'id is not a known field'],
    ['no observations', (r: Record<string, unknown>) => delete r.observations, 'observations', 'observations is required'],
    ['observations that are a list', (r: Record<string, unknown>) => (r.observations = []), 'observations', 'observations must be an object'],
  ])('refuses a meter report with %s', (_name, change, path, message) => {
    expect(issues(changed('meterPower', change))).toEqual([{ path, message }]);
  });

  it.each([
    ['a string', '12.5'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['a boolean', true],
    ['an object', { value: 1 }],
  ])('refuses a measurement that is %s', (_name, value) => {
    const report = changed('meterPower', (r) => (r.observations.activePower = value));
    expect(issues(report)).toEqual([{ path: 'observations.activePower', message: 'observations.activePower must be a finite number or null' }]);
  });

  it('accepts null for every measurement, and leaving one out', () => {
    const report = changed('meterPower', (r) => {
      r.observations.activePower = null;
      delete r.observations.reactivePower;
    });
    expect(issues(report)).toEqual([]);
  });

  it.each([
    ['solarPower', 'observations.activePowerLimitPercentage', 101, 'observations.activePowerLimitPercentage must be a finite number from 0 to 100 or null'],
    ['batteryPower', 'observations.stateOfCharge', -0.1, 'observations.stateOfCharge must be a finite number from 0 to 100 or null'],
    ['batteryPower', 'observations.maxChargePower', -1, 'observations.maxChargePower must be a finite number of at least 0 or null'],
    ['meterPower', 'observations.powerFactor', 1.2, 'observations.powerFactor must be a finite number from -1 to 1 or null'],
    ['meterPower', 'observations.phaseVoltage.l2', Number.NaN, 'observations.phaseVoltage.l2 must be a finite number or null'],
    ['meterPower', 'observations.phaseVoltage.n', 230, 'observations.phaseVoltage.n is not a known field'],
    ['meterPower', 'observations.setpoints', setpoints, 'observations.setpoints is not a known field'],
    ['meterPower', 'observations.voltage', 230, 'observations.voltage is not a known field'],
    ['meterPower', 'observations.phaseVoltage', null, 'observations.phaseVoltage must be an object'],
    ['batteryPower', 'observations.status', 'charging', 'observations.status must be one of on, off, other or null'],
    ['windPower', 'observations.converterStatus', 'spinning', 'observations.converterStatus must be one of running, on, pause, stop or null'],
    ['generatorPower', 'observations.status', 'on', 'observations.status must be one of running, standby, off, other or null'],
    ['relay', 'observations.channels', ['on', 'open'], 'observations.channels[1] must be one of on, off or null'],
    ['relay', 'observations.channels', 'on', 'observations.channels must be a list'],
    [
      'evPower',
      'observations.points',
      [{ point: 0, status: 'plugged' }],
      'observations.points[0].status must be one of available, preparing, charging, suspendedEv, suspendedEvse, finishing, reserved, unavailable, faulted or null',
    ],
    ['evPower', 'observations.points', [{ status: 'charging' }], 'observations.points[0].point is required'],
    ['alarm', 'observations.level', 'critical', 'observations.level must be one of info, warning, fault'],
    ['alarm', 'observations.active', null, 'observations.active must be true or false'],
    ['config', 'observations.config', 'version: 2', 'observations.config must be an object'],
    ['config', 'observations.source', 'usb', 'observations.source must be one of cloud, local, default'],
    ['ack', 'observations.messageId', 'x'.repeat(65), 'observations.messageId must be a string of at most 64 characters'],
    ['journal', 'observations.lines', Array.from({ length: 501 }, () => 'line'), 'observations.lines must have at most 500 entries'],
    ['journal', 'observations.lines', [1], 'observations.lines[0] must be a string of at most 8192 characters'],
    ['executedModbusCommand', 'observations.registers', [65536], 'observations.registers[0] must be an integer from 0 to 65535'],
    ['networkScan', 'observations.hosts', [{ address: '10.0.0.1', openPorts: [0] }], 'observations.hosts[0].openPorts[0] must be an integer from 1 to 65535'],
    ['routingTable', 'observations.routes', [{ destination: '0.0.0.0/0' }], 'observations.routes[0].interface is required'],
    [
      'executedAssetSchedule',
      'observations.startAt',
      '10:00',
      'observations.startAt must be an ISO 8601 date and time with a zone, such as 2026-05-01T12:00:00Z',
    ],
  ] as const)('refuses a %s report whose %s is %j', (type, path, value, message) => {
    const report = changed(type, (r) => setPath(r, path, value));
    expect(issues(report)).toEqual([{ path: expect.stringMatching(new RegExp(`^${escape(path)}`)), message }]);
  });

  describe('connectionStatistics', () => {
    const counters = ['success', 'queueFull', 'invalidRequest', 'notReady', 'connectionError', 'timeout', 'responseError'] as const;
    it.each(counters.flatMap((counter) => [[counter, -1] as const, [counter, 0.5] as const, [counter, Number.POSITIVE_INFINITY] as const]))(
      'refuses %s of %d',
      (counter, value) => {
        const report = changed('meterPower', (r) => ((r.observations.connectionStatistics as Record<string, unknown>)[counter] = value));
        const path = `observations.connectionStatistics.${counter}`;
        expect(issues(report)).toEqual([{ path, message: `${path} must be an integer of at least 0` }]);
      },
    );

    it.each(counters)('refuses a report without %s', (counter) => {
      const report = changed('meterPower', (r) => delete (r.observations.connectionStatistics as Record<string, unknown>)[counter]);
      const path = `observations.connectionStatistics.${counter}`;
      expect(issues(report)).toEqual([{ path, message: `${path} is required` }]);
    });

    it('refuses a meter report without connectionStatistics; a flash report has none', () => {
      expect(issues(changed('meterPower', (r) => delete r.observations.connectionStatistics))).toEqual([
        { path: 'observations.connectionStatistics', message: 'observations.connectionStatistics is required' },
      ]);
      expect(issues(changed('meterPower.flash', (r) => (r.observations.connectionStatistics = statistics)))).toEqual([
        { path: 'observations.connectionStatistics', message: 'observations.connectionStatistics is not a known field' },
      ]);
    });
  });

  describe('setpoints', () => {
    it.each([
      [
        'an unknown source',
        (s: Record<string, unknown>) => ((s.desired as Record<string, unknown>).optimizer = 1),
        'observations.setpoints.desired.optimizer',
        'observations.setpoints.desired.optimizer is not a known field',
      ],
      ['no desired', (s: Record<string, unknown>) => delete s.desired, 'observations.setpoints.desired', 'observations.setpoints.desired is required'],
      ['no effective', (s: Record<string, unknown>) => delete s.effective, 'observations.setpoints.effective', 'observations.setpoints.effective is required'],
      [
        'a confirmed that is not finite',
        (s: Record<string, unknown>) => (s.confirmed = Number.NaN),
        'observations.setpoints.confirmed',
        'observations.setpoints.confirmed must be a finite number or null',
      ],
    ])('refuses setpoints with %s', (_name, change, path, message) => {
      const report = changed('batteryPower', (r) => change(r.observations.setpoints as Record<string, unknown>));
      expect(issues(report)).toEqual([{ path, message }]);
    });

    it('accepts an effective setpoint of null (none in force)', () => {
      expect(issues(changed('solarPower', (r) => ((r.observations.setpoints as Record<string, unknown>).effective = null)))).toEqual([]);
    });
  });

  describe('the Sager furnace schedule', () => {
    const entry = { charge: 50, startAt: '2026-05-01T22:00:00Z', endAt: '2026-05-02T06:00:00Z' };
    it('accepts 12 entries', () => {
      expect(issues(changed('thermalPower', (r) => (r.observations.schedule = Array.from({ length: 12 }, () => entry))))).toEqual([]);
    });
    it.each([
      ['13 entries', Array.from({ length: 13 }, () => entry), 'observations.schedule', 'observations.schedule must have at most 12 entries'],
      [
        'a charge above 100',
        [{ ...entry, charge: 101 }],
        'observations.schedule[0].charge',
        'observations.schedule[0].charge must be a finite number from 0 to 100',
      ],
      ['an entry without endAt', [{ charge: 1, startAt: entry.startAt }], 'observations.schedule[0].endAt', 'observations.schedule[0].endAt is required'],
      ['a null entry', [null], 'observations.schedule[0]', 'observations.schedule[0] must be an object'],
    ])('refuses %s', (_name, schedule, path, message) => {
      expect(issues(changed('thermalPower', (r) => (r.observations.schedule = schedule)))).toEqual([{ path, message }]);
    });
  });

  describe('targets', () => {
    it.each([
      [
        'a loop status without a controller',
        { type: 'powerLimiterStatus', at, observations: { state: 'idle' } },
        [{ path: 'controller', message: 'controller is required' }],
      ],
      [
        'a loop status with an asset',
        { type: 'batteryPeakShaverStatus', at, controller: 0, asset: 1, observations: { state: 'idle' } },
        [{ path: 'asset', message: 'asset is not a known field' }],
      ],
      [
        'a loop status without its state',
        { type: 'optimizerStatus', at, controller: 0, observations: {} },
        [{ path: 'observations.state', message: 'observations.state is required' }],
      ],
      [
        "a loop status with another loop's field",
        { type: 'powerLimiterStatus', at, controller: 0, observations: { state: 'idle', stateOfCharge: 50 } },
        [{ path: 'observations.stateOfCharge', message: 'observations.stateOfCharge is not a known field' }],
      ],
      [
        'a device report with an asset',
        { type: 'journal', at, asset: 0, observations: { lines: [] } },
        [{ path: 'asset', message: 'asset is not a known field' }],
      ],
      [
        'an executed schedule with neither asset nor controller',
        { type: 'executedAssetSchedule', at, observations: { startAt: at, endAt: at, command: {} } },
        [{ path: '', message: 'executedAssetSchedule reports must give exactly one of asset and controller' }],
      ],
      [
        'an executed schedule with both',
        { type: 'executedAssetSchedule', at, asset: 0, controller: 0, observations: { startAt: at, endAt: at, command: {} } },
        [{ path: '', message: 'executedAssetSchedule reports must give exactly one of asset and controller' }],
      ],
    ])('refuses %s', (_name, report, expected) => {
      expect(issues(report)).toEqual(expected);
    });

    it('accepts an alarm of the device itself (no asset)', () => {
      expect(issues({ type: 'alarm', at, observations: { code: 'disk_full', level: 'warning', active: true } })).toEqual([]);
    });
  });

  it('reports every issue of a report, each with its path', () => {
    const report = changed('batteryPower', (r) => {
      r.at = 'yesterday';
      r.observations.stateOfCharge = 'full';
      r.observations.colour = 'red';
    });
    expect(issues(report).map((issue) => issue.path)).toEqual(['at', 'observations.stateOfCharge', 'observations.colour']);
  });

  it('survives JSON with a __proto__ key', () => {
    const report = JSON.parse(
      `{"type":"relay","at":"${at}","asset":0,"observations":{"__proto__":{"x":1},"connectionStatistics":${JSON.stringify(statistics)}}}`,
    ) as unknown;
    expect(issues(report)).toEqual([{ path: 'observations.__proto__', message: 'observations.__proto__ is not a known field' }]);
  });
});

describe('what cannot be stored (issue 14)', () => {
  const journal = (lines: unknown[]) => ({ type: 'journal', at, observations: { lines } });
  const parameters = (value: unknown) => ({ type: 'executedAssetParameters', at, asset: 0, observations: { parameters: value } });

  it('refuses text with U+0000 or an unpaired surrogate, which PostgreSQL cannot keep', () => {
    expect(issues(journal(['a \u0000 b']))).toEqual([
      { path: 'observations.lines[0]', message: 'observations.lines[0] must not contain U+0000 or an unpaired surrogate' },
    ]);
    expect(issues(journal(['half \ud800']))).toEqual([
      { path: 'observations.lines[0]', message: 'observations.lines[0] must not contain U+0000 or an unpaired surrogate' },
    ]);
    expect(issues(journal(['whole \ud83d\ude00']))).toEqual([]);
    expect(issues(parameters({ name: 'x\u0000' }))).toEqual([
      { path: 'observations.parameters', message: 'observations.parameters must not contain U+0000 or an unpaired surrogate' },
    ]);
    expect(issues(parameters({ ['k\u0000']: 1 }))).toEqual([
      { path: 'observations.parameters', message: 'observations.parameters keys must not contain U+0000 or an unpaired surrogate' },
    ]);
  });

  it(`refuses free-form objects nested deeper than ${jsonObjectDepthMax} levels, however deep`, () => {
    const nested = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as unknown;
    expect(issues(parameters(nested(jsonObjectDepthMax)))).toEqual([]);
    expect(issues(parameters(nested(jsonObjectDepthMax + 1)))).toEqual([
      { path: 'observations.parameters', message: `observations.parameters must nest at most ${jsonObjectDepthMax} levels deep` },
    ]);
    expect(issues(parameters(JSON.parse(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)))).toEqual([
      { path: 'observations.parameters', message: `observations.parameters must nest at most ${jsonObjectDepthMax} levels deep` },
    ]);
  });

  it('takes no envelope whose id cannot be stored', () => {
    expect(parseEnvelope(JSON.stringify({ id: 'r\u0000', type: 'report', payload: {} }))).toBeNull();
    expect(parseEnvelope(JSON.stringify({ id: 'r1', type: 'report', payload: {} }))).toEqual({ id: 'r1', type: 'report', payload: {} });
  });
});

describe('implausibleReportIssues', () => {
  const now = Date.UTC(2026, 10, 24, 12, 0, 0);
  const day = 24 * 60 * 60 * 1000;
  const three = { assets: 3, controllers: 1 };
  const timeIssue = {
    path: 'at',
    message: `at must lie between 2025-11-23T12:00:00.000Z and 2026-11-24T12:15:00.000Z (${reportTimeWindow.maxAgeDays} days before to ${reportTimeWindow.maxAheadMinutes} minutes after the server's clock)`,
  };

  it.each([
    ['9999-01-01T00:00:00Z', [timeIssue]],
    ['0001-01-01T00:00:00Z', [timeIssue]],
    [new Date(now + 16 * 60 * 1000).toISOString(), [timeIssue]],
    [new Date(now - 367 * day).toISOString(), [timeIssue]],
    [new Date(now + 14 * 60 * 1000).toISOString(), []],
    [new Date(now - 365 * day).toISOString(), []],
    ['2026-11-24T13:00:00+01:00', []],
  ])('at %s: %j', (when, expected) => {
    expect(implausibleReportIssues({ at: when, asset: 0 }, now, three)).toEqual(expected);
  });

  it('refuses an asset or controller index the running config does not have, and checks none without a known config', () => {
    const at = new Date(now).toISOString();
    expect(implausibleReportIssues({ at, asset: 999 }, now, three)).toEqual([
      { path: 'asset', message: "asset must be an index of the running config's assets: 0 to 2" },
    ]);
    expect(implausibleReportIssues({ at, asset: 2 }, now, three)).toEqual([]);
    expect(implausibleReportIssues({ at, controller: 1 }, now, three)).toEqual([
      { path: 'controller', message: "controller must be an index of the running config's control loops: 0 to 0" },
    ]);
    expect(implausibleReportIssues({ at, asset: 0 }, now, { assets: 0, controllers: 0 })).toEqual([
      { path: 'asset', message: "asset must be an index of the running config's assets, and it has none" },
    ]);
    expect(implausibleReportIssues({ at, asset: 999, controller: 7 }, now, null)).toEqual([]);
  });
});

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let current = target;
  for (const key of keys.slice(0, -1)) {
    current = current[key] as Record<string, unknown>;
  }
  current[keys[keys.length - 1] as string] = value;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the inferred types', () => {
  it('follow the tables', () => {
    const battery: ReportOf<'batteryPower'>['observations'] = { status: 'on', connectionStatistics: statistics };
    // @ts-expect-error a battery status is on, off or other
    const wrongStatus: ReportOf<'batteryPower'>['observations'] = { status: 'charging', connectionStatistics: statistics };
    // @ts-expect-error connectionStatistics is required in a meter report
    const noStatistics: ReportOf<'meterPower'>['observations'] = { activePower: 1 };
    // @ts-expect-error a loop status names its controller, not an asset
    const loop: ControlLoopStatusReport<'optimizer'> = { type: 'optimizerStatus', at, asset: 0, observations: { state: 'idle' } };
    expect([battery, wrongStatus, noStatistics, loop]).toHaveLength(4);
  });
});

describe('isIsoDateTime', () => {
  const times = [
    '2026-05-01T12:00:00Z',
    '2026-05-01T12:00Z',
    '2026-05-01T12:00:00.1Z',
    '2026-05-01T12:00:00.123456789+02:00',
    '2026-05-01T12:00:00.1234567890Z',
    '2026-05-01T12:00:00.Z',
    '2026-05-01T23:59:59-11:30',
    '2026-05-01T24:00:00Z',
    '2026-05-01T12:60:00Z',
    '2026-05-01T12:00:60Z',
    '2026-05-01T12:00:00+24:00',
    '2026-05-01T12:00:00+02:60',
    '2026-05-01T12:00:00+0200',
    '2026-05-01T12:00:00+02',
    '2026-05-01t12:00:00z',
    '2026-05-01 12:00:00Z',
    '2026-05-01T12:00:00',
    '2026-05-01',
    '2026-02-29T00:00:00Z',
    '2024-02-29T00:00:00Z',
    '2000-02-29T00:00:00Z',
    '2100-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-12-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-01T00:00:00Z',
    '2026-05-00T00:00:00Z',
    '2026-05-01T12:00:00Z ',
    ' 2026-05-01T12:00:00Z',
    '2026-05-01T12:00:00ZZ',
    '2026-5-01T12:00:00Z',
    '20260501T120000Z',
    '+2026-05-01T12:00:00Z',
    '2026-05-01T1a:00:00Z',
    '',
  ];
  it.each(times)('answers %j as parseIsoDateTime does', (time) => {
    expect(isIsoDateTime(time)).toBe(parseIsoDateTime(time) !== undefined);
  });
});

describe('docs/gateway-protocol.md', () => {
  const text = readFileSync(path.join(__dirname, '../../docs/gateway-protocol.md'), 'utf8');
  const frames = [...text.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((match) => JSON.parse(match[1] as string) as Record<string, unknown>)
    .filter((block) => 'payload' in block);
  const reports = frames.filter((frame) => frame.type === 'report');

  it('shows a frame of every envelope type', () => {
    expect(new Set(frames.map((frame) => frame.type))).toEqual(new Set(envelopeTypes));
  });

  it.each(reports.map((frame) => [frame.id, frame.payload]))('shows a valid report in %s', (_id, payload) => {
    expect(issues(payload)).toEqual([]);
  });
});
