import * as yup from 'yup';
import { assetCategories, categoryOfType } from './asset-types';
import { configIssues, parseDeviceConfig } from './config';
import { controlLoopTypes, modbusPortsUniqueMessage } from './control-loops';
import { exampleDeviceConfig } from './examples';
import { validationMessages } from './time-window';

const minimal = { network: {}, assets: [{ type: 'demo-meter', communication: { type: 'none' } }], reportingIntervalInSec: 60 };

function withChange(change: Record<string, unknown>): unknown {
  return { ...minimal, ...change };
}

describe('the example config (device-model.md section 3)', () => {
  it('is accepted', () => {
    expect(configIssues(exampleDeviceConfig)).toEqual([]);
  });

  it('holds an asset of every category, an ev-group, a solar-group and a loop of each of the 18 types', () => {
    const types = exampleDeviceConfig.assets.map((asset) => asset.type);
    expect(new Set(types.map((type) => categoryOfType(type)))).toEqual(new Set(assetCategories));
    expect(types).toEqual(expect.arrayContaining(['ev-group', 'solar-group']));
    expect(exampleDeviceConfig.activeControl.map((loop) => loop.type).sort()).toEqual([...controlLoopTypes].sort());
  });

  it('is parsed with every default applied', () => {
    const config = parseDeviceConfig(exampleDeviceConfig);
    const asset = (index: number) => config.assets[index] as Record<string, unknown>;
    const loop = (type: string) => config.activeControl.find((candidate) => candidate.type === type) as Record<string, unknown>;

    expect(config.assets.every((candidate) => candidate.timeout === 500)).toBe(true);
    expect(config.activeControl.every((candidate) => candidate.controlLoopSleep === 0.1)).toBe(true);
    expect(asset(8)).toMatchObject({ type: 'abl', pointCount: 2, nominalPhaseVoltage: 230 });
    expect(asset(12)).toMatchObject({
      type: 'ev-group',
      nominalPhaseVoltage: 230,
      assetConnectors: [
        { type: 'demo-ev', pointCount: 8, timeout: 500 },
        { type: 'alpitronic', pointCount: 4, timeout: 500 },
      ],
    });
    expect(asset(14)).toMatchObject({ type: 'gotion', containerCount: 19 });
    expect(asset(1)).toMatchObject({ type: 'vestas-ap', readAlarms: true, readTimeout: 4, writeTimeout: 4 });
    expect(asset(2)).toMatchObject({ type: 'janitza', invertCurrent: false });
    expect(asset(4)).toMatchObject({ communication: { type: 'rs485', buffered: true, enableTermination: true, dataBits: 8, stopBits: 1 } });
    expect(asset(0)).toMatchObject({ communication: { type: 'tcp', port: 502 }, fallbackLimit: { onlyInOptimizer: false, activePowerPercentage: 50 } });
    expect(loop('optimizer')).toMatchObject({ basePower: 100000, solverOptions: { solver: 'simplex', timeLimit: 10, tolerance: 1e-7 } });
    expect(loop('modbusServer')).toMatchObject({ heartbeatTimeout: 60 });
    expect(loop('realTimeInterface')).toMatchObject({ reportingInterval: 60 });
    expect(loop('batteryPeakShaver')).toMatchObject({ evAssetControlLoopSleep: 5000 });
    expect(loop('batteryPowerLimiter')).toMatchObject({ limitSchedule: [{ weekdays: [0, 1, 2, 3, 4] }, { weekdays: [0, 1, 2, 3, 4, 5, 6] }] });
    expect(config.network).toMatchObject({ dns: { ignoreAuto: false }, routeData: [{ prefix: 16 }, { prefix: 32 }] });
    expect(config.vpn).toMatchObject({ port: 1194 });
  });

  it('gives types that narrow by type', () => {
    const config = parseDeviceConfig(exampleDeviceConfig);
    expect(config.assets.flatMap((asset) => (asset.type === 'abl' ? [asset.pointCount] : []))).toEqual([2]);
    expect(config.activeControl.flatMap((loop) => (loop.type === 'optimizer' ? [loop.basePower, loop.topology.children.length] : []))).toEqual([100000, 1]);
    expect(config.network.eth0?.type === 'static' ? config.network.eth0.routingPrefix : undefined).toBe(24);
  });

  it('does not change the example', () => {
    const before = JSON.stringify(exampleDeviceConfig);
    parseDeviceConfig(exampleDeviceConfig);
    expect(JSON.stringify(exampleDeviceConfig)).toBe(before);
  });
});

describe('config fields (device-model.md sections 3.1, 5, 9)', () => {
  it('defaults activeControl to an empty list', () => {
    expect(parseDeviceConfig(minimal).activeControl).toEqual([]);
  });

  it.each([
    ['a reporting interval of 4 s', { reportingIntervalInSec: 4 }],
    ['a keep-alive of 5 s', { cloudKeepAliveIntervalInSec: 5 }],
    ['a keep-alive of 60 s', { cloudKeepAliveIntervalInSec: 60 }],
    ['a maintenance window', { maintenanceWindow: { start: '01:00', end: '03:30' } }],
    ['interfaces off, by DHCP and static without gateway', { network: { eth0: null, eth1: { type: 'static', ip: '10.1.1.2', routingPrefix: 0 } } }],
    [
      'a static interface with prefix 32',
      { network: { eth0: { type: 'static', ip: '10.1.1.2', routingPrefix: 32, gateway: '10.1.1.1' }, eth1: { type: 'dhcp' } } },
    ],
    [
      'cellular without route metric and dns',
      { network: { cellular: { apn: 'm2m' }, dns: { servers: ['8.8.8.8'], ignoreAuto: true, priority: -10 }, routeMetric: 0 } },
    ],
    [
      'a vpn with plain secrets and tls-crypt',
      { vpn: { host: 'vpn.example', port: 443, credentials: { ca: 'ca', cert: 'cert', key: 'key', tlsCrypt: 'tc' } } },
    ],
    ['a vpn with an encrypted key', { vpn: { host: 'vpn.example', credentials: { ca: 'ca', cert: 'cert', key: { iv: 'a', encryptedData: 'b', tag: 'c' } } } }],
  ])('accepts %s', (_name, change) => {
    expect(configIssues(withChange(change))).toEqual([]);
  });

  it.each([
    ['a reporting interval of 3.9 s', { reportingIntervalInSec: 3.9 }, 'reportingIntervalInSec', 'reportingIntervalInSec must be greater than or equal to 4'],
    ['no reporting interval', { reportingIntervalInSec: undefined }, 'reportingIntervalInSec', 'reportingIntervalInSec is a required field'],
    [
      'a keep-alive of 4 s',
      { cloudKeepAliveIntervalInSec: 4 },
      'cloudKeepAliveIntervalInSec',
      'cloudKeepAliveIntervalInSec must be greater than or equal to 5',
    ],
    [
      'a keep-alive of 61 s',
      { cloudKeepAliveIntervalInSec: 61 },
      'cloudKeepAliveIntervalInSec',
      'cloudKeepAliveIntervalInSec must be less than or equal to 60',
    ],
    ['an overnight maintenance window', { maintenanceWindow: { start: '23:00', end: '01:00' } }, 'maintenanceWindow.end', validationMessages.invalidTimeWindow],
    [
      'a maintenance window not in hh:mm',
      { maintenanceWindow: { start: '1:00', end: '03:00' } },
      'maintenanceWindow.start',
      'maintenanceWindow.start must be a time of day hh:mm (24-hour)',
    ],
    ['no network', { network: undefined }, 'network', 'network is a required field'],
    [
      'a routing prefix of 33',
      { network: { eth0: { type: 'static', ip: '10.1.1.2', routingPrefix: 33 } } },
      'network.eth0.routingPrefix',
      'network.eth0.routingPrefix must be less than or equal to 32',
    ],
    [
      'an interface of unknown type',
      { network: { eth1: { type: 'bootp' } } },
      'network.eth1.type',
      'network.eth1.type must be one of the following values: dhcp, static',
    ],
    [
      'a DHCP interface with an address',
      { network: { eth1: { type: 'dhcp', ip: '10.0.0.1' } } },
      'network.eth1',
      'network.eth1 object contains unknown properties: ip',
    ],
    ['cellular without an apn', { network: { cellular: {} } }, 'network.cellular.apn', 'network.cellular.apn is a required field'],
    [
      'a dns server that is no IPv4 address',
      { network: { dns: { servers: ['dns.google'] } } },
      'network.dns.servers[0]',
      'network.dns.servers[0] must be an IPv4 address',
    ],
    [
      'a route prefix of 33',
      { network: { routeData: [{ dest: '10.0.0.0', prefix: 33, nextHop: '10.0.0.1' }] } },
      'network.routeData[0].prefix',
      'network.routeData[0].prefix must be less than or equal to 32',
    ],
    [
      'a route without next hop',
      { network: { routeData: [{ dest: '10.0.0.0' }] } },
      'network.routeData[0].nextHop',
      'network.routeData[0].nextHop is a required field',
    ],
    ['a vpn without credentials', { vpn: { host: 'vpn.example' } }, 'vpn.credentials', 'vpn.credentials is a required field'],
    [
      'an encrypted secret without tag',
      { vpn: { host: 'h', credentials: { ca: 'ca', cert: 'c', key: { iv: 'a', encryptedData: 'b' } } } },
      'vpn.credentials.key.tag',
      'vpn.credentials.key.tag is a required field',
    ],
    ['an empty secret', { vpn: { host: 'h', credentials: { ca: '', cert: 'c', key: 'k' } } }, 'vpn.credentials.ca', 'vpn.credentials.ca is a required field'],
    [
      'a vpn host that would start another openvpn directive',
      { vpn: { host: 'vpn.example 1194\nup /bin/sh', credentials: { ca: 'ca', cert: 'c', key: 'k' } } },
      'vpn.host',
      'vpn.host must be a host name or an IP address',
    ],
    ['an unknown top-level field', { version: 3 }, '', 'this object contains unknown properties: version'],
  ])('refuses %s', (_name, change, path, message) => {
    expect(configIssues(withChange(change))).toEqual([{ path, message }]);
  });
});

describe('cross-field rules of the config (device-model.md section 5)', () => {
  const meter = { type: 'demo-meter', communication: { type: 'none' } };
  const solar = { type: 'demo-solar', communication: { type: 'none' } };
  const sensor = { type: 'demo-irradiance-sensor', communication: { type: 'none' } };
  const limiter = { type: 'powerLimiter', meterAssetIndex: 0, primaryLimitableAssetIndices: [1], contractualLimit: { consumption: 1, feedIn: 1 } };

  it.each([
    ['identifiers that differ', { assets: [{ ...meter, identifier: 'a' }, { ...solar, identifier: 'b' }, solar, solar] }],
    ['a loop sharing an identifier with an asset', { assets: [{ ...meter, identifier: 'a' }, solar], activeControl: [{ ...limiter, identifier: 'a' }] }],
    [
      'a solar asset metered by a meter, sensed by a sensor',
      { assets: [meter, { ...solar, powerMeterAssetIndex: 0, environmentalSensors: [{ kind: 'irradiance', assetIndex: 2 }] }, sensor] },
    ],
    [
      'loops and a topology naming existing assets',
      {
        assets: [meter, solar],
        activeControl: [
          limiter,
          { type: 'optimizer', topology: { name: 's', assets: { controllable: [1], powerMeterable: [{ assetIndex: 0, meter: 'net' }] } } },
        ],
      },
    ],
  ])('accepts %s', (_name, change) => {
    expect(configIssues(withChange(change))).toEqual([]);
  });

  it.each([
    [
      'a repeated asset identifier',
      { assets: [{ ...meter, identifier: 'a' }, solar, { ...solar, identifier: 'a' }] },
      'assets[2].identifier',
      validationMessages.idsUnique,
    ],
    [
      'a repeated loop identifier',
      {
        assets: [meter, solar],
        activeControl: [
          { ...limiter, identifier: 'x' },
          { ...limiter, identifier: 'x' },
        ],
      },
      'activeControl[1].identifier',
      validationMessages.idsUnique,
    ],
    [
      'a real-time interface on the Modbus server port (both default 502)',
      {
        assets: [meter, solar],
        activeControl: [
          { type: 'modbusServer', assetIndices: [0] },
          { type: 'realTimeInterface', meterAssetIndex: 0 },
        ],
      },
      'activeControl[1].port',
      modbusPortsUniqueMessage,
    ],
    [
      'a loop naming a missing meter',
      { assets: [meter, solar], activeControl: [{ ...limiter, meterAssetIndex: 2 }] },
      'activeControl[0].meterAssetIndex',
      'activeControl[0].meterAssetIndex must be the index of an asset in assets',
    ],
    [
      'a loop naming a missing asset in a list',
      { assets: [meter, solar], activeControl: [{ ...limiter, primaryLimitableAssetIndices: [1, 5] }] },
      'activeControl[0].primaryLimitableAssetIndices[1]',
      'activeControl[0].primaryLimitableAssetIndices[1] must be the index of an asset in assets',
    ],
    [
      'a modbus server naming a missing asset',
      { assets: [meter], activeControl: [{ type: 'modbusServer', assetIndices: [1] }] },
      'activeControl[0].assetIndices[0]',
      'activeControl[0].assetIndices[0] must be the index of an asset in assets',
    ],
    [
      'a topology naming a missing asset',
      {
        assets: [meter],
        activeControl: [
          { type: 'optimizer', topology: { name: 's', children: [{ name: 'c', assets: { powerMeterable: [{ assetIndex: 3, meter: 'net' }] } }] } },
        ],
      },
      'activeControl[0].topology.children[0].assets.powerMeterable[0].assetIndex',
      'activeControl[0].topology.children[0].assets.powerMeterable[0].assetIndex must be the index of an asset in assets',
    ],
    [
      'a power meter that is no meter',
      { assets: [meter, { ...solar, powerMeterAssetIndex: 1 }] },
      'assets[1].powerMeterAssetIndex',
      'assets[1].powerMeterAssetIndex must be the index of a meter asset',
    ],
    [
      'an irradiance sensor that is a meter',
      { assets: [meter, { ...solar, environmentalSensors: [{ kind: 'irradiance', assetIndex: 0 }] }] },
      'assets[1].environmentalSensors[0].assetIndex',
      'assets[1].environmentalSensors[0].assetIndex must be the index of a irradianceSensor asset',
    ],
  ])('refuses %s', (_name, change, path, message) => {
    expect(configIssues(withChange(change))).toEqual([{ path, message }]);
  });
});

describe('configIssues and parseDeviceConfig', () => {
  it('lists every issue at once', () => {
    expect(configIssues({ network: {}, assets: [{ type: 'toaster' }], reportingIntervalInSec: 1 })).toEqual([
      { path: 'assets[0].type', message: 'assets[0].type must be a known asset type' },
      { path: 'reportingIntervalInSec', message: 'reportingIntervalInSec must be greater than or equal to 4' },
    ]);
  });

  it('refuses what is no object', () => {
    expect(configIssues('config')).toEqual([{ path: '', message: expect.stringContaining('must be a `object` type') }]);
  });

  it('throws the yup error for an invalid config', () => {
    expect(() => parseDeviceConfig({ ...minimal, reportingIntervalInSec: 1 })).toThrow(yup.ValidationError);
  });

  it('validates a config of 150 assets quickly', () => {
    const copies = Array.from({ length: 134 }, (_value, index) => ({ ...exampleDeviceConfig.assets[2 + (index % 10)], identifier: `copy-${index}` }));
    const config = { ...exampleDeviceConfig, assets: [...exampleDeviceConfig.assets, ...copies] };
    const started = process.hrtime.bigint();
    expect(configIssues(config)).toEqual([]);
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    expect(elapsedMs).toBeLessThan(1000);
  });
});
