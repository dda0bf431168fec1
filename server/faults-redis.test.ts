import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { exampleDeviceConfig } from '../contracts/device';
import { GatewayClient, type IncomingMessage } from '../edge/gateway-client/client';
import { provision } from '../edge/gateway-client/provision';
import { meterPowerReport } from '../test-support/fleet';
import {
  postgresBin,
  redisServerInstalled,
  startPrivatePostgres,
  startPrivateRedis,
  type PrivatePostgres,
  type PrivateRedis,
} from '../test-support/private-services';
import { buildServer, freePort, gridportJson, startServerProcess, type ServerProcess } from '../test-support/server-process';
import { requireServices } from '../test-support/services';
import { sleep, until } from '../test-support/until';

/**
 * Faults (issue 21 item 2): Redis lost and back under two nodes, each on a private PostgreSQL
 * and a private redis-server of this test's own (the machine's shared Redis is never killed).
 * A gateway is connected to node 1 and a live stream of its reports is open on node 2. While
 * Redis is away, reports are stored and acknowledged but node 2's stream misses them (the gap
 * docs/operations.md states), and a schedule written through node 2 reaches the gateway at its
 * next keep-alive tick instead of at once; once Redis is back, both resume on their own.
 */

const missing = [...(postgresBin() ? [] : ['postgresql']), ...(redisServerInstalled() ? [] : ['redis-server'])];
if (missing.length > 0 && !requireServices) {
  process.stderr.write(
    `faults-redis.test.ts: skipped, ${missing.join(' and ')} not installed (apt-get install ${missing.join(' ')}; REQUIRE_SERVICES=1 makes this a failure)\n`,
  );
}
const describeWithServices = missing.length === 0 || requireServices ? describe : describe.skip;

const firstReportAt = Math.floor(Date.now() / 1000) * 1000 - 24 * 60 * 60 * 1000;

async function readyz(node: ServerProcess): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${node.url}/readyz`);
  return { status: response.status, body: await response.json() };
}

describeWithServices('Redis lost and back under two nodes', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'gridport-faults-redis-'));
  let postgres: PrivatePostgres | null = null;
  let redis: PrivateRedis | null = null;
  const nodes: ServerProcess[] = [];
  let gateway: GatewayClient | null = null;
  const streams: AbortController[] = [];
  let env: (name: string) => NodeJS.ProcessEnv = () => ({});

  beforeAll(async () => {
    await buildServer();
    [postgres, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('create database gridport');
    await admin.end();
    const databaseUrl = postgres.url.replace(/\/postgres$/, '/gridport');
    const redisUrl = redis.url;
    env = (name) => ({
      PATH: process.env.PATH,
      GRIDPORT_DATA_DIR: path.join(folder, name),
      GRIDPORT_DEMO: 'false',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      // Every node of one install shares these.
      SESSION_SECRET: 'a'.repeat(64),
      HASH_ID_SECRET: 'b'.repeat(64),
      ENCRYPTION_KEY: 'c'.repeat(64),
    });
  }, 120_000);

  afterAll(async () => {
    for (const stream of streams) {
      stream.abort();
    }
    await gateway?.stop();
    for (const node of nodes) {
      if (node.process.exitCode === null && node.process.signalCode === null) {
        node.process.kill('SIGKILL');
        await node.exited();
      }
    }
    await redis?.kill();
    await postgres?.remove();
    rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  it('stores and acknowledges through the outage, and live data and delivery across nodes resume once Redis is back', async () => {
    if (!redis) {
      throw new Error('the private Redis did not start');
    }
    const lostRedis = redis;
    const cli = env('cli');
    await gridportJson(cli, 'migrate');
    const provider = await gridportJson(cli, 'org', 'provider');
    const { hashId: organizationHashId } = await gridportJson(cli, 'org', 'create', '--name', 'Redis Faults BV', '--type', 'energy-trader');
    await gridportJson(cli, 'user', 'create', '--org', provider.hashId ?? '', '--email', 'ops@faults.example.com', '--name', 'Ops', '--rights', 'gridport.ops');
    const { cookie } = await gridportJson(cli, 'session', 'create', '--email', 'ops@faults.example.com');
    const { apiKey } = await gridportJson(cli, 'api-key', 'create', '--org', organizationHashId ?? '', '--name', 'Trading');
    const { hashId: deviceHashId, provisioningToken } = await gridportJson(
      cli,
      'device',
      'ship',
      '--org',
      organizationHashId ?? '',
      '--name',
      'Redis faults gateway',
    );
    const [first, second] = await Promise.all([startServerProcess(env('node-1'), await freePort()), startServerProcess(env('node-2'), await freePort())]);
    nodes.push(first, second);

    // Steerable through node 2, with the shortest keep-alive (the outbox re-check of each tick).
    const updated = await fetch(`${second.url}/console-admin/v1/device/${deviceHashId}`, {
      method: 'PUT',
      headers: { cookie: cookie ?? '', 'content-type': 'application/json' },
      body: JSON.stringify({ config: { ...exampleDeviceConfig, cloudKeepAliveIntervalInSec: 5 }, isExposedToCustomer: true, cloudApi: 'READ_WRITE' }),
    });
    expect(updated.status).toBe(200);

    const received: IncomingMessage[] = [];
    const acknowledged = new Set<string>();
    const identity = await provision({
      baseUrl: first.url,
      token: provisioningToken ?? '',
      identifier: 'gw-faults-redis',
      directory: path.join(folder, 'gateway', 'identity'),
    });
    const client = new GatewayClient({
      baseUrl: first.url,
      identity,
      storeDirectory: path.join(folder, 'gateway', 'reports'),
      minBackoffMs: 50,
      onMessage: (message) => void received.push(message),
      onAcknowledged: (ids) => ids.forEach((id) => acknowledged.add(id)),
    });
    gateway = client;
    await client.start();
    await client.connected();

    // Node 2's live stream of the device's reports.
    const controller = new AbortController();
    streams.push(controller);
    const response = await fetch(`${second.url}/console-admin/v1/device/${deviceHashId}/server-sent-events`, {
      headers: { cookie: cookie ?? '', accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    let streamed = '';
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      for (;;) {
        const { value, done } = (await reader?.read().catch(() => ({ value: undefined, done: true }))) ?? { value: undefined, done: true };
        if (done) {
          return;
        }
        streamed += value;
      }
    })();
    const onNode2 = (at: string) => streamed.includes(`"at":"${at}"`);
    let index = 0;
    const sendReport = async () => {
      const report = meterPowerReport(firstReportAt, index);
      index += 1;
      const id = await client.report(report);
      await until(`report ${id} acknowledged`, () => acknowledged.has(id), 10_000);
      return report.at;
    };
    // The first report may go out before the stream's subscription is in place: send until one shows.
    await until(
      'a report on node 2 before the outage',
      async () => {
        const at = await sendReport();
        await sleep(200);
        return onNode2(at);
      },
      15_000,
    );

    await lostRedis.kill();
    for (const node of nodes) {
      await until('/readyz answering 503', async () => (await readyz(node)).status === 503, 10_000);
      expect((await readyz(node)).body).toMatchObject({
        key: 'service_unavailable',
        details: { failing: ['redis'], checks: { database: 'ok', redis: 'failing' } },
      });
    }

    // The gap: stored and acknowledged on node 1, but node 2's stream does not see it.
    const missedAt = await sendReport();
    // A schedule written through node 2 is in the outbox; its notification cannot cross, so it
    // reaches the gateway at node 1's next keep-alive re-check of the outbox (5 s here).
    const schedule = (hours: number) => {
      const startAt = new Date(Date.now() + hours * 60 * 60 * 1000).toISOString();
      return { startAt, endAt: new Date(Date.now() + (hours + 1) * 60 * 60 * 1000).toISOString(), command: { type: 'limitProductionPower', percentage: 50 } };
    };
    const scheduleApplied = (startAt: string) =>
      received.some((message) => {
        const payload = message.payload as { type: string; schedule?: { startAt: string }[] };
        return payload.type === 'setAssetSchedule' && payload.schedule?.some((entry) => entry.startAt === startAt) === true;
      });
    const duringOutage = schedule(1);
    const written = await fetch(`${second.url}/v2/schedule`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${apiKey ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify({ assetIdentifiers: ['pv-roof'], schedule: [duringOutage] }),
    });
    expect(written.status).toBe(201);
    await until('the schedule written during the outage, at the keep-alive tick', () => scheduleApplied(duringOutage.startAt), 15_000);
    expect(onNode2(missedAt)).toBe(false);
    expect(second.output.stdout).toContain('pub/sub: the Redis connection is down; reconnecting');

    await lostRedis.start();
    for (const node of nodes) {
      await until('/readyz answering 200 again', async () => (await readyz(node)).status === 200, 30_000);
      await until('the pub/sub connections back', () => node.output.stdout.includes('pub/sub: the Redis connection is back'), 10_000);
    }

    // Live data resumes on node 2 with the same stream (its subscription is restored in Redis).
    const afterAt = await sendReport();
    await until(`report ${afterAt} on node 2 after the outage`, () => onNode2(afterAt), 10_000);
    expect(onNode2(missedAt)).toBe(false);
    // Delivery through node 2 to the gateway on node 1 resumes.
    const afterOutage = schedule(3);
    const writtenAfter = await fetch(`${second.url}/v2/schedule`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${apiKey ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify({ assetIdentifiers: ['pv-roof'], schedule: [afterOutage] }),
    });
    expect(writtenAfter.status).toBe(201);
    await until('the schedule written after the outage', () => scheduleApplied(afterOutage.startAt), 10_000);

    // The missed report is stored all the same: history has it.
    const history = new pg.Client({ connectionString: cli.DATABASE_URL });
    await history.connect();
    const rows = await history.query<{ count: string }>("select count(*)::text as count from device_reports where body->>'at' = $1", [missedAt]);
    await history.end();
    expect(rows.rows[0]?.count).toBe('1');
    expect(first.process.exitCode).toBeNull();
    expect(second.process.exitCode).toBeNull();
  }, 120_000);
});
