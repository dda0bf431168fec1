import { issuesOf } from '../validation';
import {
  assetCommandSchema,
  browseCommandSchema,
  classifyScheduleItem,
  maxCommandEndAgeMs,
  maxCommandIntervalMs,
  maxCommandStartAheadMs,
  modbusCommandSchema,
  osiSelectorsSchema,
  parametersBodySchema,
  scheduleBodySchema,
  scheduleItemSchema,
} from './commands';
import { cloudToDeviceMessageSchema } from './config';
import { exampleDeviceConfig } from './examples';

const issues = issuesOf;

describe('asset commands (device-model.md section 3.7)', () => {
  it.each([
    [{ type: 'limitProductionPower', percentage: 50 }],
    [{ type: 'applyAfrrDeltaSetpoint', deltaSetpoint: -250000 }],
    [{ type: 'limitPower', feedIn: 0, consume: 500000 }],
    [{ type: 'limitPower', feedIn: 100000 }],
    [{ type: 'setBatteryOperation', dispatchPower: -100000, deliverFCR: true }],
    [{ type: 'setBatteryOperation', chargeToState: 80 }],
    [{ type: 'setRelayOperation', relays: ['on', 'off'] }],
    [{ type: 'setEVOperation', activePower: -11000 }],
    [{ type: 'setEVOperation', phaseCurrent: -16 }],
    [{ type: 'setSolarOperation', activePowerPercentage: 60, reactivePower: 1000 }],
    [{ type: 'setWindOperation', activePower: 1500000 }],
    [{ type: 'setWindOperation', reactivePower: -2000 }],
    [{ type: 'setGeneratorOperation', run: true, activePower: 100000 }],
    [{ type: 'setGeneratorOperation', run: false }],
  ])('accepts %j', (command) => {
    expect(issues(assetCommandSchema, command)).toEqual([]);
  });

  it.each([
    [
      'an unknown type',
      { type: 'explode' },
      'type',
      'type must be one of the following values: limitProductionPower, applyAfrrDeltaSetpoint, limitPower, setBatteryOperation, setRelayOperation, setEVOperation, setSolarOperation, setWindOperation, setGeneratorOperation',
    ],
    ['a percentage above 100', { type: 'limitProductionPower', percentage: 101 }, 'percentage', 'percentage must be less than or equal to 100'],
    ['a delta without its value', { type: 'applyAfrrDeltaSetpoint' }, 'deltaSetpoint', 'deltaSetpoint is a required field'],
    ['limitPower with no limit', { type: 'limitPower' }, '', 'this must give feedIn, consume or both'],
    [
      'limitPower with inverted limits',
      { type: 'limitPower', feedIn: 100, consume: -200 },
      '',
      'Invalid limits: The inverted consumption limit must not exceed the feed-in limit, and vice versa.',
    ],
    [
      'dispatchPower with chargeToState',
      { type: 'setBatteryOperation', dispatchPower: 1, chargeToState: 50 },
      '',
      'this must give dispatchPower or chargeToState, not both',
    ],
    [
      'a relay state that is not on or off',
      { type: 'setRelayOperation', relays: ['open'] },
      'relays[0]',
      'relays[0] must be one of the following values: on, off',
    ],
    ['no relays', { type: 'setRelayOperation', relays: [] }, 'relays', 'relays field must have at least 1 items'],
    [
      'EV power and current together',
      { type: 'setEVOperation', activePower: -1, phaseCurrent: -1 },
      '',
      'this must give exactly one of activePower and phaseCurrent',
    ],
    ['a positive EV power', { type: 'setEVOperation', activePower: 1 }, 'activePower', 'activePower must be less than or equal to 0'],
    [
      'solar power and percentage together',
      { type: 'setSolarOperation', activePower: 1, activePowerPercentage: 1 },
      '',
      'this must give activePower or activePowerPercentage (not both), or reactivePower',
    ],
    ['an empty wind command', { type: 'setWindOperation' }, '', 'this must give activePower or activePowerPercentage (not both), or reactivePower'],
    ['a generator command without run', { type: 'setGeneratorOperation', activePower: 1 }, 'run', 'run is a required field'],
    ['an unknown field', { type: 'limitProductionPower', percentage: 1, power: 2 }, '', 'this object contains unknown properties: power'],
  ])('refuses %s', (_name, command, path, message) => {
    expect(issues(assetCommandSchema, command)).toEqual([{ path, message }]);
  });
});

const item = { startAt: '2026-05-01T10:00:00Z', endAt: '2026-05-01T14:00:00.000+02:00', command: { type: 'limitProductionPower', percentage: 50 } };

describe('schedule items (spec README "Schedule items")', () => {
  it('accepts an item and keeps its times as given', () => {
    expect(scheduleItemSchema.validateSync(item)).toEqual(item);
  });

  it.each([
    [
      'a time without a zone',
      { ...item, startAt: '2026-05-01T10:00:00' },
      'startAt',
      'startAt must be an ISO 8601 date and time with a zone, such as 2026-05-01T12:00:00Z',
    ],
    [
      'a date that does not exist',
      { ...item, endAt: '2026-02-30T10:00:00Z' },
      'endAt',
      'endAt must be an ISO 8601 date and time with a zone, such as 2026-05-01T12:00:00Z',
    ],
    ['an end before the start', { ...item, endAt: '2026-05-01T09:00:00Z' }, 'endAt', 'endAt must be later than startAt'],
    ['no command', { startAt: item.startAt, endAt: item.endAt }, 'command', 'command is a required field'],
    [
      'a 29 February in a common year',
      { ...item, startAt: '2027-02-29T10:00:00Z' },
      'startAt',
      'startAt must be an ISO 8601 date and time with a zone, such as 2026-05-01T12:00:00Z',
    ],
  ])('refuses %s', (_name, value, path, message) => {
    expect(issues(scheduleItemSchema, value)).toEqual([{ path, message }]);
  });
});

describe('PUT /v2/schedule body (api.md section 5)', () => {
  const schedule = (count: number) => Array.from({ length: count }, () => item);
  const identifiers = (count: number) => Array.from({ length: count }, (_value, index) => `asset-${index}`);

  it.each([
    ['192 items for assets', { schedule: schedule(192), assetIdentifiers: ['pv-roof'] }],
    ['an empty schedule for 100 controllers', { schedule: [], controllerIdentifiers: identifiers(100) }],
  ])('accepts %s', (_name, body) => {
    expect(issues(scheduleBodySchema, body)).toEqual([]);
  });

  it.each([
    [
      'a schedule of 193 commands',
      { schedule: schedule(193), assetIdentifiers: ['a'] },
      'schedule',
      'schedule field must have less than or equal to 192 items',
    ],
    ['no identifiers', { schedule: [] }, '', 'Exactly one of assetIdentifiers and controllerIdentifiers must be given'],
    [
      'both kinds of identifiers',
      { schedule: [], assetIdentifiers: ['a'], controllerIdentifiers: ['b'] },
      '',
      'Exactly one of assetIdentifiers and controllerIdentifiers must be given',
    ],
    ['an empty identifier list', { schedule: [], assetIdentifiers: [] }, 'assetIdentifiers', 'assetIdentifiers field must have at least 1 items'],
    [
      '101 identifiers',
      { schedule: [], controllerIdentifiers: identifiers(101) },
      'controllerIdentifiers',
      'controllerIdentifiers field must have less than or equal to 100 items',
    ],
    ['a repeated identifier', { schedule: [], assetIdentifiers: ['a', 'b', 'a'] }, 'assetIdentifiers[2]', 'Ids must be unique'],
  ])('refuses %s', (_name, body, path, message) => {
    expect(issues(scheduleBodySchema, body)).toEqual([{ path, message }]);
  });
});

describe('classifyScheduleItem (device-model.md section 8)', () => {
  const now = Date.parse('2026-05-01T12:00:00Z');
  const at = (offsetMs: number) => new Date(now + offsetMs).toISOString();

  it('has the spec constants', () => {
    expect([maxCommandStartAheadMs, maxCommandEndAgeMs, maxCommandIntervalMs]).toEqual([2147483647, 86400000, 2147483647]);
  });

  it.each([
    ['a command running now', at(-1000), at(1000), 'ok'],
    ['a command starting exactly at the furthest start', at(maxCommandStartAheadMs), at(maxCommandStartAheadMs + 1), 'ok'],
    ['a command ended a minute ago', at(-120000), at(-60000), 'drop'],
    ['a command ending now', at(-60000), at(0), 'drop'],
    ['a command ended exactly 24 hours ago', at(-maxCommandEndAgeMs - 1000), at(-maxCommandEndAgeMs), 'drop'],
    ['a command ended 24 hours and 1 ms ago', at(-maxCommandEndAgeMs - 1000), at(-maxCommandEndAgeMs - 1), 'end_at_too_far_in_the_past'],
    ['a command starting 1 ms too far ahead', at(maxCommandStartAheadMs + 1), at(maxCommandStartAheadMs + 2), 'start_at_too_far_in_future'],
    ['a command 1 ms too long', at(0), at(maxCommandIntervalMs + 1), 'interval_too_long'],
    ['a command exactly as long as allowed', at(0), at(maxCommandIntervalMs), 'ok'],
  ])('%s is %s', (_name, startAt, endAt, verdict) => {
    expect(classifyScheduleItem({ startAt, endAt }, new Date(now))).toBe(verdict);
    expect(classifyScheduleItem({ startAt, endAt }, now)).toBe(verdict);
  });
});

describe('PUT /v1/parameters body (device-model.md section 3.8, api.md section 5)', () => {
  const entry = { charge: 100, startAt: '2026-05-01T00:00:00Z', endAt: '2026-05-01T06:00:00Z' };

  it.each([
    [
      'a Sager furnace schedule of 11 entries',
      { parameters: { type: 'sagerFurnace', schedule: Array.from({ length: 11 }, () => entry) }, assetIdentifiers: ['furnace'] },
    ],
    ['demo battery errors and warnings', { parameters: { type: 'demoBattery', errors: ['E001'], warnings: [] }, assetIdentifiers: ['bess-1'] }],
    ['hedno local mode', { parameters: { type: 'hedno', localMode: true }, assetIdentifiers: ['hedno'] }],
  ])('accepts %s', (_name, body) => {
    expect(issues(parametersBodySchema, body)).toEqual([]);
  });

  it.each([
    [
      'a Sager furnace schedule of 12 entries',
      { parameters: { type: 'sagerFurnace', schedule: Array.from({ length: 12 }, () => entry) }, assetIdentifiers: ['f'] },
      'parameters.schedule',
      'parameters.schedule field must have less than or equal to 11 items',
    ],
    [
      'a furnace entry ending before it starts',
      { parameters: { type: 'sagerFurnace', schedule: [{ ...entry, endAt: entry.startAt }] }, assetIdentifiers: ['f'] },
      'parameters.schedule[0].endAt',
      'parameters.schedule[0].endAt must be later than startAt',
    ],
    [
      'a charge above 100',
      { parameters: { type: 'sagerFurnace', schedule: [{ ...entry, charge: 101 }] }, assetIdentifiers: ['f'] },
      'parameters.schedule[0].charge',
      'parameters.schedule[0].charge must be less than or equal to 100',
    ],
    ['hedno without localMode', { parameters: { type: 'hedno' }, assetIdentifiers: ['h'] }, 'parameters.localMode', 'parameters.localMode is a required field'],
    [
      'an unknown parameters type',
      { parameters: { type: 'furnace' }, assetIdentifiers: ['h'] },
      'parameters.type',
      'parameters.type must be one of the following values: sagerFurnace, demoBattery, hedno',
    ],
    ['no asset identifiers', { parameters: { type: 'hedno', localMode: false } }, 'assetIdentifiers', 'assetIdentifiers is a required field'],
    [
      '101 asset identifiers',
      { parameters: { type: 'hedno', localMode: false }, assetIdentifiers: Array.from({ length: 101 }, (_v, i) => `a${i}`) },
      'assetIdentifiers',
      'assetIdentifiers field must have less than or equal to 100 items',
    ],
  ])('refuses %s', (_name, body, path, message) => {
    expect(issues(parametersBodySchema, body)).toEqual([{ path, message }]);
  });

  it('defaults the demo battery lists to empty', () => {
    expect(parametersBodySchema.cast({ parameters: { type: 'demoBattery' }, assetIdentifiers: ['b'] })).toEqual({
      parameters: { type: 'demoBattery', errors: [], warnings: [] },
      assetIdentifiers: ['b'],
    });
  });
});

describe('Modbus commands (api.md sections 3, 5)', () => {
  const many = <T>(count: number, value: T) => Array.from({ length: count }, () => value);

  it.each([
    [{ type: 'writeCoil', addr: 0, binary: true }],
    [{ type: 'writeRegister', addr: 65535, value: 65535 }],
    [{ type: 'writeCoils', addr: 10, valueAry: many(1968, false) }],
    [{ type: 'writeRegisters', addr: 10, valueAry: [0, 1, 2] }],
    [{ type: 'readHoldingRegisters', addr: 40000, length: 125 }],
    [{ type: 'readInputRegisters', addr: 65535, length: 1 }],
    [{ type: 'readCoils', addr: 0, length: 2000 }],
    [{ type: 'readDiscreteInputs', addr: 100, length: 1 }],
    [{ type: 'readDeviceIdentification' }],
    [{ type: 'readDeviceIdentification', deviceIdCode: 4, objectId: 5 }],
  ])('accepts %j', (command) => {
    expect(issues(modbusCommandSchema, command).map((issue) => issue.path)).toEqual([]);
  });

  it.each([
    ['an address above 65535', { type: 'writeCoil', addr: 65536, binary: true }, 'addr', 'addr must be less than or equal to 65535'],
    ['a negative address', { type: 'readCoils', addr: -1, length: 1 }, 'addr', 'addr must be greater than or equal to 0'],
    ['a register value above 65535', { type: 'writeRegister', addr: 0, value: 65536 }, 'value', 'value must be less than or equal to 65535'],
    ['1969 coils', { type: 'writeCoils', addr: 0, valueAry: many(1969, true) }, 'valueAry', 'valueAry field must have less than or equal to 1968 items'],
    ['no registers', { type: 'writeRegisters', addr: 0, valueAry: [] }, 'valueAry', 'valueAry field must have at least 1 items'],
    ['a negative register value', { type: 'writeRegisters', addr: 0, valueAry: [-1] }, 'valueAry[0]', 'valueAry[0] must be greater than or equal to 0'],
    ['126 registers', { type: 'readHoldingRegisters', addr: 0, length: 126 }, 'length', 'length must be less than or equal to 125'],
    ['2001 discrete inputs', { type: 'readDiscreteInputs', addr: 0, length: 2001 }, 'length', 'length must be less than or equal to 2000'],
    ['a length of 0', { type: 'readInputRegisters', addr: 0, length: 0 }, 'length', 'length must be greater than or equal to 1'],
    ['a read past the last address', { type: 'readHoldingRegisters', addr: 65535, length: 2 }, 'length', 'length reads past address 65535'],
    ['device id code 5', { type: 'readDeviceIdentification', deviceIdCode: 5 }, 'deviceIdCode', 'deviceIdCode must be one of the following values: 1, 2, 3, 4'],
  ])('refuses %s', (_name, command, path, message) => {
    expect(issues(modbusCommandSchema, command)).toEqual([{ path, message }]);
  });
});

describe('browse-style commands (api.md section 3)', () => {
  it.each([
    [{ type: 'browse' }],
    [{ type: 'browse', itemName: 'WTG01/Production' }],
    [{ type: 'getProperties', names: ['a', 'b'] }],
    [{ type: 'getStatus' }],
    [{ type: 'read', names: ['WTG01/ActivePower'] }],
    [
      {
        type: 'write',
        items: [
          { name: 'a', valueType: 'boolean', value: true },
          { name: 'b', valueType: 'integer', value: 3 },
          { name: 'c', valueType: 'double', value: 1.5 },
          { name: 'd', valueType: 'string', value: 'x' },
        ],
      },
    ],
  ])('accepts %j', (command) => {
    expect(issues(browseCommandSchema, command)).toEqual([]);
  });

  it.each([
    ['repeated property names', { type: 'getProperties', names: ['a', 'a'] }, 'names[1]', 'Properties must be unique'],
    ['a read of nothing', { type: 'read', names: [] }, 'names', 'names field must have at least 1 items'],
    [
      'repeated write names',
      {
        type: 'write',
        items: [
          { name: 'a', valueType: 'boolean', value: true },
          { name: 'a', valueType: 'boolean', value: false },
        ],
      },
      'items[1].name',
      'Properties must be unique',
    ],
    [
      'a value of the wrong type',
      { type: 'write', items: [{ name: 'a', valueType: 'integer', value: 1.5 }] },
      'items[0].value',
      'items[0].value must be a value of type integer',
    ],
    ['a getStatus with fields', { type: 'getStatus', names: ['a'] }, '', 'this object contains unknown properties: names'],
  ])('refuses %s', (_name, command, path, message) => {
    expect(issues(browseCommandSchema, command)).toEqual([{ path, message }]);
  });
});

describe('OSI selectors (device-model.md section 5)', () => {
  it.each([[{ transportSelector: '0001ABcd', sessionSelector: '0123456789abcdef', presentationSelector: '00000001' }], [{}]])('accepts %j', (value) => {
    expect(issues(osiSelectorsSchema, value)).toEqual([]);
  });

  it.each([
    ['a transport selector of 9 characters', { transportSelector: '000000001' }, 'transportSelector', 'transportSelector must be at most 8 characters'],
    ['a session selector of 17 characters', { sessionSelector: '0'.repeat(17) }, 'sessionSelector', 'sessionSelector must be at most 16 characters'],
    [
      'a presentation selector of 17 characters',
      { presentationSelector: 'f'.repeat(17) },
      'presentationSelector',
      'presentationSelector must be at most 16 characters',
    ],
    ['a selector that is not hex', { sessionSelector: '00g1' }, 'sessionSelector', 'sessionSelector must be a hex string'],
  ])('refuses %s', (_name, value, path, message) => {
    expect(issues(osiSelectorsSchema, value)).toEqual([{ path, message }]);
  });
});

describe('cloud-to-device messages (device-model.md section 3.10)', () => {
  it.each([
    [{ type: 'setConfig', config: exampleDeviceConfig }],
    [
      {
        type: 'executeModbusCommand',
        device: { slaveId: 1, communication: { type: 'tcp', ip: '10.0.0.2' } },
        command: { type: 'readCoils', addr: 0, length: 8 },
      },
    ],
    [{ type: 'executeOPCXMLDACommand', connection: { type: 'url', url: 'http://10.0.0.3/opc' }, command: { type: 'getStatus' } }],
    [{ type: 'executeVestasAPCommand', assetIndex: 1, command: { type: 'browse' } }],
    [{ type: 'getMetadata' }],
    [{ type: 'reboot', hard: true }],
    [{ type: 'forceUpdate' }],
    [{ type: 'reprovision' }],
    [{ type: 'debugPing' }],
    [{ type: 'setAssetSchedule', assetIndex: 0, schedule: [item] }],
    [{ type: 'setAssetParameters', assetIndex: 4, parameters: { type: 'hedno', localMode: false } }],
    [{ type: 'getJournal', lines: 500 }],
    [{ type: 'getSignalQuality' }],
    [{ type: 'getRoutingTable' }],
    [{ type: 'scanNetwork' }],
    [{ type: 'openTunnel', tunnelId: 't1', destination: '192.168.10.21:502' }],
    [{ type: 'ack', messageId: 'm1' }],
  ])('accepts %j', (message) => {
    expect(issues(cloudToDeviceMessageSchema, message)).toEqual([]);
  });

  it.each([
    ['a journal of 0 lines', { type: 'getJournal', lines: 0 }, 'lines', 'lines must be greater than or equal to 1'],
    ['a journal of 501 lines', { type: 'getJournal', lines: 501 }, 'lines', 'lines must be less than or equal to 500'],
    ['a reboot with an unknown option', { type: 'reboot', soft: true }, '', 'this object contains unknown properties: soft'],
    ['a tunnel to no port', { type: 'openTunnel', tunnelId: 't', destination: 'host' }, 'destination', 'destination must be host:port'],
    [
      'an unknown message',
      { type: 'selfDestruct' },
      'type',
      expect.stringMatching(/^type must be one of the following values: setConfig, executeModbusCommand, /),
    ],
  ])('refuses %s', (_name, message, path, text) => {
    expect(issues(cloudToDeviceMessageSchema, message)).toEqual([{ path, message: text }]);
  });

  it('defaults a reboot to soft and a journal to 100 lines', () => {
    expect(cloudToDeviceMessageSchema.cast({ type: 'reboot' })).toEqual({ type: 'reboot', hard: false });
    expect(cloudToDeviceMessageSchema.cast({ type: 'getJournal' })).toEqual({ type: 'getJournal', lines: 100 });
  });
});
