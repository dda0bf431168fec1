import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { exampleDeviceConfig } from '../contracts/device';
import { GatewayClient } from '../edge/gateway-client/client';
import { provision } from '../edge/gateway-client/provision';
import { reachable, requireServices } from '../test-support/services';
import { buildServer, freePort, gridportJson, startServerProcess, type ServerProcess } from '../test-support/server-process';

/**
 * Issue 14, item 4: a server killed (SIGKILL) with a gateway connected, the gateway never back.
 * The device must read offline, in the admin and the customer device lists, within the
 * documented bound (docs/operations.md, "Presence"): at once when the node restarts where it
 * served, and within HUB_LEASE_SECONDS + HUB_HEARTBEAT_SECONDS through another node's sweep.
 */

const postgresServer = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const missing = [
  ...(reachable(postgresServer, 5432) ? [] : [`PostgreSQL at ${new URL(postgresServer).host}`]),
  ...(reachable(redisUrl, 6379) ? [] : [`Redis at ${new URL(redisUrl).host}`]),
];
if (missing.length > 0 && !requireServices) {
  process.stderr.write(`presence.test.ts: skipped, ${missing.join(' and ')} unreachable (REQUIRE_SERVICES=1 makes this a failure)\n`);
}
const describeWithServices = missing.length === 0 || requireServices ? describe : describe.skip;

/** Short bounds, so the test runs in seconds: a device of a dead node is offline within lease + heartbeat. */
const heartbeatSeconds = 1;
const leaseSeconds = 3;
const boundMs = (leaseSeconds + heartbeatSeconds) * 1000;
/** Slack for a loaded machine (two cores, other tests) on top of the bound: the server processes' scheduling, not the design. */
const slackMs = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Presence {
  isOnline: boolean;
  activeSession: { networkInterface: string | null } | null;
}

describeWithServices('presence after a node is killed with a gateway connected', () => {
  const database = `gridport_presence_${randomBytes(4).toString('hex')}`;
  const databaseUrl = (() => {
    const url = new URL(postgresServer);
    url.pathname = `/${database}`;
    return url.toString();
  })();
  const folder = mkdtempSync(path.join(tmpdir(), 'gridport-presence-'));
  const secrets = {
    SESSION_SECRET: randomBytes(32).toString('hex'),
    HASH_ID_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
  const redisPrefix = `gridport-presence-${randomBytes(4).toString('hex')}:`;
  const environment = (name: string, redis: boolean, lease = leaseSeconds): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH ?? '',
    DATABASE_URL: databaseUrl,
    // The nodes' own Redis prefix: other tests' servers on the same Redis (another jest worker) are another install.
    ...(redis ? { REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix } : {}),
    GRIDPORT_DEMO: 'false',
    GRIDPORT_DATA_DIR: path.join(folder, name),
    LOG_LEVEL: 'info',
    HUB_HEARTBEAT_SECONDS: String(heartbeatSeconds),
    HUB_LEASE_SECONDS: String(lease),
    ...secrets,
  });
  let admin: Client | null = null;
  let organizationHashId = '';
  let staff = '';
  let customer = '';
  const servers: ServerProcess[] = [];
  const clients: GatewayClient[] = [];
  let gateways = 0;

  const cli = (...argv: string[]) => gridportJson(environment('cli', false), ...argv);

  beforeAll(async () => {
    if (missing.length > 0) {
      throw new Error(`${missing.join(' and ')} unreachable, and REQUIRE_SERVICES is set`);
    }
    admin = new Client({ connectionString: postgresServer });
    await admin.connect();
    await admin.query(`create database "${database}"`);
    await buildServer();
    await cli('migrate');
    const provider = await cli('org', 'provider');
    organizationHashId = (await cli('org', 'create', '--name', 'Presence BV', '--type', 'asset-owner')).hashId ?? '';
    await cli('user', 'create', '--org', provider.hashId ?? '', '--email', 'ops@presence.example.com', '--name', 'Ops', '--rights', 'gridport.ops');
    await cli('user', 'create', '--org', organizationHashId, '--email', 'owner@presence.example.com', '--name', 'Owner', '--rights', 'customer.read');
    staff = (await cli('session', 'create', '--email', 'ops@presence.example.com')).cookie ?? '';
    customer = (await cli('session', 'create', '--email', 'owner@presence.example.com')).cookie ?? '';
  }, 180_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.stop()));
    for (const server of servers) {
      server.process.kill('SIGKILL');
      await server.exited();
    }
    if (admin) {
      await admin.query(`drop database if exists "${database}" with (force)`);
      await admin.end();
    }
    rmSync(folder, { recursive: true, force: true });
  }, 30_000);

  async function start(name: string, port: number, redis: boolean, lease = leaseSeconds): Promise<ServerProcess> {
    const server = await startServerProcess(environment(name, redis, lease), port);
    servers.push(server);
    return server;
  }

  async function killHard(server: ServerProcess): Promise<void> {
    server.process.kill('SIGKILL');
    await server.exited();
  }

  /** A device shipped, configured and shown to its customer, and a real gateway connected to `server` for it. */
  async function connectedGateway(server: ServerProcess): Promise<{ hashId: string; client: GatewayClient }> {
    gateways += 1;
    const shipped = await cli('device', 'ship', '--org', organizationHashId, '--name', `Presence gateway ${gateways}`);
    const hashId = shipped.hashId ?? '';
    const updated = await fetch(`${server.url}/console-admin/v1/device/${hashId}`, {
      method: 'PUT',
      headers: { cookie: staff, 'content-type': 'application/json' },
      body: JSON.stringify({ config: exampleDeviceConfig, isExposedToCustomer: true }),
    });
    expect(updated.status).toBe(200);
    const directory = path.join(folder, `gateway-${gateways}`);
    const identity = await provision({
      baseUrl: server.url,
      token: shipped.provisioningToken ?? '',
      identifier: `gw-presence-${gateways}-${randomBytes(3).toString('hex')}`,
      directory: path.join(directory, 'identity'),
    });
    const client = new GatewayClient({
      baseUrl: server.url,
      identity,
      storeDirectory: path.join(directory, 'reports'),
      networkInterface: 'cellular',
      minBackoffMs: 50,
      maxBackoffMs: 200,
    });
    clients.push(client);
    await client.start();
    await client.connected();
    return { hashId, client };
  }

  /** The device as each list shows it on `server`: admin REST, customer REST, and GraphQL for staff and for the customer. */
  async function presenceEverywhere(server: ServerProcess, hashId: string): Promise<Record<string, Presence | { errors: unknown } | undefined>> {
    const rest = async (url: string, cookie: string) => {
      const response = await fetch(`${server.url}${url}`, { headers: { cookie } });
      expect(response.status).toBe(200);
      const page = (await response.json()) as { rows: ({ hashId: string } & Presence)[] };
      const row = page.rows.find((candidate) => candidate.hashId === hashId);
      return row ? { isOnline: row.isOnline, activeSession: row.activeSession } : undefined;
    };
    const graphql = async (cookie: string, filter: string) => {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ query: `query { devices(${filter}rowsPerPage: 500) { rows { hashId isOnline activeSession { networkInterface } } } }` }),
      });
      const body = (await response.json()) as { data?: { devices: { rows: ({ hashId: string } & Presence)[] } }; errors?: unknown };
      const row = body.data?.devices.rows.find((candidate) => candidate.hashId === hashId);
      return row ? { isOnline: row.isOnline, activeSession: row.activeSession } : { errors: body.errors };
    };
    return {
      adminRest: await rest(`/console-admin/v1/device?hashId=${hashId}`, staff),
      customerRest: await rest('/console/v1/device?rowsPerPage=500', customer),
      adminGraphql: await graphql(staff, `hashId: "${hashId}", `),
      customerGraphql: await graphql(customer, ''),
    };
  }

  const everywhere = (presence: Presence) => ({ adminRest: presence, customerRest: presence, adminGraphql: presence, customerGraphql: presence });
  const online = everywhere({ isOnline: true, activeSession: { networkInterface: 'cellular' } });
  const offline = everywhere({ isOnline: false, activeSession: null });

  /** Polls until every list shows the device offline; answers how long that took, or fails after `withinMs`. */
  async function offlineWithin(server: ServerProcess, hashId: string, withinMs: number): Promise<number> {
    const since = Date.now();
    for (;;) {
      const seen = await presenceEverywhere(server, hashId);
      if (JSON.stringify(seen) === JSON.stringify(offline)) {
        return Date.now() - since;
      }
      if (Date.now() - since > withinMs) {
        expect(seen).toEqual(offline);
      }
      await sleep(100);
    }
  }

  it('one node: restarted where it served, it shows the device offline at once, in every list, long before the lease would run out', async () => {
    // A lease far longer than the restart takes: only the start's sweep of this host and port's earlier node can set the device offline.
    const longLease = 600;
    const port = await freePort();
    const node = await start('single', port, false, longLease);
    const { hashId, client } = await connectedGateway(node);
    expect(await presenceEverywhere(node, hashId)).toEqual(online);

    await killHard(node);
    // The gateway never comes back.
    await client.stop();
    const restarted = await start('single', port, false, longLease);
    const tookMs = await offlineWithin(restarted, hashId, slackMs);
    process.stdout.write(`presence: one node restarted on its port, the device offline ${tookMs} ms after /v1/health answered (lease ${longLease} s)\n`);
    expect(restarted.output.stdout).toContain('presence: sessions of the node that served here before closed');
    // And it stays so: the restarted node's own heartbeats and sweeps do not bring it back.
    await sleep(boundMs);
    expect(await presenceEverywhere(restarted, hashId)).toEqual(offline);
    await killHard(restarted);
  }, 120_000);

  it("two nodes: the other node sweeps the dead one's device offline within lease + heartbeat, without a restart", async () => {
    const [first, second] = [await start('node-1', await freePort(), true), await start('node-2', await freePort(), true)];
    const { hashId, client } = await connectedGateway(first);
    expect(await presenceEverywhere(second, hashId)).toEqual(online);
    const events: string[] = [];
    const stream = new AbortController();
    const response = await fetch(`${second.url}/console-admin/v1/device/${hashId}/server-sent-events`, {
      headers: { cookie: staff, accept: 'text/event-stream' },
      signal: stream.signal,
    });
    expect(response.status).toBe(200);
    void (async () => {
      const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const chunk = await reader?.read().catch(() => undefined);
        if (!chunk || chunk.done) {
          return;
        }
        events.push(chunk.value);
      }
    })();
    await sleep(300);

    await killHard(first);
    await client.stop();
    const tookMs = await offlineWithin(second, hashId, boundMs + slackMs);
    process.stdout.write(`presence: node 1 killed, node 2 shows the device offline after ${tookMs} ms (bound ${boundMs} ms)\n`);
    expect(second.output.stdout).toContain('presence: sessions of nodes whose lease ran out closed');
    // Subscribers hear it as they hear a disconnect.
    expect(events.join('')).toContain(`"deviceHashId":"${hashId}","online":false,"networkInterface":null`);
    stream.abort();
    await killHard(second);
  }, 120_000);
});
