import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exampleDeviceConfig } from '../contracts/device';
import { deviceUpdateSchema } from '../contracts/fleet';
import type { StoredReport } from '../contracts/hub/reports';
import { validate } from '../contracts/validation';
import { systemActor } from '../graph/common/context';
import { testApp, type TestApp } from '../test-support/app';
import { buildDevice } from '../test-support/factories';

/**
 * Issue 16, "Done when": a real gateway (the edge agent in a process of its own) provisioned
 * with a short disconnect threshold is cut (SIGKILL), and the monitors raise the alarm, open the
 * issue and mail the customer; when the gateway returns, the alarm recovers and closes and the
 * issue resolves itself. Short settings: the sweep every second, recovery after 2 s.
 */

const root = path.resolve(__dirname, '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it answers something other than undefined (the sweep runs every second); fails after `withinMs`. */
let output = '';
async function eventually<T>(what: string, probe: () => Promise<T | undefined>, withinMs = 60_000): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > until) {
      throw new Error(`waited ${withinMs} ms for ${what}; the agents wrote:\n${output.slice(-4000)}`);
    }
    await sleep(200);
  }
}

describe('monitors end to end with a real gateway', () => {
  let t: TestApp;
  let baseUrl: string;
  let folder: string;
  const agents: ChildProcess[] = [];

  beforeAll(async () => {
    t = await testApp({}, { hub: true, monitors: { sweepSeconds: 1 }, alarms: { recoverySeconds: 2 } });
    baseUrl = await t.listen();
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-monitors-'));
  });

  afterAll(async () => {
    await Promise.all(
      agents
        .filter((agent) => agent.exitCode === null && agent.signalCode === null)
        .map((agent) => new Promise((resolve) => agent.once('exit', resolve).kill('SIGKILL'))),
    );
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** `gridport edge` as a process: the agent provisions with `token` at its first start and keeps its state in `state`. */
  function startAgent(state: string, token?: string): ChildProcess {
    const options = { hub: baseUrl, token, identifier: 'gw-monitors-1', stateDirectory: state, networkInterface: 'eth0', minBackoffMs: 100, maxBackoffMs: 500 };
    const script = `require('./edge/agent/run').runEdgeCommand(${JSON.stringify(options)}).then((code) => process.exit(code), (error) => { console.error(error); process.exit(1); });`;
    const agent = spawn(process.execPath, ['-r', 'reflect-metadata', '-r', 'ts-node/register/transpile-only', '-e', script], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    agent.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    agents.push(agent);
    return agent;
  }

  const deviceRow = (id: number) => t.database.db('devices').where('id', id).first('online') as Promise<{ online: boolean }>;
  const alarmOf = (id: number) =>
    t.database.db('alarms').where({ device_id: id, monitor: 'device.disconnect.duration' }).orderBy('id').first() as Promise<
      | {
          id: string;
          issue_id: string | null;
          customer_message: { to: string[]; markdown: string } | null;
          customer_message_sent_at: Date | null;
          recovering_since: Date | null;
          closed_at: Date | null;
        }
      | undefined
    >;

  it('raises the alarm, the issue and the customer mail when a gateway is cut, and closes both when it returns', async () => {
    const device = await buildDevice(t.services, {
      name: 'Cut gateway',
      monitorSettings: { disconnectIntervalSeconds: 1 },
      outageEmails: ['outage@customer.example'],
    });
    const state = path.join(folder, 'agent');
    const first = startAgent(state, device.provisioningToken);
    await eventually('the gateway online', async () => ((await deviceRow(device.id)).online ? true : undefined));
    expect(await alarmOf(device.id)).toBeUndefined();

    // Cut: the agent's process is killed, its connection dropped without a goodbye.
    first.kill('SIGKILL');
    const alarm = await eventually('the alarm with its customer message sent', async () => {
      const row = await alarmOf(device.id);
      return row?.customer_message_sent_at ? row : undefined;
    });
    expect(alarm).toMatchObject({ recovering_since: null, closed_at: null, customer_message: { to: ['outage@customer.example'] } });
    const issue = (await t.database.db('issues').where('id', alarm.issue_id).first()) as Record<string, unknown>;
    expect(issue).toMatchObject({
      title: 'Device offline',
      source: 'monitoring',
      auto_close: true,
      can_reopen: true,
      gridport_issue_owner: true,
      closed_at: null,
    });
    const mails = (await t.database.db('mails').whereRaw('"to" @> ?::jsonb', [JSON.stringify(['outage@customer.example'])])) as {
      subject: string;
      text: string;
      status: string;
    }[];
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ subject: 'Gridport alarm: Device offline', status: 'kept' });
    expect(mails[0]?.text).toContain('**Cut gateway**');

    // The gateway returns (its identity kept in its state): the alarm recovers, closes after 2 s clear, and the issue resolves itself.
    startAgent(state);
    await eventually('the gateway online again', async () => ((await deviceRow(device.id)).online ? true : undefined));
    const closed = await eventually('the alarm closed', async () => {
      const row = await alarmOf(device.id);
      return row?.closed_at ? row : undefined;
    });
    expect(closed.recovering_since).toBeInstanceOf(Date);
    const resolved = (await t.database.db('issues').where('id', alarm.issue_id).first()) as { closed_at: Date | null; closed_automatically: boolean };
    expect(resolved.closed_at).toBeInstanceOf(Date);
    expect(resolved.closed_automatically).toBe(true);
    const timeline = ((await t.database.db('issue_messages').where('issue_id', alarm.issue_id).orderBy('id')) as { source: string; message: string }[]).map(
      (message) => message.message,
    );
    expect(timeline).toEqual([
      'Alarm **Device offline** (`device.disconnect.duration`) opened.',
      '**Device offline** (`device.disconnect.duration`) cleared; the alarm closes if it stays clear.',
      'Alarm **Device offline** (`device.disconnect.duration`) closed: clear for 2 s.',
      'All alarms closed: the issue resolved itself.',
    ]);
    // One customer mail for the one alarm, however many sweeps ran meanwhile.
    expect(await t.database.db('mails').whereRaw('"to" @> ?::jsonb', [JSON.stringify(['outage@customer.example'])])).toHaveLength(1);
  }, 120_000);

  it('takes a device up afresh when its saved config changes, so a report about an asset it dropped opens no alarm meanwhile', async () => {
    const monitors = t.hub?.monitors;
    if (!monitors) {
      throw new Error('the hub runs monitors here');
    }
    const asset = (type: string, identifier: string) => ({ type, identifier, communication: { type: 'none' } });
    const config = { ...exampleDeviceConfig, assets: [asset('demo-battery', 'BAT-1'), asset('demo-meter', 'MTR-1')], activeControl: [] };
    const device = await buildDevice(t.services, { config, monitorSettings: { acceptableBadConnectionCount: 1 } });
    let sequence = 0;
    const batteryReport = (timeout: number): StoredReport => {
      sequence += 1;
      const at = new Date(Date.now() - 60_000 + sequence).toISOString();
      const observations = {
        activePower: 0,
        connectionStatistics: { success: 10 - timeout, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout, responseError: 0 },
      };
      return {
        deviceId: device.id,
        reportId: `b${sequence}`,
        type: 'batteryPower',
        at,
        assetIndex: 0,
        controllerIndex: null,
        body: { type: 'batteryPower', at, asset: 0, observations },
      };
    };
    const alarms = async () =>
      (
        (await t.database.db('alarms').where('device_id', device.id).orderBy('id')) as {
          asset_identifier: string;
          recovering_since: Date | null;
          closed_at: Date | null;
        }[]
      ).map((alarm) => `${alarm.asset_identifier} ${alarm.closed_at ? 'closed' : alarm.recovering_since ? 'recovering' : 'firing'}`);

    monitors.evaluator.evaluate([batteryReport(9), batteryReport(9)]);
    await monitors.evaluator.idle();
    monitors.evaluator.evaluate([batteryReport(0)]);
    await monitors.evaluator.idle();
    expect(await alarms()).toEqual(['BAT-1 recovering']);

    // The battery leaves the config: its alarm closes; the device still runs the old config until it applies the new one.
    await t.services.devices.update(
      systemActor('test'),
      device.hashId,
      validate(deviceUpdateSchema, { config: { ...config, assets: [asset('demo-meter', 'MTR-1')] } }, 'payload_invalid'),
    );
    expect(await alarms()).toEqual(['BAT-1 closed']);
    monitors.evaluator.evaluate([batteryReport(9), batteryReport(9)]);
    await monitors.evaluator.idle();
    expect((await alarms()).filter((alarm) => alarm.startsWith('BAT-1'))).toEqual(['BAT-1 closed']);
  });
});
