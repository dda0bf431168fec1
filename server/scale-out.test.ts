import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { reachable, requireServices } from '../test-support/services';
import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createClient as createGraphqlWsClient, type Client as GraphqlWsClient } from 'graphql-ws';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import WebSocket from 'ws';
import { exampleDeviceConfig } from '../contracts/device';
import { GatewayClient, type IncomingMessage } from '../edge/gateway-client/client';
import { provision } from '../edge/gateway-client/provision';
import { projectRoot } from './version';
import { buildServer, freePort } from '../test-support/server-process';

/**
 * Scale-out (issue 5, item 7): two server processes on one PostgreSQL database and one Redis.
 * A gateway connected to the first; a live subscriber on the second sees its reports, and a
 * schedule written through the second reaches the gateway on the first.
 */

const run = promisify(execFile);
const root = projectRoot();
const postgresServer = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

const missing = [
  ...(reachable(postgresServer, 5432) ? [] : [`PostgreSQL at ${new URL(postgresServer).host}`]),
  ...(reachable(redisUrl, 6379) ? [] : [`Redis at ${new URL(redisUrl).host}`]),
];
if (missing.length > 0 && !requireServices) {
  process.stderr.write(`scale-out.test.ts: skipped, ${missing.join(' and ')} unreachable (REQUIRE_SERVICES=1 makes this a failure)\n`);
}
const describeWithServices = missing.length === 0 || requireServices ? describe : describe.skip;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` holds; rejects with `what` after `timeoutMs`. */
async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await sleep(5);
  }
}

/** A port nobody listens on now. */
interface Node {
  url: string;
  process: ChildProcess;
  stdout: string;
  stderr: string;
}

/** A live event as a subscriber on a node got it: `event:` and `data:` of a server-sent event. */
interface LiveEvent {
  event: string;
  data: string;
  receivedAt: number;
}

describeWithServices('two server processes on one PostgreSQL and one Redis', () => {
  const database = `gridport_scale_out_${randomBytes(4).toString('hex')}`;
  const databaseUrl = (() => {
    const url = new URL(postgresServer);
    url.pathname = `/${database}`;
    return url.toString();
  })();
  const folder = mkdtempSync(path.join(tmpdir(), 'gridport-scale-out-'));
  // Every node (and the command line) of one install shares these.
  const secrets = {
    SESSION_SECRET: randomBytes(32).toString('hex'),
    HASH_ID_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
  // The nodes' own Redis prefix: other tests' servers on the same Redis (another jest worker) are another install.
  const redisPrefix = `gridport-scale-out-${randomBytes(4).toString('hex')}:`;
  const environment = (dataDir: string, extra: Record<string, string> = {}) => ({
    PATH: process.env.PATH ?? '',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    GRIDPORT_DEMO: 'false',
    GRIDPORT_DATA_DIR: dataDir,
    ...secrets,
    ...extra,
  });

  let admin: Client | null = null;
  /** The test database, for what the nodes do not offer. */
  let db: Client | null = null;
  const identifier = `gw-scale-out-${randomBytes(3).toString('hex')}`;
  /** The messages the gateway applied, as they came. */
  const received: (IncomingMessage & { receivedAt: number })[] = [];
  /** What the cloud refused, and connection trouble, as the gateway heard it. */
  const gatewayErrors: unknown[] = [];
  const nodes: Node[] = [];
  const clients: GatewayClient[] = [];
  const streams: AbortController[] = [];
  const graphqlClients: GraphqlWsClient[] = [];
  let organizationHashId = '';
  let deviceHashId = '';
  let provisioningToken = '';
  let cookie = '';
  let apiKey = '';

  /** Runs the compiled command line against the test database; answers its JSON output. */
  async function gridport(...argv: string[]): Promise<Record<string, string>> {
    const { stdout } = await run(process.execPath, [path.join(root, 'bin', 'gridport.js'), ...argv, '--json'], { env: environment(path.join(folder, 'cli')) });
    return JSON.parse(stdout) as Record<string, string>;
  }

  /** Starts `node dist/server/main.js` as a node of the cluster and waits for /v1/health. */
  async function startNode(name: string): Promise<Node> {
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(root, 'dist', 'server', 'main.js')], {
      env: environment(path.join(folder, name), { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const node: Node = { url: `http://127.0.0.1:${port}`, process: child, stdout: '', stderr: '' };
    child.stdout?.on('data', (chunk: Buffer) => {
      node.stdout += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      node.stderr += chunk.toString('utf8');
    });
    nodes.push(node);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${name} exited with ${child.exitCode ?? child.signalCode}: ${node.stderr}`);
      }
      try {
        if ((await fetch(`${node.url}/v1/health`)).status === 204) {
          return node;
        }
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`${name} did not answer /v1/health within 30 s: ${node.stderr}`);
  }

  async function stopNode(node: Node): Promise<number | null> {
    if (node.process.exitCode !== null || node.process.signalCode !== null) {
      return node.process.exitCode;
    }
    const exited = new Promise<number | null>((resolve) => node.process.once('exit', (code) => resolve(code)));
    node.process.kill('SIGTERM');
    return exited;
  }

  /**
   * Subscribes to the device's stored reports on `node`: through its server-sent events
   * (`GET /console-admin/v1/device/{hashId}/server-sent-events`), or, while that route is not
   * served (404), through the GraphQL subscription deviceReports over graphql-ws.
   */
  async function liveReports(node: Node, hashId: string): Promise<{ via: string; events: LiveEvent[] }> {
    const controller = new AbortController();
    streams.push(controller);
    const response = await fetch(`${node.url}/console-admin/v1/device/${hashId}/server-sent-events`, {
      headers: { cookie, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (response.status === 404) {
      // The app's answer to a route it does not serve names the method and path.
      const body = (await response.json()) as { key?: string; details?: { method?: string } };
      if (body.key === 'not_found' && body.details?.method === 'GET') {
        return { via: 'graphql-ws', events: graphqlReports(node, hashId) };
      }
      throw new Error(`GET /console-admin/v1/device/{hashId}/server-sent-events answered 404: ${JSON.stringify(body)}`);
    }
    if (response.status !== 200 || !response.body) {
      throw new Error(`GET /console-admin/v1/device/{hashId}/server-sent-events answered ${response.status}: ${await response.text()}`);
    }
    const events: LiveEvent[] = [];
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) {
          return;
        }
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const field = (name: string) =>
            block
              .split('\n')
              .filter((line) => line.startsWith(`${name}:`))
              .map((line) => line.slice(name.length + 1).trimStart())
              .join('\n');
          events.push({ event: field('event') || 'message', data: field('data'), receivedAt: Date.now() });
          end = buffer.indexOf('\n\n');
        }
      }
    })();
    return { via: 'server-sent events', events };
  }

  /** `subscription { deviceReports(hashId) { type at } }` over graphql-ws on `node`, its results as live events. */
  function graphqlReports(node: Node, hashId: string): LiveEvent[] {
    const events: LiveEvent[] = [];
    const client = createGraphqlWsClient({
      url: `${node.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols, { headers: { cookie } });
        }
      },
      lazy: false,
      retryAttempts: 0,
    });
    graphqlClients.push(client);
    client.subscribe<{ deviceReports: { type: string; at: string } }>(
      { query: 'subscription ($hashId: ID!) { deviceReports(hashId: $hashId) { type at } }', variables: { hashId } },
      {
        next: (result) => {
          if (result.data) {
            events.push({ event: 'report', data: JSON.stringify(result.data.deviceReports), receivedAt: Date.now() });
          } else {
            events.push({ event: 'error', data: JSON.stringify(result.errors), receivedAt: Date.now() });
          }
        },
        error: (error) => events.push({ event: 'error', data: JSON.stringify(error instanceof Error ? error.message : error), receivedAt: Date.now() }),
        complete: () => undefined,
      },
    );
    return events;
  }

  beforeAll(async () => {
    if (missing.length > 0) {
      throw new Error(`${missing.join(' and ')} unreachable, and REQUIRE_SERVICES is set`);
    }
    admin = new Client({ connectionString: postgresServer });
    await admin.connect();
    await admin.query(`create database "${database}"`);
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
    // The nodes run the compiled server, as `npm start` does: build it (incrementally) first.
    await buildServer();

    await gridport('migrate');
    const provider = await gridport('org', 'provider');
    organizationHashId = (await gridport('org', 'create', '--name', 'Scale Out BV', '--type', 'energy-trader')).hashId ?? '';
    await gridport('user', 'create', '--org', provider.hashId ?? '', '--email', 'ops@scale-out.example.com', '--name', 'Ops', '--rights', 'gridport.ops');
    cookie = (await gridport('session', 'create', '--email', 'ops@scale-out.example.com')).cookie ?? '';
    apiKey = (await gridport('api-key', 'create', '--org', organizationHashId, '--name', 'Trading')).apiKey ?? '';
    const shipped = await gridport('device', 'ship', '--org', organizationHashId, '--name', 'Scale-out gateway');
    deviceHashId = shipped.hashId ?? '';
    provisioningToken = shipped.provisioningToken ?? '';

    await Promise.all([startNode('node-1'), startNode('node-2')]);
  }, 120_000);

  afterAll(async () => {
    for (const controller of streams) {
      controller.abort();
    }
    await Promise.all(graphqlClients.map((client) => client.dispose()));
    await Promise.all(clients.map((client) => client.stop()));
    const codes = await Promise.all(nodes.map(stopNode));
    await db?.end();
    if (admin) {
      await admin.query(`drop database if exists "${database}" with (force)`);
      await admin.end();
    }
    rmSync(folder, { recursive: true, force: true });
    expect(codes).toEqual(nodes.map(() => 0));
  }, 30_000);

  it('a gateway on node 1: reports reach a subscriber on node 2 within a second, and a schedule written through node 2 reaches the gateway', async () => {
    const [first, second] = nodes;
    if (!first || !second) {
      throw new Error('the nodes did not start');
    }
    for (const node of nodes) {
      expect(node.stdout).toContain('"pubsub":"redis"');
      expect(node.stdout).toContain(`"prefix":"${redisPrefix}"`);
      expect(node.stdout).toContain('pub/sub through Redis, across nodes');
    }

    // The device is made steerable through node 2 (which also queues a setConfig), with the
    // shortest keep-alive, so the outbox re-check of each tick comes soon (see the next test).
    const config = { ...exampleDeviceConfig, cloudKeepAliveIntervalInSec: 5 };
    const updated = await fetch(`${second.url}/console-admin/v1/device/${deviceHashId}`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ config, isExposedToCustomer: true, cloudApi: 'READ_WRITE' }),
    });
    expect(updated.status).toBe(200);

    const identity = await provision({ baseUrl: first.url, token: provisioningToken, identifier, directory: path.join(folder, 'gateway', 'identity') });
    const gateway = new GatewayClient({
      baseUrl: first.url,
      identity,
      storeDirectory: path.join(folder, 'gateway', 'reports'),
      networkInterface: 'eth0',
      minBackoffMs: 50,
      onMessage: (message) => void received.push({ ...message, receivedAt: Date.now() }),
      onError: (error) => void gatewayErrors.push(error),
    });
    clients.push(gateway);
    await gateway.start();
    await gateway.connected();
    expect(gateway.keepAliveSeconds).toBe(5);
    // Its attempt was counted in Redis, where every node counts the device's reconnects (keyed by its certificate's fingerprint).
    const counts = new Redis(redisUrl);
    try {
      const key = `${redisPrefix}reconnect-throttle:${createHash('sha256').update(new X509Certificate(identity.certificatePem).raw).digest('hex')}`;
      expect(Number(await counts.get(key))).toBeGreaterThanOrEqual(1);
      expect(await counts.pttl(key)).toBeGreaterThan(0);
    } finally {
      counts.disconnect();
    }
    await until(
      'the setConfig queued before the gateway connected',
      () => received.some((message) => (message.payload as { type: string }).type === 'setConfig'),
      5000,
    );

    // Live: node 2 streams what node 1 stores. The first report waits for the subscription to
    // be in place (the stream does not say when it is); the ones after it are timed.
    const { via, events } = await liveReports(second, deviceHashId);
    const report = (at: string, activePower: number) => ({
      type: 'meterPower',
      at,
      asset: 2,
      observations: {
        activePower,
        reactivePower: 10,
        frequency: 50,
        phaseVoltage: { l1: 230, l2: 231, l3: 229 },
        connectionStatistics: { success: 10, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 },
      },
    });
    const seenOnNode2 = (at: string) => events.some((event) => event.event === 'report' && event.data.includes(at));
    const firstAt = new Date(Date.now() - 2000).toISOString();
    await gateway.report(report(firstAt, 1400));
    await until(
      `the first report on node 2 (through ${via}; events so far: ${JSON.stringify(events)}; gateway errors: ${JSON.stringify(gatewayErrors)})`,
      () => seenOnNode2(firstAt),
      5000,
    );
    const latencies: number[] = [];
    for (let tick = 0; tick < 3; tick += 1) {
      const at = new Date(Date.now() - 1000 + tick).toISOString();
      const sentAt = Date.now();
      await gateway.report(report(at, 1500 + tick));
      await until(`report ${at} on node 2 through ${via}`, () => seenOnNode2(at), 1000);
      const seen = events.find((event) => event.event === 'report' && event.data.includes(at));
      expect(JSON.parse(seen?.data ?? '{}')).toMatchObject({ type: 'meterPower', at });
      expect(events.filter((event) => event.data.includes(at))).toHaveLength(1);
      latencies.push((seen?.receivedAt ?? Infinity) - sentAt);
    }
    await gateway.drained();
    expect(Math.max(...latencies)).toBeLessThan(1000);

    // Steering through node 2 reaches the gateway on node 1.
    const startAt = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    const endAt = new Date(Date.now() + 2 * 60 * 60 * 1000).toISOString();
    const writtenAt = Date.now();
    const scheduled = await fetch(`${second.url}/v2/schedule`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ assetIdentifiers: ['pv-roof'], schedule: [{ startAt, endAt, command: { type: 'limitProductionPower', percentage: 50 } }] }),
    });
    expect(scheduled.status).toBe(201);
    await until('the schedule at the gateway', () => received.some((message) => (message.payload as { type: string }).type === 'setAssetSchedule'), 2000);
    const schedule = received.find((message) => (message.payload as { type: string }).type === 'setAssetSchedule');
    expect(schedule?.payload).toMatchObject({
      type: 'setAssetSchedule',
      assetIndex: 0,
      schedule: [{ startAt, endAt, command: { type: 'limitProductionPower', percentage: 50 } }],
    });
    expect((schedule?.receivedAt ?? Infinity) - writtenAt).toBeLessThan(2000);
  }, 30_000);

  it('a message whose notification was lost still reaches the gateway, at the next keep-alive tick', async () => {
    if (!db) {
      throw new Error('the database is not open');
    }
    // Written behind the hub's back: no notification on any channel, as when Redis drops one.
    const device = await db.query<{ id: string }>('select id from devices where identifier = $1', [identifier]);
    const inserted = await db.query<{ id: string }>(
      `insert into device_outbox (device_id, type, payload) values ($1, 'getSignalQuality', '{"type":"getSignalQuality"}') returning id`,
      [device.rows[0]?.id],
    );
    const id = String(inserted.rows[0]?.id);
    const writtenAt = Date.now();
    await until('the silently queued message at the gateway', () => received.some((message) => message.id === id), 7000);
    const arrived = received.find((message) => message.id === id);
    expect(arrived?.payload).toEqual({ type: 'getSignalQuality' });
    // Within one keep-alive interval (5 s) and a little.
    expect((arrived?.receivedAt ?? Infinity) - writtenAt).toBeLessThan(6500);
  }, 15_000);
});
