import { parseDeviceConfig } from '../../contracts/device/config';
import { connectionSchema, type Connection } from '../../contracts/device/connection';
import { ModbusLinkPool } from '../modbus/link-pool';
import { startModbusSimulator, type ModbusSimulator } from '../simulators/modbus-simulator';
import { Battery, Site } from '../simulators/plant';
import { ManualClock } from './clock';
import { carries, connectionNamed, connectionRefusal, urlOf } from './connections';
import { defaultAgentParts } from './parts';
import { Reporter } from './reporter';
import { buildAssets } from './runtime';

const connection = (value: unknown) => connectionSchema.validateSync(value) as Connection;
const tcp = { type: 'tcp', ip: '192.168.1.20', port: 502 };
const web = { type: 'url', url: 'http://192.168.1.30/opc' };

describe('the connection types of an asset', () => {
  it('a multiple connection gives its default, or the connection a name asks for', () => {
    const multiple = connection({ type: 'multiple', default: tcp, connections: { opc: web, bms: { type: 'udp', ip: '192.168.1.21' } } });
    expect(connectionNamed(multiple)).toEqual(tcp);
    expect(connectionNamed(multiple, 'bms')).toEqual({ type: 'udp', ip: '192.168.1.21', port: 502 });
    expect(connectionNamed(multiple, 'nothing')).toEqual(tcp);
    expect([carries(multiple, 'modbus'), carries(multiple, 'http'), carries(multiple, 'http', 'opc')]).toEqual([true, false, true]);
    expect(connectionNamed(connection(web), 'opc')).toEqual(web);
  });

  it('the url of an asset: of a url connection, of a multiple one its default or its one named url', () => {
    expect(urlOf(connection(web))).toBe(web.url);
    expect(urlOf(connection({ type: 'multiple', default: web, connections: { modbus: tcp } }))).toBe(web.url);
    expect(urlOf(connection({ type: 'multiple', default: tcp, connections: { opc: web } }))).toBe(web.url);
    // Two named urls and neither the default: the agent cannot tell which one.
    expect(urlOf(connection({ type: 'multiple', default: tcp, connections: { a: web, b: { type: 'url', url: 'http://192.168.1.31/' } } }))).toBeNull();
    expect([urlOf(connection(tcp)), urlOf(connection({ type: 'none' }))]).toEqual([null, null]);
  });
});

describe('assets on the connection types, as the agent builds them', () => {
  let simulator: ModbusSimulator;
  let site: Site;
  let battery: Battery;
  const links = new ModbusLinkPool();

  beforeAll(async () => {
    site = new Site({ seed: 3, start: Date.parse('2026-06-21T11:00:00Z') });
    battery = site.add(new Battery({ capacityWh: 10_000, stateOfCharge: 60, maxChargePower: 5000, maxDischargePower: 5000, powerResponseMs: 0 }));
    battery.setpoint = 1500;
    site.step(1);
    simulator = await startModbusSimulator(site, { units: [{ slaveId: 4, type: 'demo-battery', target: battery }] });
  });

  afterAll(async () => {
    await links.close();
    await simulator.close();
  });

  it('a Modbus asset on a url is refused with unsupported_connection; on a multiple connection it polls its default; Vestas AP needs a url', async () => {
    const config = parseDeviceConfig({
      network: { eth0: { type: 'dhcp' }, eth1: null },
      reportingIntervalInSec: 60,
      assets: [
        { type: 'janitza', identifier: 'meter', communication: web, slaveId: 1 },
        {
          type: 'demo-battery',
          identifier: 'battery',
          slaveId: 4,
          communication: { type: 'multiple', default: simulator.connection(), connections: { web } },
        },
        { type: 'vestas-ap', identifier: 'park', communication: tcp },
        { type: 'vestas-ap', identifier: 'park-2', communication: { type: 'multiple', default: tcp, connections: { opc: web } } },
      ],
    });
    expect(config.assets.map(connectionRefusal)).toEqual([
      'a url connection carries no Modbus, which its driver speaks',
      null,
      'a tcp connection has no url to reach it at',
      null,
    ]);
    const clock = new ManualClock(Date.parse('2026-06-21T11:00:00Z'));
    const reporter = new Reporter(
      clock,
      () => undefined,
      () => null,
    );
    const built = buildAssets(config, links, defaultAgentParts, () => undefined, reporter);
    expect(built.drivers.map((driver) => driver !== undefined)).toEqual([false, true, false, false]);
    expect(built.unsupported.map((report) => [report.type, 'asset' in report ? report.asset : null, report.observations])).toEqual([
      [
        'error',
        0,
        { code: 'unsupported_connection', message: 'asset 0 (janitza): a url connection carries no Modbus, which its driver speaks; it is not read' },
      ],
      ['error', 2, { code: 'unsupported_connection', message: 'asset 2 (vestas-ap): a tcp connection has no url to reach it at; it is not read' }],
      ['error', 3, { code: 'unsupported_asset_type', message: 'asset 3 (vestas-ap): no driver for this asset type; it is not read' }],
    ]);
    const state = await built.drivers[1]?.poll();
    expect(state).toMatchObject({ readable: true, activePower: 1500, stateOfCharge: Math.round(battery.stateOfCharge * 100) / 100 });
    expect(simulator.reads(4)).toBeGreaterThan(0);
  });
});
