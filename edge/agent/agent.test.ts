import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configIssues, parseDeviceConfig, type DeviceConfig } from '../../contracts/device/config';
import type { AssetParameters } from '../../contracts/device/commands';
import type { ControlLoop as ControlLoopConfig } from '../../contracts/device/control-loops';
import type { DeviceReport } from '../../contracts/hub/reports';
import type { ControlLoop, LoopStep, SiteSnapshot } from '../control/loop';
import { channels } from '../../device-hub/pubsub';
import { systemActor } from '../../graph/common/context';
import { Battery, Site } from '../simulators/plant';
import { plantDriverFactory } from '../simulators/plant-drivers';
import { anOrganization } from '../../test-support/factories';
import { testApp, type TestApp } from '../../test-support/app';
import { agentExitCodes, stateFiles, type Agent } from './agent';
import { ManualClock } from './clock';
import type { AgentParts } from './parts';
import { startEdgeAgent } from './run';

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
    { type: 'proportionalPeakShaver', identifier: 'peak-shaver', meterAssetIndex: 0, batteryAssetIndices: [1], activePowerLimit: 40000, controlLoopSleep: 1, reportingInterval: 10 },
    { type: 'batteryPowerLimiter', identifier: 'battery-limiter', meterAssetIndex: 0, batteryAssetIndices: [1], contractualLimit: { consumption: 60000, feedIn: 60000 } },
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
    return { type: 'proportionalPeakShaverStatus', at: at.toISOString(), controller: this.index, observations: { state: 'active', monitoredPower: this.monitored, consumptionLimit: 40000 } };
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
    t.database.db('device_reports').where('device_id', deviceId).where('at', '>=', since).orderBy([{ column: 'at' }, { column: 'type' }]) as Promise<StoredRow[]>;

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
    const response = await t.app.inject({ method: 'POST', url: `/console-admin/v1/device/${hashId}/send-message`, headers: { cookie: ops }, payload: { message } });
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
    parameters: AssetParameters[];
    loops: TestPeakShaver[];
    proxy: CuttableProxy | null;
    start: (token?: string) => Promise<Agent>;
    /** Moves the site and the agent on, a second at a time. */
    run: (seconds: number) => Promise<void>;
  }

  /** A shipped gateway whose agent provisions through the proxy (when asked) and runs the test site's plant. */
  async function aSite({ proxy = false, maxStoreBytes }: { proxy?: boolean; maxStoreBytes?: number } = {}): Promise<TestSite & { token: string }> {
    sites += 1;
    const identifier = `gw-edge-${sites}`;
    const { hashId, provisioningToken } = await t.services.devices.ship(systemActor('test'), { organizationHashId, name: `Edge site ${sites}` });
    const cuttable = proxy ? new CuttableProxy(hubPort) : null;
    if (cuttable) {
      proxies.push(cuttable);
    }
    const hub = cuttable ? await cuttable.start() : baseUrl;
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 10, 0, 0));
    const site = new Site({ seed: sites, start: clock.now() });
    const battery = site.add(new Battery({ capacityWh: 100000, maxChargePower: 50000, maxDischargePower: 50000 }));
    const plant = plantDriverFactory(site, [site.meter, battery]);
    const parameters: AssetParameters[] = [];
    const loops: TestPeakShaver[] = [];
    const parts: Partial<AgentParts> = {
      createDriver: (index, config, context) => {
        const driver = plant(index, config, context);
        // The battery takes demoBattery parameters; what it was given is kept for the test.
        return driver && index === 1 ? Object.assign(driver, { applyParameters: (given: AssetParameters) => parameters.push(given) > 0 }) : driver;
      },
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
      deviceId: t.hashIds.decode('device', hashId) ?? 0,
      hashId,
      directory,
      identifier,
      exits,
      parameters,
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
            system: { ipv4RouteFile: path.join(__dirname, 'missing-route'), ipv6RouteFile: path.join(__dirname, 'missing-route'), run: () => Promise.reject(new Error('spawn mmcli ENOENT')) },
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
    const response = await t.app.inject({ method: 'PUT', url: `/console-admin/v1/device/${site.hashId}`, headers: { cookie: ops }, payload: { config: siteConfig } });
    expect(response.statusCode).toBe(200);
    await eventually(
      () => rows(site.deviceId),
      (all) => all.some((row) => row.type === 'config' && row.body.observations.source === 'cloud'),
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
    const applied = (await rows(site.deviceId)).filter((row) => row.type !== 'config' || row.body.observations.source !== 'default');
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

  it('answers an invalid config with invalid_config and its issues, and keeps running the last good one', async () => {
    const site = await aSite();
    await configure(site);
    const bad = { ...siteConfig, reportingIntervalInSec: 2, assets: [siteConfig.assets[0]] };
    const [row] = (await t.database.db('device_outbox').insert({ device_id: site.deviceId, type: 'setConfig', payload: JSON.stringify({ type: 'setConfig', config: bad }), attempts: 0 }).returning('id')) as { id: number | string }[];
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
});
