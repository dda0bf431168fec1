import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { exampleDeviceConfig } from '../contracts/device';
import { GatewayClient } from '../edge/gateway-client/client';
import { provision } from '../edge/gateway-client/provision';
import { testApp, type TestApp } from '../test-support/app';
import { anOrganization, buildDevice } from '../test-support/factories';

const statistics = { success: 1, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };

interface Result {
  data?: Record<string, Record<string, unknown>> | null;
  errors?: readonly { message: string; extensions?: { code?: string } }[];
}

/** Live device data over graphql-ws at /graphql, with the same rights as queries. */
describe('GraphQL subscriptions over graphql-ws', () => {
  let t: TestApp;
  let wsUrl: string;
  let baseUrl: string;
  let folder: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await testApp({}, { graphql: true, hub: true });
    baseUrl = await t.listen();
    wsUrl = `${baseUrl.replace('http', 'ws')}/graphql`;
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-graphql-ws-'));
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** A graphql-ws client whose upgrade carries these headers. */
  function client(headers: Record<string, string>): Client {
    class WithHeaders extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers });
      }
    }
    const created = createClient({ url: wsUrl, webSocketImpl: WithHeaders, retryAttempts: 0, lazy: true });
    clients.push(created);
    return created;
  }

  /** Subscribes and collects results until `count` came (or an error ended it). */
  function collect(subscriber: Client, query: string, count: number): Promise<Result[]> {
    return new Promise((resolve) => {
      const results: Result[] = [];
      const stop = subscriber.subscribe(
        { query },
        {
          next: (value) => {
            results.push(value as Result);
            if (results.length >= count) {
              stop();
              resolve(results);
            }
          },
          error: (error) =>
            resolve([
              ...results,
              { errors: Array.isArray(error) ? (error as Result['errors']) : [{ message: String((error as { reason?: string }).reason ?? error) }] },
            ]),
          complete: () => resolve(results),
        },
      );
    });
  }

  it("streams a device's presence and reports to someone who may see it, and refuses everyone else", async () => {
    const { hashId: organizationHashId } = await anOrganization(t.services, { name: 'Subscribed BV' });
    const { hashId: otherHashId } = await anOrganization(t.services, { name: 'Not Subscribed BV' });
    const { hashId, provisioningToken } = await buildDevice(t.services, {
      organizationHashId,
      name: 'Subscribed gateway',
      config: exampleDeviceConfig,
      isExposedToCustomer: true,
    });
    const ops = await t.signIn(['gridport.ops']);
    const identity = await provision({ baseUrl, token: provisioningToken, identifier: 'gw-subscribed', directory: path.join(folder, 'identity') });

    const owner = client({ cookie: await t.signIn(['customer.read'], organizationHashId) });
    const presence = collect(owner, `subscription { devicePresence(hashId: "${hashId}") { deviceHashId online networkInterface } }`, 1);
    const reports = collect(
      client({ cookie: ops }),
      `subscription { deviceReports(hashId: "${hashId}", types: ["meterPower"]) { deviceHashId type at assetIndex body } }`,
      2,
    );
    const stranger = collect(
      client({ cookie: await t.signIn(['customer.write'], otherHashId) }),
      `subscription { deviceReports(hashId: "${hashId}") { type } }`,
      1,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));

    const gateway = new GatewayClient({ baseUrl, identity, storeDirectory: path.join(folder, 'reports'), networkInterface: 'eth1', minBackoffMs: 50 });
    await gateway.start();
    await gateway.connected();
    const at = new Date().toISOString();
    await gateway.report({ type: 'batteryPower', at, asset: 3, observations: { activePower: 10, connectionStatistics: statistics } });
    await gateway.report({ type: 'meterPower', at, asset: 2, observations: { activePower: 1, connectionStatistics: statistics } });
    await gateway.report({ type: 'meterPower', at, asset: 15, observations: { activePower: 2, connectionStatistics: statistics } });

    expect((await presence).map((result) => result.data?.devicePresence)).toEqual([{ deviceHashId: hashId, online: true, networkInterface: 'eth1' }]);
    const received = (await reports).map((result) => result.data?.deviceReports);
    expect(received.map((event) => [event?.type, event?.assetIndex])).toEqual([
      ['meterPower', 2],
      ['meterPower', 15],
    ]);
    expect(received[0]).toMatchObject({ deviceHashId: hashId, at, body: { observations: { activePower: 1 } } });
    expect((await stranger)[0]?.errors?.[0]?.extensions?.code).toBe('not_found');
    await gateway.stop();
  });

  it('refuses an anonymous connection, a refused credential, and a session cookie sent from another site', async () => {
    const anonymous = await collect(client({}), 'subscription { devicePresence(hashId: "x") { online } }', 1);
    expect(anonymous[0]?.errors).toBeDefined();

    const upgrade = (headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(wsUrl, 'graphql-transport-ws', { headers });
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        socket.on('open', () => {
          socket.close();
          resolve(101);
        });
      });
    expect(await upgrade({ authorization: 'Bearer gp_not_a_key' })).toBe(401);
    const cookie = await t.signIn(['gridport.ops']);
    expect(await upgrade({ cookie, origin: 'https://evil.example' })).toBe(403);
    expect(await upgrade({ cookie, origin: baseUrl })).toBe(101);
  });
});
