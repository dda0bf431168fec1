import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exampleDeviceConfig } from '../contracts/device';
import { destinationKinds, type DestinationKind, type MessageDestinationCreate } from '../contracts/forwarding';
import { GridportError } from '../contracts/errors';
import { GatewayClient } from '../edge/gateway-client/client';
import { provision } from '../edge/gateway-client/provision';
import { systemActor } from '../graph/common/context';
import { defaultForwardingSettings } from '../graph/forwarding/services/forwarding-settings';
import { testApp, type TestApp } from '../test-support/app';
import { buildDevice, buildDeviceGroup, buildOrganization } from '../test-support/factories';
import { forwardingPeers } from '../test-support/forwarding-peers';
import type { ReceivedMessage } from '../test-support/forwarding-peers/peer';
import { requireServices } from '../test-support/services';

const staff = systemActor('forwarding test');

/** Waits until `probe` answers a value; fails after `withinMs` saying what it waited for and what it saw last. */
async function eventually<T>(what: string, probe: () => Promise<T | null>, withinMs = 30_000): Promise<T> {
  const until = Date.now() + withinMs;
  let last: unknown = null;
  for (;;) {
    try {
      const value = await probe();
      if (value !== null) {
        return value;
      }
    } catch (error) {
      last = error;
    }
    if (Date.now() > until) {
      throw new Error(`waited ${withinMs} ms for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The example config's meter (janitza, grid-meter) is asset 2. */
const meterAsset = 2;

/**
 * Forwarding end to end (issue 18): a provisioned gateway sends reports over its websocket, the
 * hub stores them, the worker delivers them, and each kind's peer (a real server where one runs
 * here, else one that speaks the documented protocol) gives back what it took. Every kind, in
 * one app, one after another.
 */
describe('forwarding a gateway’s reports to every kind of destination', () => {
  let t: TestApp;
  let folder: string;
  let gateway: GatewayClient;
  let organizationHashId: string;
  let groupHashId: string;
  let deviceHashId: string;
  let second = 0;
  /** What the hub refused of the gateway's reports (none is expected). */
  const refused: string[] = [];

  beforeAll(async () => {
    t = await testApp({}, { hub: true, deliver: true, forwarding: { ...defaultForwardingSettings, allowPrivateNetworks: true, pollMs: 50 } });
    const baseUrl = await t.listen();
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-forwarding-'));
    organizationHashId = (await buildOrganization(t.services)).hashId;
    groupHashId = (await buildDeviceGroup(t.services, { organizationHashId })).hashId;
    const device = await buildDevice(t.services, { organizationHashId, deviceGroupHashId: groupHashId, config: exampleDeviceConfig, inProduction: true });
    deviceHashId = device.hashId;
    const identity = await provision({
      baseUrl,
      token: device.provisioningToken,
      identifier: `gw-forwarding-${device.id}`,
      directory: path.join(folder, 'identity'),
    });
    gateway = new GatewayClient({
      baseUrl,
      identity,
      storeDirectory: path.join(folder, 'reports'),
      minBackoffMs: 100,
      maxBackoffMs: 500,
      onError: (error) => refused.push(`${error.key}: ${error.message} ${JSON.stringify(error.details ?? null)}`),
    });
    await gateway.start();
    await gateway.connected();
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await t?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const at = () => {
    second += 1;
    return new Date(Date.now() - 3_600_000 + second * 1000).toISOString();
  };
  const meterPower = (activePower: number) => ({
    type: 'meterPower',
    at: at(),
    asset: meterAsset,
    observations: {
      activePower,
      reactivePower: 12.5,
      apparentPower: activePower,
      powerFactor: 0.99,
      frequency: 50.01,
      phaseVoltage: { l1: 230.1, l2: 231, l3: 229.4 },
      phaseCurrent: { l1: 2.2, l2: 2.1, l3: 2.3 },
      energyImport: 120_000 + activePower,
      energyExport: 5_000,
      connectionStatistics: { success: 10, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 },
    },
  });

  /** Sends reports the destination takes (meterPower, alarm) and one it does not (meterPower.flash); answers what it should receive. */
  async function sendReports(): Promise<ReceivedMessage[]> {
    const expected: ReceivedMessage[] = [];
    for (let index = 0; index < 6; index += 1) {
      const report = meterPower(1000 + index);
      const id = await gateway.report(report);
      expected.push({ messageType: 'meterPower', id, position: '', deviceHashId, at: report.at, values: report.observations });
      if (index === 2) {
        await gateway.report({ type: 'meterPower.flash', at: at(), asset: meterAsset, observations: { activePower: 5 } });
        const alarm = { type: 'alarm', at: at(), asset: meterAsset, observations: { code: 'E042', level: 'warning', active: true } };
        const alarmId = await gateway.report(alarm);
        expected.push({ messageType: 'alarm', id: alarmId, position: '', deviceHashId, at: alarm.at, values: alarm.observations });
      }
    }
    await gateway.drained();
    expect(refused).toEqual([]);
    return expected;
  }

  const comparable = (message: ReceivedMessage) => ({
    messageType: message.messageType,
    id: message.id,
    deviceHashId: message.deviceHashId,
    at: new Date(message.at).toISOString(),
  });

  describe.each(destinationKinds.map((kind) => [kind] as const))('%s', (kind: DestinationKind) => {
    const starter = forwardingPeers[kind];
    const missing = starter.missing();
    if (missing !== null && !requireServices) {
      process.stderr.write(`server/forwarding.test.ts: ${kind} skipped: ${missing} (REQUIRE_SERVICES=1 makes this a failure)\n`);
    }
    const run = missing === null || requireServices ? it : it.skip;

    run(
      'delivers the reports of the group’s device in production, of the forwarded types, in order, and reads them back',
      async () => {
        const peer = await starter.start();
        let forwardingHashId: string | null = null;
        try {
          const destination = await t.services.messageDestinations.create(staff, {
            name: `E2E ${kind}`,
            organizationHashId,
            outageEmails: [],
            outageUsersHashIds: [],
            destination: { type: kind, ...peer.settings } as MessageDestinationCreate['destination'],
            monitorSettings: { enabled: true, maxLagSeconds: null },
          });
          forwardingHashId = (
            await t.services.groupForwarding.add(staff, {
              deviceGroupHashId: groupHashId,
              messageDestinationHashId: destination.hashId,
              messageTypes: ['meterPower', 'alarm'],
              settings: { minIntervalSeconds: 0 },
            })
          ).hashId;
          const expected = await sendReports();
          const received = await eventually(`${expected.length} messages at the ${kind} peer`, async () => {
            // Every peer starts empty: what it holds is what this destination got, from its start on.
            const now = await peer.received();
            if (now.length >= expected.length) {
              return now;
            }
            const { health } = await t.services.messageDestinations.get(staff, destination.hashId);
            const stored = await t.database.db('device_reports').select('type', 'seq', 'report_id').orderBy('seq');
            throw new Error(`${now.length} so far; health ${JSON.stringify(health)}; stored ${JSON.stringify(stored)}`);
          });
          // Every message once; a medium that keeps streams apart (Loki's labels) gives them back by stream, so compare in position order.
          const byPosition = [...received].sort((a, b) => (BigInt(a.position) < BigInt(b.position) ? -1 : 1));
          expect(byPosition.map(comparable)).toEqual(expected.map(comparable));
          for (const [index, message] of byPosition.entries()) {
            if (message.values !== undefined) {
              expect(message.values).toEqual(expected[index]?.values);
            }
          }
          // In order per device and message type, as every medium keeps them.
          for (const type of ['meterPower', 'alarm']) {
            const positions = received.filter((message) => message.messageType === type).map((message) => BigInt(message.position));
            expect([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(positions);
          }
          const health = await eventually('the lag at zero', async () => {
            const view = await t.services.messageDestinations.get(staff, destination.hashId);
            return view.health.lagReports === 0 ? view.health : null;
          });
          expect(health).toMatchObject({ state: 'active', lastError: null });
          expect(health.deliveredCount).toBe(expected.length);
        } finally {
          if (forwardingHashId) {
            await t.services.groupForwarding.remove(staff, forwardingHashId);
          }
          await peer.stop();
        }
      },
      120_000,
    );
  });
});

/** Where each kind would connect, for the refusals: an IP literal on the loopback. */
const loopbackSettings: Record<DestinationKind, Record<string, unknown>> = {
  mysql: { host: '127.0.0.1', database: 'd', username: 'u' },
  mssql: { host: '127.0.0.1', database: 'd', username: 'u' },
  postgres: { host: '127.0.0.1', database: 'd', username: 'u' },
  influxdb: { url: 'http://127.0.0.1:8086', database: 'd' },
  amqp: { host: '127.0.0.1', username: 'u' },
  'azure-service-bus': { host: '127.0.0.1', entityPath: 'q', sharedAccessKeyName: 'k', sharedAccessKey: 's' },
  'grafana-loki': { url: 'http://127.0.0.1:3100' },
  'aws-simple-notification-service': {
    region: 'eu-west-1',
    topicArn: 'arn:aws:sns:eu-west-1:123456789012:t',
    accessKeyId: 'a',
    secretAccessKey: 's',
    endpoint: 'http://169.254.169.254',
  },
  sftp: { host: '127.0.0.1', username: 'u', format: 'qos' },
  ftps: { host: '10.0.0.1', username: 'u', format: 'synaptiq' },
  http: { url: 'http://[::1]:8080/in' },
  kafka: { brokers: ['127.0.0.1:9092'], topic: 't' },
};

describe('forwarding refuses private addresses when saved (FORWARDING_ALLOW_PRIVATE_NETWORKS off)', () => {
  let t: TestApp;
  let organizationHashId: string;

  beforeAll(async () => {
    t = await testApp();
    organizationHashId = (await buildOrganization(t.services)).hashId;
  });

  afterAll(async () => {
    await t.close();
  });

  it.each(destinationKinds.map((kind) => [kind] as const))('%s', async (kind) => {
    const refused = t.services.messageDestinations.create(staff, {
      name: `Private ${kind}`,
      organizationHashId,
      outageEmails: [],
      outageUsersHashIds: [],
      destination: { type: kind, ...loopbackSettings[kind] } as MessageDestinationCreate['destination'],
      monitorSettings: { enabled: true, maxLagSeconds: null },
    });
    await expect(refused).rejects.toBeInstanceOf(GridportError);
    await expect(refused).rejects.toMatchObject({ key: 'destination_address_not_allowed' });
  });
});
