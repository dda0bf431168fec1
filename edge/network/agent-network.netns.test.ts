import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { anOrganization, buildDevice } from '../../test-support/factories';
import { testApp, type TestApp } from '../../test-support/app';
import { until } from '../../test-support/until';
import type { Agent } from '../agent/agent';
import { ManualClock } from '../agent/clock';
import { startEdgeAgent } from '../agent/run';
import { createHostNetwork, hostNetworkCodes } from './index';
import { labCloud, NetnsLab, netnsUnavailable } from './test-support/netns-lab';

const unavailable = netnsUnavailable();
const describeInNetns = unavailable === null ? describe : describe.skip;

jest.setTimeout(120_000);

interface StoredRow {
  type: string;
  body: { observations: Record<string, unknown> };
}

/**
 * The agent's setConfig path with the gateway's network: the agent talks to the real hub (in
 * this process's namespace), while its network changes go to a real NetworkManager in the lab's
 * gateway namespace and "the cloud is reachable" is asked of the lab's cloud from there.
 */
describeInNetns('setConfig and the gateway network, through the real hub', () => {
  const lab = new NetnsLab();
  let t: TestApp;
  let agent: Agent | null = null;
  let folder: string;
  let deviceId: number;
  let hashId: string;
  let ops: string;
  // 01:00 local time yesterday: outside the 02:00-04:00 window, and a plausible report time for the hub.
  const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000);
  const clock = new ManualClock(new Date(yesterday.getFullYear(), yesterday.getMonth(), yesterday.getDate(), 1, 0, 0).getTime());

  const config = (network: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    network,
    reportingIntervalInSec: 60,
    assets: [],
    activeControl: [],
    ...extra,
  });
  const dhcp = { eth0: { type: 'dhcp' }, eth1: null };

  beforeAll(async () => {
    await lab.start();
    t = await testApp({}, { hub: true });
    const baseUrl = await t.listen();
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-edge-net-'));
    const organizationHashId = (await anOrganization(t.services, { name: 'Edge Network BV' })).hashId;
    ops = await t.signIn(['gridport.ops']);
    const device = await buildDevice(t.services, { organizationHashId, name: 'Network site' });
    deviceId = device.id;
    hashId = device.hashId;
    const stateDirectory = path.join(folder, 'gw');
    const hostNetwork = await createHostNetwork({
      stateDirectory,
      baseUrl: `http://${labCloud.address}:${labCloud.hubPort}`,
      log: () => undefined,
      commands: lab.commands,
      interfaces: { eth0: lab.gatewayInterface, eth1: `${lab.gatewayInterface}x` },
      rollbackAfterMs: 5000,
      probeEveryMs: 500,
      now: () => clock.now(),
    });
    agent = await startEdgeAgent({
      hub: baseUrl,
      token: device.provisioningToken,
      identifier: 'gw-net-1',
      stateDirectory,
      clock,
      hostNetwork,
      minBackoffMs: 20,
      maxBackoffMs: 100,
    });
    await agent.gateway.connected();
  }, 180_000);

  afterAll(async () => {
    await agent?.stop();
    await t?.close();
    await lab.stop();
    if (folder) {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);

  const rows = (): Promise<StoredRow[]> =>
    t.database
      .db('device_reports')
      .where('device_id', deviceId)
      .orderBy([{ column: 'at' }, { column: 'type' }]) as Promise<StoredRow[]>;

  /** Sets a config through the console, as an operator would; resolves with the reports that answer it (its config report, ack or error). */
  async function configure(config: Record<string, unknown>): Promise<StoredRow[]> {
    const answerIds = (all: StoredRow[]) =>
      new Set(all.filter((row) => row.body.observations.messageType === 'setConfig').map((row) => String(row.body.observations.messageId)));
    const before = answerIds(await rows());
    const response = await t.call('PUT', `/console-admin/v1/device/${hashId}`, ops, { config });
    expect(response.statusCode).toBe(200);
    const fresh = async () => [...answerIds(await rows())].find((id) => !before.has(id));
    await until('the answer to the config', async () => (await fresh()) !== undefined, 30_000);
    const messageId = await fresh();
    return (await rows()).filter((row) => row.body.observations.messageId === messageId);
  }

  it('applies a DHCP eth0 and answers with the config and an ack', async () => {
    expect((await configure(config(dhcp))).map((row) => row.type).sort()).toEqual(['ack', 'config']);
    expect(await lab.inGateway('ip', '-4', '-o', 'addr', 'show', 'dev', lab.gatewayInterface)).toMatch(/inet 10\.77\.0\.(5\d|60)\/24/);
  });

  it('answers a static address that cuts the cloud off with config_not_applied once rolled back, and keeps the config it ran', async () => {
    const [answer, ...others] = await configure(config({ eth0: { type: 'static', ip: '10.99.0.2', routingPrefix: 24 }, eth1: null }));
    expect(others).toEqual([]);
    expect(answer?.type).toBe('error');
    expect(answer?.body.observations).toMatchObject({
      code: 'config_not_applied',
      messageType: 'setConfig',
      message:
        'The network change was rolled back: the cloud was not reachable within 5 s after the change; the previous settings were restored and the cloud is reachable again.',
    });
    expect(agent?.config?.network).toEqual(expect.objectContaining({ eth0: { type: 'dhcp' } }));
    expect(await lab.inGateway('ip', '-4', '-o', 'addr', 'show', 'dev', lab.gatewayInterface)).toMatch(/inet 10\.77\.0\.(5\d|60)\/24/);
  });

  it('runs the rest of a config at once and the network change in the maintenance window, raising and clearing network_change_pending', async () => {
    const network = { eth0: { type: 'static', ip: '10.77.0.9', routingPrefix: 24, gateway: labCloud.address }, eth1: null };
    expect((await configure(config(network, { maintenanceWindow: { start: '02:00', end: '04:00' } }))).map((row) => row.type).sort()).toEqual([
      'ack',
      'config',
    ]);
    const pending = async () => (await rows()).filter((row) => row.type === 'alarm' && row.body.observations.code === hostNetworkCodes.changePending);
    await until('the pending alarm', async () => (await pending()).length === 1, 20_000);
    expect((await pending())[0]?.body.observations).toMatchObject({
      level: 'info',
      active: true,
      description: 'The network and VPN change waits for the maintenance window 02:00-04:00 (gateway local time).',
    });
    expect(await lab.inGateway('ip', '-4', '-o', 'addr', 'show', 'dev', lab.gatewayInterface)).not.toMatch(/10\.77\.0\.9\//);
    await clock.advance(61 * 60 * 1000);
    await until('the pending alarm cleared', async () => (await pending()).length === 2, 30_000);
    expect((await pending())[1]?.body.observations).toMatchObject({ active: false });
    expect(await lab.inGateway('ip', '-4', '-o', 'addr', 'show', 'dev', lab.gatewayInterface)).toMatch(/inet 10\.77\.0\.9\/24/);
  });
});
