import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configIssues, parseDeviceConfig, type DeviceConfig } from '../../contracts/device/config';
import type { ControlLoop as ControlLoopConfig } from '../../contracts/device/control-loops';
import type { DeviceReport } from '../../contracts/hub/reports';
import type { ControlLoop, LoopStep, SiteSnapshot } from '../control/loop';
import { channels } from '../../graph/common/pubsub';
import { systemActor } from '../../graph/common/context';
import { Battery, Site } from '../simulators/plant';
import { plantDriverFactory } from '../simulators/plant-drivers';
import { startOpcXmlDaServer } from '../simulators/opc-xml-da-server';
import { anOrganization, buildDevice } from '../../test-support/factories';
import { testApp, type TestApp } from '../../test-support/app';
import { agentExitCodes, stateFiles, type Agent } from './agent';
import { ManualClock } from './clock';
import type { AgentParts } from './parts';
import { runEdgeCommand, startEdgeAgent } from './run';
import type { SystemProbes } from './system';
import { startRegisterServer, type RegisterServer } from '../../test-support/modbus-peers/register-server';
import { itWithPeers } from '../../test-support/services';

/** The test site: a grid meter with flash reports every second, a battery, a peak shaver, and a loop this agent has no implementation of. */
const siteConfig = {
  network: { eth0: { type: 'dhcp' }, eth1: null },
  reportingIntervalInSec: 5,
  cloudKeepAliveIntervalInSec: 30,
  assets: [
    { type: 'demo-meter', identifier: 'grid', communication: { type: 'none' }, enableFlashReport: { reportingInterval: 1 } },
    { type: 'demo-battery', identifier: 'battery', communication: { type: 'none' }, nominalActivePower: 50000, noFlashReport: true },
  ],
  activeControl: [
    {
      type: 'proportionalPeakShaver',
      identifier: 'peak-shaver',
      meterAssetIndex: 0,
      batteryAssetIndices: [1],
      activePowerLimit: 40000,
      controlLoopSleep: 1,
      reportingInterval: 10,
    },
    {
      type: 'batteryPowerLimiter',
      identifier: 'battery-limiter',
      meterAssetIndex: 0,
      batteryAssetIndices: [1],
      contractualLimit: { consumption: 60000, feedIn: 60000 },
    },
  ],
};

/** A loop for the test: discharges the battery by what the meter imports above 40 kW, and counts its steps. */
class TestPeakShaver implements ControlLoop {
  readonly type = 'proportionalPeakShaver' as const;
  readonly sleepSeconds: number;
  steps = 0;
  private monitored: number | null = null;

  constructor(
    readonly index: number,
    readonly config: ControlLoopConfig,
  ) {
    this.sleepSeconds = config.controlLoopSleep;
  }

  step(site: SiteSnapshot): LoopStep {
    this.steps += 1;
    this.monitored = site.assets[0]?.activePower ?? null;
    return { setpoints: new Map([[1, this.monitored !== null && this.monitored > 40000 ? this.monitored - 40000 : null]]) };
  }

  statusReport(at: Date): DeviceReport {
    return {
      type: 'proportionalPeakShaverStatus',
      at: at.toISOString(),
      controller: this.index,
      observations: { state: 'active', monitoredPower: this.monitored, consumptionLimit: 40000 },
    };
  }

  drainReports(): DeviceReport[] {
    return [];
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A TCP proxy between agent and hub that a test can cut: every connection is dropped and new ones refused until restored. */
class CuttableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private cut = false;

  constructor(private readonly targetPort: number) {}

  async start(): Promise<string> {
    const server = createServer((client) => {
      if (this.cut) {
        client.destroy();
        return;
      }
      const upstream = connect(this.targetPort, '127.0.0.1');
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.sockets.add(from);
        from.pipe(to);
        from.on('error', () => to.destroy());
        from.on('close', () => {
          this.sockets.delete(from);
          to.destroy();
        });
      }
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  sever(): void {
    this.cut = true;
    for (const socket of this.sockets) {
      socket.destroy();
    }
  }

  restore(): void {
    this.cut = false;
  }

  async close(): Promise<void> {
    this.sever();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

interface StoredRow {
  type: string;
  at: Date;
  asset_index: number | null;
  controller_index: number | null;
  body: { observations: Record<string, unknown> };
}

jest.setTimeout(60_000);

describe('the edge agent against the real hub', () => {
  let t: TestApp;
  let baseUrl: string;
  let hubPort: number;
  let folder: string;
  let organizationHashId: string;
  let ops: string;
  let sites = 0;
  const agents: Agent[] = [];
  const proxies: CuttableProxy[] = [];

  beforeAll(async () => {
    t = await testApp({}, { hub: true });
    baseUrl = await t.listen();
    hubPort = Number(new URL(baseUrl).port);
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-edge-'));
    writeFileSync(
      path.join(folder, 'route'),
      'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\neth0\t00000000\t010AA8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n',
    );
    writeFileSync(
      path.join(folder, 'arp'),
      'IP address       HW type     Flags       HW address            Mask     Device\n192.168.10.21    0x1         0x2         aa:bb:cc:00:11:23     *        eth0\n',
    );
    organizationHashId = (await anOrganization(t.services, { name: 'Edge Test BV' })).hashId;
    ops = await t.signIn(['gridport.ops']);
    // Setting up the server and its database is the slow part on a busy machine.
  }, 120_000);

  afterAll(async () => {
    for (const agent of agents) {
      await agent.stop();
    }
    for (const proxy of proxies) {
      await proxy.close();
    }
    await t?.close();
    rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  const rows = (deviceId: number, since = new Date(0)): Promise<StoredRow[]> =>
    t.database
      .db('device_reports')
      .where('device_id', deviceId)
      .where('at', '>=', since)
      .orderBy([{ column: 'at' }, { column: 'type' }]) as Promise<StoredRow[]>;

  /** Reads until `done` holds (the hub stores asynchronously); fails with the last value read after a few seconds. */
  async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 8000): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > until) {
        return value;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const answers = async (deviceId: number, messageId: string, count = 1): Promise<StoredRow[]> => {
    const found = await eventually(
      () => rows(deviceId),
      (all) => all.filter((row) => row.body.observations.messageId === messageId).length >= count,
    );
    return found.filter((row) => row.body.observations.messageId === messageId);
  };

  async function send(hashId: string, message: Record<string, unknown>): Promise<string> {
    const response = await t.call('POST', `/console-admin/v1/device/${hashId}/send-message`, ops, { message });
    expect(response.statusCode).toBe(201);
    return (response.json() as { messageId: string }).messageId;
  }

  interface TestSite {
    agent: Agent;
    clock: ManualClock;
    site: Site;
    deviceId: number;
    hashId: string;
    directory: string;
    identifier: string;
    exits: number[];
    loops: TestPeakShaver[];
    proxy: CuttableProxy | null;
    start: (token?: string) => Promise<Agent>;
    /** Moves the site and the agent on, a second at a time. */
    run: (seconds: number) => Promise<void>;
  }

  /** A shipped gateway whose agent provisions through the proxy (when asked) and runs the test site's plant. */
  async function aSite({
    proxy = false,
    maxStoreBytes,
    system = {},
  }: { proxy?: boolean; maxStoreBytes?: number; system?: Partial<SystemProbes> } = {}): Promise<TestSite & { token: string }> {
    sites += 1;
    const identifier = `gw-edge-${sites}`;
    const { hashId, id, provisioningToken } = await buildDevice(t.services, { organizationHashId, name: `Edge site ${sites}` });
    const cuttable = proxy ? new CuttableProxy(hubPort) : null;
    if (cuttable) {
      proxies.push(cuttable);
    }
    const hub = cuttable ? await cuttable.start() : baseUrl;
    // Yesterday at 10:00 UTC: daylight on the simulated site, and within the hub's window of plausible report times.
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000);
    const clock = new ManualClock(Date.UTC(yesterday.getUTCFullYear(), yesterday.getUTCMonth(), yesterday.getUTCDate(), 10, 0, 0));
    const site = new Site({ seed: sites, start: clock.now() });
    const battery = site.add(new Battery({ capacityWh: 100000, maxChargePower: 50000, maxDischargePower: 50000 }));
    const plant = plantDriverFactory(site, [site.meter, battery]);
    const loops: TestPeakShaver[] = [];
    const parts: Partial<AgentParts> = {
      createDriver: plant,
      createControlLoop: (index, config) => {
        if (config.type !== 'proportionalPeakShaver') {
          return null;
        }
        const loop = new TestPeakShaver(index, config);
        loops.push(loop);
        return loop;
      },
    };
    const directory = path.join(folder, identifier);
    const exits: number[] = [];
    const testSite: TestSite & { token: string } = {
      agent: undefined as unknown as Agent,
      clock,
      site,
      deviceId: id,
      hashId,
      directory,
      identifier,
      exits,
      loops,
      proxy: cuttable,
      token: provisioningToken,
      start: async (token) => {
        const agent = await startEdgeAgent(
          {
            hub,
            token,
            identifier,
            stateDirectory: directory,
            clock,
            parts,
            minBackoffMs: 20,
            maxBackoffMs: 100,
            maxStoreBytes,
            system: {
              ipv4RouteFile: path.join(folder, 'route'),
              ipv6RouteFile: path.join(folder, 'ipv6_route'),
              arpFile: path.join(folder, 'arp'),
              run: () => Promise.reject(new Error('spawn mmcli ENOENT')),
              scanNetworks: () => [],
              ...system,
            },
          },
          (code) => void exits.push(code),
        );
        agents.push(agent);
        testSite.agent = agent;
        await agent.gateway.connected();
        return agent;
      },
      run: async (seconds) => {
        for (let second = 0; second < seconds; second += 1) {
          site.step(1);
          await clock.advance(1000);
        }
      },
    };
    await testSite.start(provisioningToken);
    return testSite;
  }

  /** Sets the site's config through the console, as an operator would; resolves with the config report's message id. */
  async function configure(site: TestSite): Promise<void> {
    const response = await t.call('PUT', `/console-admin/v1/device/${site.hashId}`, ops, { config: siteConfig });
    expect(response.statusCode).toBe(200);
    await eventually(
      () => rows(site.deviceId),
      // The ack and the config report travel in separate messages: both stored before the test reads on.
      (all) =>
        all.some((row) => row.type === 'config' && row.body.observations.source === 'cloud') &&
        all.some((row) => row.type === 'ack' && row.body.observations.messageType === 'setConfig'),
    );
  }

  it('provisions at the first start and reports the default config; runs the cloud config and reports on interval; a later start reuses its identity and reports the stored config', async () => {
    const site = await aSite();
    expect(statSync(path.join(site.directory, stateFiles.identity, 'key.pem')).mode & 0o777).toBe(0o600);
    const first = await eventually(
      () => rows(site.deviceId),
      (all) => all.length >= 1,
    );
    expect(first.map((row) => [row.type, row.body.observations.source])).toEqual([['config', 'default']]);

    await configure(site);
    const applied = (
      await eventually(
        () => rows(site.deviceId),
        (all) => all.some((row) => row.type === 'error'),
      )
    ).filter((row) => row.type !== 'config' || row.body.observations.source !== 'default');
    // All three at the same instant of agent time (stored in type order).
    expect(applied.map((row) => [row.type, row.body.observations.code ?? row.body.observations.source ?? row.body.observations.messageType])).toEqual([
      ['ack', 'setConfig'],
      ['config', 'cloud'],
      ['error', 'unsupported_control_loop'],
    ]);
    expect(applied[2]?.body.observations.message).toBe('control loop 1 (batteryPowerLimiter): not built on this agent; it does not run');
    const parsed = JSON.parse(JSON.stringify(parseDeviceConfig(structuredClone(siteConfig)))) as DeviceConfig;
    expect(applied[1]?.body.observations.config).toEqual(parsed);
    expect(applied[1]?.body.observations.messageId).toBe(applied[0]?.body.observations.messageId);
    expect(JSON.parse(readFileSync(path.join(site.directory, stateFiles.config), 'utf8'))).toEqual(parsed);

    // 20 s of agent time: reports at 0, 5, 10, 15 and 20 s; flash every second; the loop's status every 10 s.
    const start = new Date(site.clock.now());
    await site.run(20);
    await site.agent.gateway.drained();
    const reports = await rows(site.deviceId, start);
    const count = (type: string) => reports.filter((row) => row.type === type).length;
    expect([count('meterPower'), count('batteryPower'), count('meterPower.flash'), count('proportionalPeakShaverStatus')]).toEqual([5, 5, 21, 3]);
    expect(reports.filter((row) => row.type === 'meterPower').map((row) => row.at.getTime() - start.getTime())).toEqual([0, 5000, 10000, 15000, 20000]);
    expect(site.loops[0]?.steps).toBe(21);
    const battery = reports.find((row) => row.type === 'batteryPower');
    expect(battery?.body.observations).toMatchObject({ connectionStatistics: { success: expect.any(Number) as number, timeout: 0 } });

    await site.agent.stop();
    await site.start();
    const local = (row: StoredRow) => row.type === 'config' && row.body.observations.source === 'local';
    const after = await eventually(
      () => rows(site.deviceId),
      (all) => all.some(local),
    );
    expect(after.filter(local).map((row) => row.body.observations.config)).toEqual([parsed]);
  });

  it('reports an asset it has no driver for after the config that names it, so the hub takes its index', async () => {
    const site = await aSite();
    await eventually(
      () => rows(site.deviceId),
      (all) => all.length >= 1,
    );
    const config = { ...siteConfig, assets: [...siteConfig.assets, { type: 'growatt-inverter', identifier: 'pv', communication: { type: 'none' } }] };
    const response = await t.call('PUT', `/console-admin/v1/device/${site.hashId}`, ops, { config });
    expect(response.statusCode).toBe(200);
    const stored = await eventually(
      () => rows(site.deviceId),
      (all) => all.some((row) => row.type === 'error' && row.body.observations.code === 'unsupported_asset_type'),
    );
    const error = stored.find((row) => row.type === 'error' && row.body.observations.code === 'unsupported_asset_type');
    expect([error?.asset_index, error?.body.observations.message]).toEqual([2, 'asset 2 (growatt-inverter): no driver for this asset type; it is not read']);
  });

  it('answers an invalid config with invalid_config and its issues, and keeps running the last good one', async () => {
    const site = await aSite();
    await configure(site);
    const bad = { ...siteConfig, reportingIntervalInSec: 2, assets: [siteConfig.assets[0]] };
    const [row] = (await t.database
      .db('device_outbox')
      .insert({ device_id: site.deviceId, type: 'setConfig', payload: JSON.stringify({ type: 'setConfig', config: bad }), attempts: 0 })
      .returning('id')) as { id: number | string }[];
    t.services.pubsub.publish(channels.outbox, { deviceId: site.deviceId });
    const messageId = String(row?.id);
    const [answer] = await answers(site.deviceId, messageId);
    const issues = configIssues(bad);
    expect(issues.length).toBeGreaterThan(1);
    expect(answer?.body.observations).toEqual({
      messageId,
      messageType: 'setConfig',
      code: 'invalid_config',
      message: `The message is not valid: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
    });
    const start = new Date(site.clock.now());
    await site.run(10);
    await site.agent.gateway.drained();
    const reports = await rows(site.deviceId, start);
    expect(reports.filter((report) => report.type === 'batteryPower').map((report) => report.at.getTime() - start.getTime())).toEqual([0, 5000, 10000]);
    expect(site.agent.config?.reportingIntervalInSec).toBe(5);
    expect(JSON.parse(readFileSync(path.join(site.directory, stateFiles.config), 'utf8'))).toMatchObject({ reportingIntervalInSec: 5 });
  });

  it('carries out messages one at a time in their order: configs sent back to back end with the last one running and stored', async () => {
    const site = await aSite();
    await configure(site);
    const insert = async (config: typeof siteConfig) => {
      const [row] = (await t.database
        .db('device_outbox')
        .insert({ device_id: site.deviceId, type: 'setConfig', payload: JSON.stringify({ type: 'setConfig', config }), attempts: 0 })
        .returning('id')) as { id: number | string }[];
      return String(row?.id);
    };
    const ids: string[] = [];
    for (let interval = 4; interval <= 12; interval += 1) {
      ids.push(await insert({ ...siteConfig, reportingIntervalInSec: interval }));
    }
    t.services.pubsub.publish(channels.outbox, { deviceId: site.deviceId });
    for (const id of ids) {
      expect((await answers(site.deviceId, id, 2)).map((row) => row.type).sort()).toEqual(['ack', 'config']);
    }
    expect(site.agent.config?.reportingIntervalInSec).toBe(12);
    expect(JSON.parse(readFileSync(path.join(site.directory, stateFiles.config), 'utf8'))).toMatchObject({ reportingIntervalInSec: 12 });
  });

  itWithPeers(['pymodbus'], __filename)('answers every cloud-to-device message: its report and an ack report, or an error report', async () => {
    const peer: RegisterServer = await startRegisterServer({ units: { '1': { holding: { '100': [7, 8, 9] } } } });
    try {
      const site = await aSite({ system: { scanNetworks: () => ['127.0.0'], scanPorts: [peer.port], probeTimeoutMs: 300 } });
      await configure(site);
      const now = site.clock.now();
      const iso = (offset: number) => new Date(now + offset).toISOString();
      // A port nothing listens on (one the fetch standard does not block, as it blocks port 1).
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedPort = (closed.address() as { port: number }).port;
      await new Promise((resolve) => closed.close(resolve));
      const sent = {
        modbus: await send(site.hashId, {
          type: 'executeModbusCommand',
          device: { communication: peer.connection, slaveId: 1 },
          command: { type: 'readHoldingRegisters', addr: 100, length: 3 },
        }),
        opc: await send(site.hashId, {
          type: 'executeOPCXMLDACommand',
          // Nothing listens on the port: answered at once with a connection error.
          connection: { type: 'url', url: `http://127.0.0.1:${closedPort}/opc` },
          command: { type: 'getStatus' },
        }),
        vestas: await send(site.hashId, { type: 'executeVestasAPCommand', assetIndex: 0, command: { type: 'getStatus' } }),
        metadata: await send(site.hashId, { type: 'getMetadata' }),
        ping: await send(site.hashId, { type: 'debugPing', payload: 'hello edge' }),
        schedule: await send(site.hashId, {
          type: 'setAssetSchedule',
          assetIndex: 1,
          schedule: [{ startAt: iso(2000), endAt: iso(600_000), command: { type: 'setBatteryOperation', dispatchPower: 10000 } }],
        }),
        batteryParameters: await send(site.hashId, {
          type: 'setAssetParameters',
          assetIndex: 1,
          parameters: { type: 'demoBattery', errors: ['E12'], warnings: ['W3'] },
        }),
        meterParameters: await send(site.hashId, { type: 'setAssetParameters', assetIndex: 0, parameters: { type: 'demoBattery', errors: [], warnings: [] } }),
        loopParameters: await send(site.hashId, { type: 'setAssetParameters', controlLoopIndex: 0, parameters: { type: 'hedno', localMode: true } }),
        journal: await send(site.hashId, { type: 'getJournal', lines: 3 }),
        signal: await send(site.hashId, { type: 'getSignalQuality' }),
        routes: await send(site.hashId, { type: 'getRoutingTable' }),
        scan: await send(site.hashId, { type: 'scanNetwork' }),
        tunnel: await send(site.hashId, { type: 'openTunnel', tunnelId: 'tunnel-1', destination: '127.0.0.1:1' }),
        ack: await send(site.hashId, { type: 'ack', messageId: '1' }),
      };
      const [row] = (await t.database
        .db('device_outbox')
        .insert({ device_id: site.deviceId, type: 'getJournal', payload: JSON.stringify({ type: 'getJournal', lines: 501 }), attempts: 0 })
        .returning('id')) as { id: number | string }[];
      t.services.pubsub.publish(channels.outbox, { deviceId: site.deviceId });
      const invalid = String(row?.id);

      // Answers of one instant, by type and asset.
      const answered = async (messageId: string, count: number) =>
        (await answers(site.deviceId, messageId, count))
          .map((answer) => ({ type: answer.type, asset: answer.asset_index, controller: answer.controller_index, observations: answer.body.observations }))
          .sort((a, b) => a.type.localeCompare(b.type) || (a.asset ?? -1) - (b.asset ?? -1));
      const ack = (messageId: string, messageType: string) => ({ type: 'ack', asset: null, controller: null, observations: { messageId, messageType } });
      const error = (messageId: string, messageType: string, code: string, message: string, asset: number | null = null) => ({
        type: 'error',
        asset,
        controller: null,
        observations: { messageId, messageType, code, message },
      });

      expect(await answered(sent.modbus, 2)).toEqual([
        ack(sent.modbus, 'executeModbusCommand'),
        {
          type: 'executedModbusCommand',
          asset: null,
          controller: null,
          observations: expect.objectContaining({ messageId: sent.modbus, registers: [7, 8, 9] }) as unknown,
        },
      ]);
      expect(await answered(sent.opc, 1)).toEqual([
        {
          type: 'executedOPCXMLDACommand',
          asset: null,
          controller: null,
          observations: {
            messageId: sent.opc,
            command: { type: 'getStatus' },
            error: `connectionError: http://127.0.0.1:${closedPort}/opc could not be reached: ECONNREFUSED`,
          },
        },
      ]);
      expect(await answered(sent.vestas, 1)).toEqual([
        error(
          sent.vestas,
          'executeVestasAPCommand',
          'no_vestas_ap_client',
          'Asset 0 (demo-meter) is not a vestas-ap asset; only those answer Vestas AP commands.',
          0,
        ),
      ]);
      const metadata = await answered(sent.metadata, 3);
      expect(metadata.map((answer) => [answer.type, answer.asset])).toEqual([
        ['ack', null],
        ['assetMetadata', 0],
        ['assetMetadata', 1],
      ]);
      expect(metadata[2]?.observations).toMatchObject({ messageId: sent.metadata, nominalActivePower: 50000 });
      expect(await answered(sent.ping, 1)).toEqual([
        { type: 'ack', asset: null, controller: null, observations: { messageId: sent.ping, messageType: 'debugPing', payload: 'hello edge' } },
      ]);
      expect(await answered(sent.batteryParameters, 2)).toEqual([
        ack(sent.batteryParameters, 'setAssetParameters'),
        {
          type: 'executedAssetParameters',
          asset: 1,
          controller: null,
          observations: { messageId: sent.batteryParameters, parameters: { type: 'demoBattery', errors: ['E12'], warnings: ['W3'] } },
        },
      ]);
      // The demo battery reports the codes it was given as alarms, right after the parameters' answer.
      const alarms = await eventually(
        async () => (await rows(site.deviceId)).filter((row) => row.type === 'alarm' && row.asset_index === 1),
        (found) => found.length >= 2,
      );
      expect(alarms.map((row) => row.body.observations).sort((a, b) => String(a.code).localeCompare(String(b.code)))).toEqual([
        { code: 'E12', level: 'fault', active: true, description: 'Demo battery error E12' },
        { code: 'W3', level: 'warning', active: true, description: 'Demo battery warning W3' },
      ]);
      expect(await answered(sent.meterParameters, 1)).toEqual([
        error(sent.meterParameters, 'setAssetParameters', 'unsupported_parameters', 'Asset 0 (demo-meter) takes no demoBattery parameters.', 0),
      ]);
      expect(await answered(sent.loopParameters, 1)).toEqual([
        error(sent.loopParameters, 'setAssetParameters', 'unsupported_parameters', 'Control loop 0 (proportionalPeakShaver) takes no hedno parameters.'),
      ]);
      const journal = await answered(sent.journal, 2);
      expect(journal.map((answer) => answer.type)).toEqual(['ack', 'journal']);
      const lines = journal[1]?.observations.lines as string[];
      expect(lines).toHaveLength(3);
      expect(lines[2]).toBe(`${new Date(now).toISOString()} info message ${sent.journal}: getJournal`);
      expect(await answered(sent.signal, 1)).toEqual([
        error(sent.signal, 'getSignalQuality', 'no_modem', 'This gateway has no cellular modem (ModemManager lists none).'),
      ]);
      expect(await answered(sent.routes, 2)).toEqual([
        ack(sent.routes, 'getRoutingTable'),
        {
          type: 'routingTable',
          asset: null,
          controller: null,
          observations: { messageId: sent.routes, routes: [{ destination: '0.0.0.0/0', gateway: '192.168.10.1', interface: 'eth0', metric: 100 }] },
        },
      ]);
      expect(await answered(sent.scan, 2)).toEqual([
        ack(sent.scan, 'scanNetwork'),
        {
          type: 'networkScan',
          asset: null,
          controller: null,
          observations: {
            messageId: sent.scan,
            hosts: [
              { address: '192.168.10.21', mac: 'aa:bb:cc:00:11:23' },
              { address: '127.0.0.1', openPorts: [peer.port] },
            ],
          },
        },
      ]);
      const tunnel = await answered(sent.tunnel, 1);
      expect(tunnel[0]?.observations).toMatchObject({ messageId: sent.tunnel, messageType: 'openTunnel', code: 'tunnel_failed' });
      expect(String(tunnel[0]?.observations.message)).toMatch(/^The tunnel to 127\.0\.0\.1:1 could not be opened: /);
      expect(await answered(sent.ack, 1)).toEqual([ack(sent.ack, 'ack')]);
      const [refused] = await answered(invalid, 1);
      expect(refused).toEqual(error(invalid, 'getJournal', 'invalid_message', 'The message is not valid: lines: lines must be less than or equal to 500'));

      // The schedule takes effect at its start: the battery's cloud setpoint, and its executed report.
      expect(await answered(sent.schedule, 1)).toEqual([ack(sent.schedule, 'setAssetSchedule')]);
      await site.run(5);
      const executed = await answered(sent.schedule, 2);
      expect(executed[1]).toMatchObject({
        type: 'executedAssetSchedule',
        asset: 1,
        observations: { messageId: sent.schedule, startAt: iso(2000), command: { type: 'setBatteryOperation', dispatchPower: 10000 } },
      });
      await site.run(5);
      await site.agent.gateway.drained();
      const battery = (await rows(site.deviceId, new Date(now + 10_000))).find((report) => report.type === 'batteryPower');
      expect(battery?.body.observations).toMatchObject({ setpoints: { desired: { cloud: 10000 }, effective: 10000, confirmed: 10000 } });

      // A restart carries on with the schedule held (the cloud does not send an acknowledged message again).
      const restartedAt = site.clock.now();
      await site.agent.restart();
      await site.run(10);
      await site.agent.gateway.drained();
      const afterRestart = (await rows(site.deviceId, new Date(restartedAt + 1))).filter((report) => report.type === 'batteryPower');
      expect(afterRestart.length).toBeGreaterThan(0);
      expect(afterRestart.at(-1)?.body.observations).toMatchObject({ setpoints: { desired: { cloud: 10000 }, effective: 10000 } });
    } finally {
      await peer.stop();
    }
  });

  it('carries out executeOPCXMLDACommand and executeVestasAPCommand sent through the console against a local OPC XML-DA server', async () => {
    const opc = await startOpcXmlDaServer({
      items: {
        'Park/ActivePower': { dataType: 'double', value: 1850.5, engineeringUnits: 'kW' },
        'Park/PowerLimit': { dataType: 'double', value: 3000, writable: true },
        'Park/Turbine1/State': { dataType: 'int', value: 2 },
      },
    });
    try {
      const site = await aSite();
      const config = {
        ...siteConfig,
        assets: [
          ...siteConfig.assets,
          { type: 'vestas-ap', identifier: 'park', communication: { type: 'url', url: opc.url }, readTimeout: 10, writeTimeout: 10 },
        ],
      };
      const response = await t.call('PUT', `/console-admin/v1/device/${site.hashId}`, ops, { config });
      expect(response.statusCode).toBe(200);
      await eventually(
        () => rows(site.deviceId),
        (all) => all.some((row) => row.type === 'config' && row.body.observations.source === 'cloud'),
      );
      const read = await send(site.hashId, {
        type: 'executeOPCXMLDACommand',
        connection: { type: 'url', url: opc.url },
        command: { type: 'read', names: ['Park/ActivePower', 'Park/Nothing'] },
      });
      const browse = await send(site.hashId, { type: 'executeVestasAPCommand', assetIndex: 2, command: { type: 'browse', itemName: 'Park' } });
      const write = await send(site.hashId, {
        type: 'executeVestasAPCommand',
        assetIndex: 2,
        command: { type: 'write', items: [{ name: 'Park/PowerLimit', valueType: 'double', value: 1200 }] },
      });
      const unknown = await send(site.hashId, { type: 'executeVestasAPCommand', assetIndex: 7, command: { type: 'getStatus' } });
      const answer = async (messageId: string, count: number) =>
        (await answers(site.deviceId, messageId, count)).map((row) => ({ type: row.type, asset: row.asset_index, observations: row.body.observations }));

      // A refused item keeps its place, the error names it, and no ack follows.
      expect(await answer(read, 1)).toEqual([
        {
          type: 'executedOPCXMLDACommand',
          asset: null,
          observations: {
            messageId: read,
            command: { type: 'read', names: ['Park/ActivePower', 'Park/Nothing'] },
            items: [
              { name: 'Park/ActivePower', value: '1850.5', quality: 'good' },
              { name: 'Park/Nothing', value: null, quality: 'E_UNKNOWNITEMNAME' },
            ],
            error: 'E_UNKNOWNITEMNAME on Park/Nothing: The item name is not known in the server address space.',
          },
        },
      ]);
      expect((await answer(browse, 2)).sort((a, b) => a.type.localeCompare(b.type))).toEqual([
        { type: 'ack', asset: null, observations: { messageId: browse, messageType: 'executeVestasAPCommand' } },
        {
          type: 'executedVestasAPCommand',
          asset: 2,
          observations: {
            messageId: browse,
            command: { type: 'browse', itemName: 'Park' },
            items: [
              { name: 'Park/ActivePower', value: 'item' },
              { name: 'Park/PowerLimit', value: 'item' },
              { name: 'Park/Turbine1', value: 'branch' },
            ],
          },
        },
      ]);
      expect((await answer(write, 2)).find((row) => row.type === 'executedVestasAPCommand')?.observations.items).toEqual([
        { name: 'Park/PowerLimit', value: '1200', quality: 'good' },
      ]);
      expect(opc.value('Park/PowerLimit')).toBe(1200);
      expect(await answer(unknown, 1)).toEqual([
        {
          type: 'error',
          asset: null,
          observations: { messageId: unknown, messageType: 'executeVestasAPCommand', code: 'unknown_asset', message: 'No asset at index 7.' },
        },
      ]);
    } finally {
      await opc.close();
    }
  });

  it('restarts in process on reboot, and asks its supervisor to restart, update or reprovision it, which a new token completes', async () => {
    const site = await aSite();
    await configure(site);
    const locals = async () => (await rows(site.deviceId)).filter((row) => row.type === 'config' && row.body.observations.source === 'local').length;
    const soft = await send(site.hashId, { type: 'reboot', hard: false });
    await answers(site.deviceId, soft);
    expect(await eventually(locals, (count) => count === 1)).toBe(1);
    expect(site.exits).toEqual([]);

    const hard = await send(site.hashId, { type: 'reboot', hard: true });
    expect((await answers(site.deviceId, hard)).map((row) => row.type)).toEqual(['ack']);
    expect(
      await eventually(
        async () => site.exits,
        (exits) => exits.length === 1,
      ),
    ).toEqual([agentExitCodes.hardReboot]);

    await site.start();
    const update = await send(site.hashId, { type: 'forceUpdate' });
    await answers(site.deviceId, update);
    expect(
      await eventually(
        async () => site.exits,
        (exits) => exits.length === 2,
      ),
    ).toEqual([agentExitCodes.hardReboot, agentExitCodes.forceUpdate]);

    await site.start();
    const reprovision = await send(site.hashId, { type: 'reprovision' });
    await answers(site.deviceId, reprovision);
    expect(
      await eventually(
        async () => site.exits,
        (exits) => exits.length === 3,
      ),
    ).toEqual([agentExitCodes.hardReboot, agentExitCodes.forceUpdate, agentExitCodes.reprovision]);
    expect(existsSync(path.join(site.directory, stateFiles.reprovision))).toBe(true);

    const certificate = readFileSync(path.join(site.directory, stateFiles.identity, 'cert.pem'), 'utf8');
    const { provisioningToken } = await t.services.devices.reopenProvisioning(systemActor('test'), site.hashId);
    await site.start(provisioningToken);
    expect(readFileSync(path.join(site.directory, stateFiles.identity, 'cert.pem'), 'utf8')).not.toBe(certificate);
    expect(existsSync(path.join(site.directory, stateFiles.reprovision))).toBe(false);
    expect(site.agent.gateway.identifier).toBe(site.identifier);
  });

  /** Reports stored for a window of agent time (after `from`, up to and with `to`), by type. */
  async function windowOf(deviceId: number, from: number, to: number): Promise<Map<string, number[]>> {
    const byType = new Map<string, number[]>();
    for (const row of await rows(deviceId, new Date(from + 1))) {
      const at = row.at.getTime();
      if (at <= to) {
        byType.set(row.type, [...(byType.get(row.type) ?? []), at - from]);
      }
    }
    return byType;
  }

  /** Seconds from `first` to `last` every `step`, as ms. */
  const every = (first: number, last: number, step: number) =>
    Array.from({ length: Math.floor((last - first) / step) + 1 }, (_, at) => (first + at * step) * 1000);

  it('cut from the hub for ten minutes, loses no report and delivers them in order when the link returns', async () => {
    const site = await aSite({ proxy: true });
    await configure(site);
    await site.run(10);
    await site.agent.gateway.drained();
    const cutAt = site.clock.now();
    const arrived: number[] = [];
    const unsubscribe = t.services.pubsub.subscribe(
      channels.reports(site.deviceId),
      (message) => void arrived.push(Date.parse((message as { at: string }).at)),
    );
    try {
      site.proxy?.sever();
      await site.run(600);
      // Every report of the ten minutes is waiting on disk: 600 flash, 120 + 120 asset reports, 60 loop reports.
      expect(site.agent.gateway.waiting).toBe(900);
      site.proxy?.restore();
      await site.agent.gateway.drained();
    } finally {
      unsubscribe();
    }
    const stored = await windowOf(site.deviceId, cutAt, cutAt + 600_000);
    expect(new Map([...stored].sort(([a], [b]) => a.localeCompare(b)))).toEqual(
      new Map([
        ['batteryPower', every(5, 600, 5)],
        ['meterPower', every(5, 600, 5)],
        ['meterPower.flash', every(1, 600, 1)],
        ['proportionalPeakShaverStatus', every(10, 600, 10)],
      ]),
    );
    const inWindow = arrived.filter((at) => at > cutAt && at <= cutAt + 600_000);
    expect(inWindow).toHaveLength(900);
    expect(inWindow).toEqual([...inWindow].sort((a, b) => a - b));
  });

  it('bounds its store while cut off: flash reports go first, the backlog keeps its beginning, and the count of what was dropped arrives when the link returns', async () => {
    const site = await aSite({ proxy: true, maxStoreBytes: 60_000 });
    await configure(site);
    await site.run(5);
    await site.agent.gateway.drained();
    const cutAt = site.clock.now();
    site.proxy?.sever();
    await site.run(300);
    site.proxy?.restore();
    const report = await eventually(
      () => rows(site.deviceId, new Date(cutAt)),
      (all) => all.some((row) => row.body.observations.code === 'reports_dropped'),
    );
    await site.agent.gateway.drained();
    const stored = await windowOf(site.deviceId, cutAt, cutAt + 300_000);
    const flash = stored.get('meterPower.flash') ?? [];
    const regular = ['meterPower', 'batteryPower', 'proportionalPeakShaverStatus'].map((type) => stored.get(type) ?? []);
    // Each kind kept from the start of the cut, without a gap: the newest were the ones dropped.
    expect(flash).toEqual(every(1, flash.length, 1));
    expect(regular[0]).toEqual(every(5, 5 * (regular[0]?.length ?? 0), 5));
    // The loop reports every 10 s from the config's start, 5 s before the cut.
    expect(regular[2]).toEqual(every(5, 5 + 10 * ((regular[2]?.length ?? 1) - 1), 10));
    // Flash reports stopped being kept before regular ones did.
    expect(flash.length).toBeGreaterThan(0);
    expect(flash.length).toBeLessThan(300);
    expect(Math.max(...flash)).toBeLessThan(Math.max(...(regular[0] ?? [])));
    const droppedRegular = 60 + 60 + 30 - regular.reduce((sum, kept) => sum + kept.length, 0);
    expect(droppedRegular).toBeGreaterThan(0);
    const dropped = report.find((row) => row.body.observations.code === 'reports_dropped');
    expect(dropped?.body.observations.message).toMatch(
      new RegExp(
        `^The report store was full since \\S+: ${droppedRegular + 300 - flash.length} reports were not kept \\(regular ${droppedRegular}, flash ${300 - flash.length}\\)\\.$`,
      ),
    );
    // The counter starts again once reported.
    expect(site.agent.gateway.dropped).toEqual({ regular: 0, flash: 0, since: null });
  });

  it('gridport edge provisions, runs with the real parts until it is told to stop, then closes and answers exit code 0', async () => {
    const { id: deviceId, provisioningToken } = await buildDevice(t.services, { organizationHashId, name: 'Edge command' });
    const stateDirectory = path.join(folder, 'command');
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const lines: string[] = [];
    const running = runEdgeCommand(
      {
        hub: baseUrl,
        token: provisioningToken,
        identifier: 'gw-edge-command',
        stateDirectory,
        log: (level, message) => void lines.push(`${level} ${message}`),
      },
      stopped,
    );
    const online = () => t.database.db('devices').where('id', deviceId).first() as Promise<{ online: boolean }>;
    expect(await eventually(online, (device) => device.online)).toMatchObject({ online: true });
    const reported = await eventually(
      () => rows(deviceId),
      (all) => all.length === 1,
    );
    expect(reported.map((row) => [row.type, row.body.observations.source])).toEqual([['config', 'default']]);
    stop();
    expect(await running).toBe(0);
    expect(await eventually(online, (device) => !device.online)).toMatchObject({ online: false });
    expect(lines.slice(0, 2)).toEqual(['info provisioned as gw-edge-command', 'info agent started with the default config']);
    expect(lines[lines.length - 1]).toBe('info stop: stopping');
  });
});
