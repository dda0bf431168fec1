import { issuesOf } from '../validation';
import { assetSchema } from './assets';
import { validationMessages } from './time-window';

const issues = issuesOf;

const none = { type: 'none' };
const tcp = { type: 'tcp', ip: '10.0.0.5' };
const solar = { type: 'fronius', communication: tcp };
const wind = { type: 'enercon', communication: tcp };
const battery = { type: 'demo-battery', communication: none };
const meter = { type: 'demo-meter', communication: none };
const ev = { type: 'peblar', communication: tcp };
const relay = { type: 'demo-relay', communication: none, relays: [{}] };
const temperatureSensor = { type: 'modbus-temperature-sensor', communication: tcp };

describe('common asset fields (device-model.md section 3.4)', () => {
  it.each([
    ['slave id 0 on a type of 0-255', { ...solar, slaveId: 0 }],
    ['slave id 255 on a 1-255 type', { ...solar, type: 'sma-inverter', slaveId: 255 }],
    ['slave id 247 on a meter', { ...meter, type: 'eastron', slaveId: 247 }],
    ['slave id 100 on a battery other than alfen', { ...battery, type: 'fluence', slaveId: 100 }],
    ['slave id 101 on alfen', { ...battery, type: 'alfen', slaveId: 101 }],
    ['a numeric ramp rate', { ...battery, rampRate: 1000 }],
    ['a ramp rate up and down', { ...battery, rampRate: { up: 1000, down: 2000, maxDelay: 0 } }],
    [
      'all common fields',
      {
        ...solar,
        identifier: 'pv',
        readOnly: true,
        slaveId: 1,
        timeout: 1,
        nominalActivePower: 0,
        powerResponseMs: 0,
        powerMeterAssetIndex: 3,
        fallbackSetpoint: -5,
      },
    ],
  ])('accepts %s', (_name, asset) => {
    expect(issues(assetSchema, asset)).toEqual([]);
  });

  it.each([
    ['an unknown type', { type: 'toaster', communication: none }, 'type', 'type must be a known asset type'],
    ['no type', { communication: none }, 'type', 'type must be a known asset type'],
    ['slave id 256', { ...solar, slaveId: 256 }, 'slaveId', 'slaveId must be less than or equal to 255'],
    ['slave id -1', { ...solar, slaveId: -1 }, 'slaveId', 'slaveId must be greater than or equal to 0'],
    ['slave id 0 on a 1-255 type', { ...solar, type: 'huawei-inverter', slaveId: 0 }, 'slaveId', 'slaveId must be between 1 and 255 for huawei-inverter'],
    ['slave id 248 on a meter of 1-247', { ...meter, type: 'janitza', slaveId: 248 }, 'slaveId', 'slaveId must be between 1 and 247 for janitza'],
    ['slave id 100 on alfen', { ...battery, type: 'alfen', slaveId: 100 }, 'slaveId', 'slaveId 100 is reserved for the aggregator of alfen batteries'],
    ['a timeout of 0', { ...solar, timeout: 0 }, 'timeout', 'timeout must be a positive number'],
    ['a zero ramp rate', { ...battery, rampRate: 0 }, 'rampRate', 'rampRate must be a positive number'],
    ['a ramp rate without down', { ...battery, rampRate: { up: 1, maxDelay: 1 } }, 'rampRate.down', 'rampRate.down is a required field'],
    [
      'a negative maxDelay',
      { ...battery, rampRate: { up: 1, down: 1, maxDelay: -1 } },
      'rampRate.maxDelay',
      'rampRate.maxDelay must be greater than or equal to 0',
    ],
    ['no communication', { type: 'fronius' }, 'communication', 'communication is a required field'],
    ['an empty identifier', { ...solar, identifier: ' ' }, 'identifier', 'identifier must be at least 1 characters'],
    ['a field of another category', { ...solar, pointCount: 2 }, '', 'this object contains unknown properties: pointCount'],
  ])('refuses %s', (_name, asset, path, message) => {
    expect(issues(assetSchema, asset)).toEqual([{ path, message }]);
  });

  it('defaults timeout to 500 ms, readOnly to false', () => {
    expect(assetSchema.cast(battery)).toMatchObject({ timeout: 500, readOnly: false });
  });
});

describe('solar and wind fields (device-model.md section 3.4)', () => {
  it.each([
    ['a static limit', { ...solar, staticLimit: { scale: 'percentage', upper: 80, lower: 0 } }],
    ['flash reports every 0.2 s', { ...wind, enableFlashReport: { reportingInterval: 0.2 } }],
    ['flash reports every 4 s', { ...solar, enableFlashReport: { reportingInterval: 4 } }],
    ['a fallback limit', { ...solar, fallbackLimit: { onlyInOptimizer: true, activePowerPercentage: 0 } }],
    [
      'environmental sensors of each kind',
      {
        ...wind,
        environmentalSensors: [
          { kind: 'irradiance', assetIndex: 1, factor: 0.98 },
          { kind: 'temperature', assetIndex: 2 },
          { kind: 'wind', assetIndex: 3 },
        ],
      },
    ],
    ['alarms off and an aFRR response time', { ...solar, readAlarms: false, afrrReferenceSignalResponseMs: 30000 }],
  ])('accepts %s', (_name, asset) => {
    expect(issues(assetSchema, asset)).toEqual([]);
  });

  it.each([
    ['a static limit upper below lower', { ...solar, staticLimit: { upper: 0, lower: 10 } }, 'staticLimit.upper', validationMessages.staticLimit],
    [
      'flash reports every 0.1 s',
      { ...solar, enableFlashReport: { reportingInterval: 0.1 } },
      'enableFlashReport.reportingInterval',
      'enableFlashReport.reportingInterval must be greater than or equal to 0.2',
    ],
    [
      'flash reports every 4.5 s',
      { ...wind, enableFlashReport: { reportingInterval: 4.5 } },
      'enableFlashReport.reportingInterval',
      'enableFlashReport.reportingInterval must be less than or equal to 4',
    ],
    [
      'a fallback limit above 100 %',
      { ...solar, fallbackLimit: { activePowerPercentage: 101 } },
      'fallbackLimit.activePowerPercentage',
      'fallbackLimit.activePowerPercentage must be less than or equal to 100',
    ],
    [
      'an empty list of environmental sensors',
      { ...solar, environmentalSensors: [] },
      'environmentalSensors',
      'environmentalSensors field must have at least 1 items',
    ],
    [
      'an unknown sensor kind',
      { ...solar, environmentalSensors: [{ kind: 'rain', assetIndex: 1 }] },
      'environmentalSensors[0].kind',
      'environmentalSensors[0].kind must be one of the following values: irradiance, temperature, wind',
    ],
    [
      'a zero irradiance factor',
      { ...solar, environmentalSensors: [{ kind: 'irradiance', assetIndex: 1, factor: 0 }] },
      'environmentalSensors[0].factor',
      'environmentalSensors[0].factor must be a positive number',
    ],
  ])('refuses %s', (_name, asset, path, message) => {
    expect(issues(assetSchema, asset)).toEqual([{ path, message }]);
  });

  it('reads alarms by default, flash reports every second, Vestas timeouts 4 s', () => {
    expect(assetSchema.cast({ ...solar, enableFlashReport: {} })).toMatchObject({ readAlarms: true, enableFlashReport: { reportingInterval: 1 } });
    expect(assetSchema.cast({ ...wind, type: 'vestas-ap' })).toMatchObject({ readTimeout: 4, writeTimeout: 4 });
  });
});

describe('battery fields (device-model.md section 3.4)', () => {
  it.each([
    ['state-of-charge limits', { ...battery, stateOfChargeLimits: { min: 10, max: 90 } }],
    ['power limits within a time window', { ...battery, powerLimits: { charge: 1000, discharge: 2000, timeWindow: { start: '08:00', end: '20:00' } } }],
    [
      'initialization commands',
      {
        ...battery,
        initializationCommands: [
          { type: 'writeCoil', addr: 1, binary: true },
          { type: 'writeRegisters', addr: 2, valueAry: [1, 2] },
        ],
      },
    ],
    ['no flash report', { ...battery, noFlashReport: true }],
  ])('accepts %s', (_name, asset) => {
    expect(issues(assetSchema, asset)).toEqual([]);
  });

  it.each([
    [
      'a minimum above the maximum',
      { ...battery, stateOfChargeLimits: { min: 60, max: 50 } },
      'stateOfChargeLimits.max',
      'stateOfChargeLimits.max must not be below min',
    ],
    [
      'an overnight power-limit window',
      { ...battery, powerLimits: { charge: 1, discharge: 1, timeWindow: { start: '22:00', end: '06:00' } } },
      'powerLimits.timeWindow.end',
      validationMessages.invalidTimeWindow,
    ],
    [
      'a read as initialization command',
      { ...battery, initializationCommands: [{ type: 'readCoils', addr: 1, length: 1 }] },
      'initializationCommands[0].type',
      'initializationCommands[0].type must be one of the following values: writeCoil, writeRegister, writeCoils, writeRegisters',
    ],
    ['no gotion containers', { ...battery, type: 'gotion', containerCount: 0 }, 'containerCount', 'containerCount must be greater than or equal to 1'],
  ])('refuses %s', (_name, asset, path, message) => {
    expect(issues(assetSchema, asset)).toEqual([{ path, message }]);
  });

  it('defaults gotion to 19 containers and smart-grid to a ramp rate of 20000', () => {
    expect(assetSchema.cast({ ...battery, type: 'gotion' })).toMatchObject({ containerCount: 19 });
    expect(assetSchema.cast({ ...battery, type: 'gotion', containerCount: 3 })).toMatchObject({ containerCount: 3 });
    expect(assetSchema.cast({ ...battery, type: 'smart-grid' })).toMatchObject({ rampRate: 20000 });
    expect(assetSchema.cast({ ...battery })).not.toHaveProperty('containerCount');
  });
});

describe('meter fields (device-model.md section 3.4)', () => {
  it.each([
    [
      'flash reports every 0.2 s with properties',
      { ...meter, invertCurrent: true, enableFlashReport: { reportingInterval: 0.2, additionalProperties: ['lineVoltage', 'lineCurrent'] } },
    ],
    ['flash reports every 2 s', { ...meter, enableFlashReport: { reportingInterval: 2 } }],
    ['an uncontrollable peak', { ...meter, uncontrollablePeakPower: { consumption: 1000, generation: 0 } }],
  ])('accepts %s', (_name, asset) => {
    expect(issues(assetSchema, asset)).toEqual([]);
  });

  it.each([
    [
      'flash reports every 2.1 s',
      { ...meter, enableFlashReport: { reportingInterval: 2.1 } },
      'enableFlashReport.reportingInterval',
      'enableFlashReport.reportingInterval must be less than or equal to 2',
    ],
    [
      'a repeated property',
      { ...meter, enableFlashReport: { additionalProperties: ['phaseVoltage', 'phaseVoltage'] } },
      'enableFlashReport.additionalProperties[1]',
      validationMessages.propertiesUnique,
    ],
    [
      'an unknown property',
      { ...meter, enableFlashReport: { additionalProperties: ['frequency'] } },
      'enableFlashReport.additionalProperties[0]',
      'enableFlashReport.additionalProperties[0] must be one of the following values: reactivePower, phaseVoltage, lineVoltage, phaseCurrent, lineCurrent',
    ],
    [
      'a negative peak',
      { ...meter, uncontrollablePeakPower: { consumption: -1, generation: 0 } },
      'uncontrollablePeakPower.consumption',
      'uncontrollablePeakPower.consumption must be greater than or equal to 0',
    ],
  ])('refuses %s', (_name, asset, path, message) => {
    expect(issues(assetSchema, asset)).toEqual([{ path, message }]);
  });

  it('defaults the meter flash report to every second', () => {
    expect(assetSchema.cast({ ...meter, enableFlashReport: {} })).toMatchObject({
      invertCurrent: false,
      enableFlashReport: { reportingInterval: 1, additionalProperties: [] },
    });
  });
});

describe('EV fields (device-model.md sections 3.4, 9)', () => {
  it.each([
    ['non-positive limits', { ...ev, staticLimit: { activePower: 0, phaseCurrent: -16 }, fallbackLimit: { activePower: -3000 } }],
    ['the shortest durations', { ...ev, minimumChargingDurantion: 60, maximumBlockDuration: 300 }],
    [
      'a group of two chargers',
      {
        type: 'ev-group',
        communication: none,
        assetConnectors: [
          { type: 'abl', communication: tcp },
          { type: 'kempower', communication: tcp },
        ],
      },
    ],
  ])('accepts %s', (_name, asset) => {
    expect(issues(assetSchema, asset)).toEqual([]);
  });

  it.each([
    [
      'a positive static power limit',
      { ...ev, staticLimit: { activePower: 1 } },
      'staticLimit.activePower',
      'staticLimit.activePower must be less than or equal to 0',
    ],
    [
      'a positive fallback current',
      { ...ev, fallbackLimit: { phaseCurrent: 6 } },
      'fallbackLimit.phaseCurrent',
      'fallbackLimit.phaseCurrent must be less than or equal to 0',
    ],
    [
      'a charging duration of 59 s',
      { ...ev, minimumChargingDurantion: 59 },
      'minimumChargingDurantion',
      'minimumChargingDurantion must be greater than or equal to 60',
    ],
    ['a block of 299 s', { ...ev, maximumBlockDuration: 299 }, 'maximumBlockDuration', 'maximumBlockDuration must be greater than or equal to 300'],
    [
      'a group without chargers',
      { type: 'ev-group', communication: none, assetConnectors: [] },
      'assetConnectors',
      'assetConnectors field must have at least 1 items',
    ],
    [
      'a group holding a group',
      { type: 'ev-group', communication: none, assetConnectors: [{ type: 'ev-group', communication: none }] },
      'assetConnectors[0].type',
      'assetConnectors[0].type must be one of the following values: demo-ev, abl, alfen-ev-ng9xx, alpitronic, phoenix-contact-charx, siemens-sicharger, kempower, peblar',
    ],
    [
      'a group holding a site controller',
      { type: 'ev-group', communication: none, assetConnectors: [{ type: 'vd-sijs', communication: none }] },
      'assetConnectors[0].type',
      'assetConnectors[0].type must be one of the following values: demo-ev, abl, alfen-ev-ng9xx, alpitronic, phoenix-contact-charx, siemens-sicharger, kempower, peblar',
    ],
  ])('refuses %s', (_name, asset, path, message) => {
    expect(issues(assetSchema, asset)).toEqual([{ path, message }]);
  });

  it.each([
    ['abl', 2],
    ['demo-ev', 8],
    ['alpitronic', 4],
    ['peblar', 1],
  ])('defaults %s to %i charging points and 230 V', (type, pointCount) => {
    expect(assetSchema.cast({ ...ev, type })).toMatchObject({ pointCount, nominalPhaseVoltage: 230, debugEnableDistribution: false });
  });

  it('keeps a pointCount that is given', () => {
    expect(assetSchema.cast({ ...ev, type: 'abl', pointCount: 1 })).toMatchObject({ pointCount: 1 });
  });
});

describe('solar groups (device-model.md section 3.3)', () => {
  it('accepts a group of inverters', () => {
    expect(issues(assetSchema, { type: 'solar-group', communication: none, assetConnectors: [{ type: 'sofar-inverter', communication: tcp }] })).toEqual([]);
  });

  it.each([
    ['a plant controller', 'sma-datamanager'],
    ['a battery', 'alfen'],
  ])('refuses %s as connector', (_name, type) => {
    expect(issues(assetSchema, { type: 'solar-group', communication: none, assetConnectors: [{ type, communication: tcp }] })).toEqual([
      {
        path: 'assetConnectors[0].type',
        message: expect.stringMatching(/^assetConnectors\[0\]\.type must be one of the following values: demo-solar, efasolar, fronius, sma-inverter, /),
      },
    ]);
  });
});

describe('generator, relay, sensor and misc fields (device-model.md section 3.4)', () => {
  it.each([
    ['a generator', { type: 'elinex', communication: tcp, minimumRuntime: 15, minimumSetpointPowerPercentage: 40 }],
    ['a relay of two channels', { ...relay, relays: [{ normallyOff: false, default: 'on' }, { name: 'pump' }] }],
    [
      'distinct temperatures',
      {
        ...temperatureSensor,
        temperatures: [
          { name: 'a', register: 0 },
          { name: 'b', register: 1 },
        ],
      },
    ],
    [
      'a test inverter reporting 123 registers',
      { type: 'test-modbus-inverter', communication: tcp, endianness: 'mid-little', registerReports: [{ name: 'block', addr: 0, length: 123 }] },
    ],
    ['a heat storage', { type: 'demo-heat-storage', communication: none, capacity: 100000 }],
    ['an irradiance sensor', { type: 'demo-irradiance-sensor', communication: none, factor: 1.1, offset: -2 }],
    ['a wind sensor', { type: 'demo-wind-sensor', communication: none, heightM: 80 }],
  ])('accepts %s', (_name, asset) => {
    expect(issues(assetSchema, asset)).toEqual([]);
  });

  it.each([
    [
      'a setpoint percentage above 100',
      { type: 'elinex', communication: tcp, minimumSetpointPowerPercentage: 101 },
      'minimumSetpointPowerPercentage',
      'minimumSetpointPowerPercentage must be less than or equal to 100',
    ],
    ['a relay without channels', { ...relay, relays: [] }, 'relays', 'relays field must have at least 1 items'],
    [
      'a channel default that is not on or off',
      { ...relay, relays: [{ default: 'toggle' }] },
      'relays[0].default',
      'relays[0].default must be one of the following values: on, off',
    ],
    [
      'a repeated temperature name',
      {
        ...temperatureSensor,
        temperatures: [
          { name: 'a', register: 0 },
          { name: 'a', register: 1 },
        ],
      },
      'temperatures[1].name',
      validationMessages.temperatureNamesUnique,
    ],
    [
      'a repeated temperature register',
      {
        ...temperatureSensor,
        temperatures: [
          { name: 'a', register: 0 },
          { name: 'b', register: 0 },
        ],
      },
      'temperatures[1].register',
      validationMessages.temperatureRegistersUnique,
    ],
    [
      'a register report of 124',
      { type: 'test-modbus-inverter', communication: tcp, registerReports: [{ name: 'block', addr: 0, length: 124 }] },
      'registerReports[0].length',
      'registerReports[0].length must be less than or equal to 123',
    ],
    [
      'a repeated register report name',
      {
        type: 'test-asset',
        communication: tcp,
        registerReports: [
          { name: 'a', addr: 0, length: 1 },
          { name: 'a', addr: 1, length: 1 },
        ],
      },
      'registerReports[1].name',
      validationMessages.idsUnique,
    ],
    [
      'an unknown endianness',
      { type: 'test-asset', communication: tcp, endianness: 'little' },
      'endianness',
      'endianness must be one of the following values: big, mid-little',
    ],
    [
      'a long transport selector',
      { type: 'abb-protection-relay', communication: tcp, osiSelectors: { transportSelector: '123456789' } },
      'osiSelectors.transportSelector',
      'osiSelectors.transportSelector must be at most 8 characters',
    ],
  ])('refuses %s', (_name, asset, path, message) => {
    expect(issues(assetSchema, asset)).toEqual([{ path, message }]);
  });

  it('defaults a relay channel to normally off and off', () => {
    expect(assetSchema.cast(relay)).toMatchObject({ relays: [{ normallyOff: true, default: 'off' }] });
  });
});
