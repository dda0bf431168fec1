import { issuesOf } from '../validation';
import { connectionSchema, deviceCommunicationSchema } from './connection';

const issues = issuesOf;

const rs485 = { type: 'rs485', path: '/dev/ttymxc0' };
const tcp = { type: 'tcp', ip: '192.168.1.10' };

describe('connections (api.md sections 3, 5)', () => {
  it.each([
    ['rs485 on each port', { ...rs485, path: '/dev/ttymxc3', baudRate: 115200, dataBits: 5, stopBits: 2, parity: 'space' }],
    ['tcp with shared and rtuOverTcp', { ...tcp, port: 0, shared: true, rtuOverTcp: false }],
    ['tcp on port 65535', { ...tcp, port: 65535 }],
    ['udp', { type: 'udp', ip: '10.0.0.1', port: 5000 }],
    ['url', { type: 'url', url: 'https://10.0.0.2/opc' }],
    ['none', { type: 'none' }],
    ['multiple', { type: 'multiple', default: tcp, connections: { bms: rs485 } }],
  ])('accepts %s', (_name, value) => {
    expect(issues(connectionSchema, value)).toEqual([]);
  });

  it.each([
    ['an unknown type', { type: 'can' }, 'type', 'type must be one of the following values: rs485, tcp, udp, url, none, multiple'],
    [
      'an rs485 path not of the gateway',
      { ...rs485, path: '/dev/ttymxc2' },
      'path',
      'path must be one of the following values: /dev/ttymxc0, /dev/ttymxc1, /dev/ttymxc3',
    ],
    [
      'a baud rate not in the list',
      { ...rs485, baudRate: 9601 },
      'baudRate',
      'baudRate must be one of the following values: 1200, 2400, 4800, 9600, 14400, 19200, 28800, 38400, 57600, 76800, 115200',
    ],
    ['4 data bits', { ...rs485, dataBits: 4 }, 'dataBits', 'dataBits must be greater than or equal to 5'],
    ['9 data bits', { ...rs485, dataBits: 9 }, 'dataBits', 'dataBits must be less than or equal to 8'],
    ['3 stop bits', { ...rs485, stopBits: 3 }, 'stopBits', 'stopBits must be one of the following values: 1, 2'],
    ['an unknown parity', { ...rs485, parity: 'high' }, 'parity', 'parity must be one of the following values: none, even, mark, odd, space'],
    ['an IPv6 address', { ...tcp, ip: '::1' }, 'ip', 'ip must be an IPv4 address'],
    ['an octet above 255', { ...tcp, ip: '192.168.1.256' }, 'ip', 'ip must be an IPv4 address'],
    ['port 65536', { ...tcp, port: 65536 }, 'port', 'port must be less than or equal to 65535'],
    ['a negative port', { type: 'udp', ip: '10.0.0.1', port: -1 }, 'port', 'port must be greater than or equal to 0'],
    ['a url that is no http url', { type: 'url', url: 'ftp://x' }, 'url', 'url must be an http or https URL'],
    ['fields on none', { type: 'none', ip: '10.0.0.1' }, '', 'this object contains unknown properties: ip'],
    ['multiple without extra connections', { type: 'multiple', default: tcp, connections: {} }, 'connections', 'Record must contain at least 1 element'],
    [
      'multiple nested in multiple',
      { type: 'multiple', default: { type: 'multiple' }, connections: { a: tcp } },
      'default.type',
      'default.type must be one of the following values: rs485, tcp, udp, url, none',
    ],
  ])('refuses %s', (_name, value, path, message) => {
    expect(issues(connectionSchema, value)).toEqual([{ path, message }]);
  });

  it('defaults rs485 to 9600 8N1, buffered, terminated; tcp and udp to port 502', () => {
    expect(connectionSchema.cast(rs485)).toEqual({
      ...rs485,
      baudRate: 9600,
      dataBits: 8,
      stopBits: 1,
      parity: 'none',
      buffered: true,
      enableTermination: true,
    });
    expect(connectionSchema.cast(tcp)).toEqual({ ...tcp, port: 502 });
  });
});

describe('device communication settings (api.md sections 3, 5)', () => {
  it.each([
    ['one slave id', { slaveId: 0, communication: tcp }],
    ['a list of slave ids', { slaveId: [1, 255], communication: rs485 }],
    ['no slave id', { identifier: 'inverter', retries: 3, timeout: 1, pollDelay: 0, turnaroundDelay: 50, debugEnable: true, communication: tcp }],
  ])('accepts %s', (_name, value) => {
    expect(issues(deviceCommunicationSchema, value)).toEqual([]);
  });

  it.each([
    ['an empty slave id list', { slaveId: [], communication: tcp }, 'slaveId', 'slaveId field must have at least 1 items'],
    ['slave id 256', { slaveId: 256, communication: tcp }, 'slaveId', 'slaveId must be less than or equal to 255'],
    ['slave id 256 in a list', { slaveId: [1, 256], communication: tcp }, 'slaveId[1]', 'slaveId[1] must be less than or equal to 255'],
    ['a timeout of 0', { timeout: 0, communication: tcp }, 'timeout', 'timeout must be a positive number'],
    ['negative retries', { retries: -1, communication: tcp }, 'retries', 'retries must be greater than or equal to 0'],
    ['a fractional poll delay', { pollDelay: 1.5, communication: tcp }, 'pollDelay', 'pollDelay must be an integer'],
    [
      'a udp link',
      { communication: { type: 'udp', ip: '10.0.0.1' } },
      'communication.type',
      'communication.type must be one of the following values: tcp, rs485',
    ],
  ])('refuses %s', (_name, value, path, message) => {
    expect(issues(deviceCommunicationSchema, value)).toEqual([{ path, message }]);
  });

  it('defaults the timeout to 1000 ms', () => {
    expect(deviceCommunicationSchema.cast({ communication: tcp })).toEqual({
      communication: { ...tcp, port: 502 },
      retries: 0,
      timeout: 1000,
      pollDelay: 0,
      turnaroundDelay: 0,
      debugEnable: false,
    });
  });
});
