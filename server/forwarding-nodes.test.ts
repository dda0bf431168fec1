import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import type { ForwardedMessage } from '../contracts/forwarding';
import { GatewayClient } from '../edge/gateway-client/client';
import { provision } from '../edge/gateway-client/provision';
import { meterPowerReport } from '../test-support/fleet';
import { buildServer, freePort, gridportJson, startServerProcess, type ServerProcess } from '../test-support/server-process';
import { reachable, requireServices } from '../test-support/services';
import { sleep, until } from '../test-support/until';

/**
 * Forwarding on two nodes (issue 18): two compiled server processes on one PostgreSQL database
 * deliver one HTTP destination's stream. The node holding the destination's lease is killed
 * (SIGKILL) with a batch in flight; the other node takes the lease over once the dead node's
 * hub lease runs out (HUB_LEASE_SECONDS, short here), and every report the gateway sent
 * arrives, in order, at least once (the batch in flight at the kill may arrive twice).
 */

const postgresServer = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const missing = reachable(postgresServer, 5432) ? null : `PostgreSQL at ${new URL(postgresServer).host} unreachable`;
if (missing && !requireServices) {
  process.stderr.write(`server/forwarding-nodes.test.ts: skipped, ${missing} (REQUIRE_SERVICES=1 makes this a failure)\n`);
}
const describeWithDatabase = missing && !requireServices ? describe.skip : describe;

/** Reports the gateway sends in all; the lease holder is killed once the destination has this many. */
const total = 600;
const killAfterDelivered = 150;
/** Node liveness: a dead node's leases are free this long after its last heartbeat. */
const hubHeartbeatSeconds = 1;
const hubLeaseSeconds = 2;

/** Reports dated from an hour ago (within the hub's window of plausible times), a second apart. */
const firstReportAt = Math.floor(Date.now() / 1000) * 1000 - 60 * 60 * 1000;

const portOf = (node: ServerProcess) => Number(new URL(node.url).port);

/** One request the HTTP destination took: when, and the messages' report ids and positions in the order sent. */
interface Delivery {
  at: number;
  ids: string[];
  positions: bigint[];
}

/**
 * The HTTP destination: keeps every batch it is sent. While `hold` is on, it keeps the next
 * requests unanswered (a batch in flight, its sender waiting), until `hold` is off again.
 */
async function httpReceiver() {
  const deliveries: Delivery[] = [];
  const held: ServerResponse[] = [];
  let hold = false;
  const server = createHttpServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const messages = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ForwardedMessage[];
      deliveries.push({ at: Date.now(), ids: messages.map((message) => message.id), positions: messages.map((message) => BigInt(message.position)) });
      if (hold) {
        held.push(response);
        return;
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/reports`,
    deliveries,
    held,
    setHold(on: boolean) {
      hold = on;
      if (!on) {
        for (const response of held.splice(0)) {
          response.writeHead(204).end();
        }
      }
    },
    /** Every report id received, in the order first received. */
    firstSeen(): string[] {
      return [...new Set(deliveries.flatMap((delivery) => delivery.ids))];
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A TCP front for the gateway, as a load balancer would be: it connects to whichever node `target` names now. */
async function gatewayFront(initialPort: number) {
  let targetPort = initialPort;
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    target: (port: number) => {
      targetPort = port;
    },
    get targetPort() {
      return targetPort;
    },
    close() {
      for (const socket of sockets) {
        socket.destroy();
      }
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describeWithDatabase('forwarding on two server processes with one PostgreSQL database', () => {
  const database = `gridport_forwarding_nodes_${randomBytes(4).toString('hex')}`;
  const databaseUrl = (() => {
    const url = new URL(postgresServer);
    url.pathname = `/${database}`;
    return url.toString();
  })();
  const folder = mkdtempSync(path.join(tmpdir(), 'gridport-forwarding-nodes-'));
  const environment = (dataDir: string): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH ?? '',
    DATABASE_URL: databaseUrl,
    GRIDPORT_DEMO: 'false',
    GRIDPORT_DATA_DIR: path.join(folder, dataDir),
    SESSION_SECRET: secrets.session,
    HASH_ID_SECRET: secrets.hashId,
    ENCRYPTION_KEY: secrets.encryption,
    LOG_LEVEL: 'warn',
    FORWARDING_ALLOW_PRIVATE_NETWORKS: 'true',
    FORWARDING_POLL_MS: '50',
    HUB_HEARTBEAT_SECONDS: String(hubHeartbeatSeconds),
    HUB_LEASE_SECONDS: String(hubLeaseSeconds),
  });
  // Every node (and the command line) of one install shares these.
  const secrets = { session: randomBytes(32).toString('hex'), hashId: randomBytes(32).toString('hex'), encryption: randomBytes(32).toString('hex') };

  let admin: Client | null = null;
  let db: Client | null = null;
  const nodes: ServerProcess[] = [];
  let receiver: Awaited<ReturnType<typeof httpReceiver>> | null = null;
  let front: Awaited<ReturnType<typeof gatewayFront>> | null = null;
  let gateway: GatewayClient | null = null;
  let stopped = false;
  let destinationId = 0;
  let provisioningToken = '';
  /** The staff user's console session. */
  let cookie = '';

  /** A console-admin request through `node` as the staff user; answers the JSON body, failing on any status but `status`. */
  async function call(node: ServerProcess, method: string, route: string, body: unknown, status = 200): Promise<Record<string, string>> {
    const response = await fetch(`${node.url}${route}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    if (response.status !== status) {
      throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
    }
    return JSON.parse(text) as Record<string, string>;
  }

  beforeAll(async () => {
    if (missing) {
      throw new Error(`${missing}, and REQUIRE_SERVICES is set`);
    }
    admin = new Client({ connectionString: postgresServer });
    await admin.connect();
    await admin.query(`create database "${database}"`);
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
    await buildServer();

    const cli = environment('cli');
    await gridportJson(cli, 'migrate');
    const provider = await gridportJson(cli, 'org', 'provider');
    const organizationHashId = (await gridportJson(cli, 'org', 'create', '--name', 'Two Nodes BV', '--type', 'asset-owner')).hashId ?? '';
    await gridportJson(
      cli,
      'user',
      'create',
      '--org',
      provider.hashId ?? '',
      '--email',
      'ops@two-nodes.example.com',
      '--name',
      'Ops',
      '--rights',
      'gridport.ops',
    );
    cookie = (await gridportJson(cli, 'session', 'create', '--email', 'ops@two-nodes.example.com')).cookie ?? '';
    const shipped = await gridportJson(cli, 'device', 'ship', '--org', organizationHashId, '--name', 'Two-node gateway');
    provisioningToken = shipped.provisioningToken ?? '';

    nodes.push(...(await Promise.all(['node-1', 'node-2'].map(async (name) => startServerProcess(environment(name), await freePort())))));
    receiver = await httpReceiver();
    const [first] = nodes as [ServerProcess];
    const group = await call(first, 'POST', '/console-admin/v1/device-group', { name: 'Two-node group', organizationHashId }, 201);
    await call(first, 'PUT', `/console-admin/v1/device/${shipped.hashId}`, { deviceGroupHashId: group.hashId, inProduction: true });
    const destination = await call(
      first,
      'POST',
      '/console-admin/v1/message-destination',
      { name: 'Two-node receiver', organizationHashId, destination: { type: 'http', url: receiver.url, timeoutMs: 5000 } },
      201,
    );
    await call(
      first,
      'POST',
      '/console-admin/v1/device-group/message-destination',
      { deviceGroupHashId: group.hashId, messageDestinationHashId: destination.hashId, messageTypes: ['meterPower'] },
      201,
    );
    const row = await db.query<{ message_destination_id: string }>('select message_destination_id from message_destination_deliveries');
    destinationId = Number(row.rows[0]?.message_destination_id);
    front = await gatewayFront(portOf(first));
  }, 120_000);

  afterAll(async () => {
    stopped = true;
    receiver?.setHold(false);
    await gateway?.stop();
    for (const node of nodes) {
      node.process.kill('SIGTERM');
    }
    await Promise.all(nodes.map((node) => node.exited()));
    await front?.close();
    await receiver?.close();
    await db?.end();
    if (admin) {
      await admin.query(`drop database if exists "${database}" with (force)`);
      await admin.end();
    }
    rmSync(folder, { recursive: true, force: true });
  }, 30_000);

  /** The node holding the destination's delivery lease now (by the port in its hub_nodes name), with its node id. */
  async function leaseHolder(): Promise<{ node: ServerProcess; nodeId: string } | null> {
    const result = await db?.query<{ lease_owner: string; name: string }>(
      `select d.lease_owner, n.name from message_destination_deliveries d join hub_nodes n on n.id = d.lease_owner
        where d.message_destination_id = $1`,
      [destinationId],
    );
    const row = result?.rows[0];
    const node = row && nodes.find((each) => row.name.endsWith(`:${portOf(each)}`));
    return row && node ? { node, nodeId: row.lease_owner } : null;
  }

  it('the other node takes the lease over from a node killed mid-delivery, and every report arrives in order, at least once', async () => {
    if (!receiver || !front || !db) {
      throw new Error('the set-up did not finish');
    }
    const destination = receiver;
    const { deliveries } = destination;
    const identity = await provision({
      baseUrl: front.url,
      token: provisioningToken,
      identifier: 'gw-two-nodes',
      directory: path.join(folder, 'gateway', 'identity'),
    });
    const refused: string[] = [];
    gateway = new GatewayClient({
      baseUrl: front.url,
      identity,
      storeDirectory: path.join(folder, 'gateway', 'reports'),
      minBackoffMs: 100,
      maxBackoffMs: 500,
      onError: (error) => {
        if (error.key === 'payload_invalid') {
          refused.push(error.message);
        }
      },
    });
    await gateway.start();
    await gateway.connected();
    const client = gateway;

    // The gateway reports all along, through the kill: about 150 reports a second.
    const sent: string[] = [];
    const producing = (async () => {
      for (let index = 0; index < total && !stopped; index += 1) {
        sent.push(await client.report(meterPowerReport(firstReportAt, index)));
        if (index % 15 === 14) {
          await sleep(100);
        }
      }
    })();

    await until(`${killAfterDelivered} reports at the destination`, () => destination.firstSeen().length >= killAfterDelivered, 20_000);
    // Catch the holder with a batch in flight: the destination keeps its next request unanswered.
    destination.setHold(true);
    await until('a batch in flight', () => destination.held.length > 0, 10_000);
    const holder = await leaseHolder();
    const survivor = nodes.find((node) => node !== holder?.node);
    if (!holder || !survivor) {
      throw new Error('no node holds the lease while a batch is in flight');
    }
    const { node: killed, nodeId: killedNodeId } = holder;
    const gatewayMoved = front.targetPort === portOf(killed);
    const deliveriesBeforeKill = deliveries.length;
    const killedAt = Date.now();
    killed.process.kill('SIGKILL');
    await killed.exited();
    // The gateway's connections now go to the survivor (the gateway was on the killed node or not).
    front.target(portOf(survivor));
    destination.setHold(false);
    // The dead node still holds the lease until its hub lease runs out.
    expect((await db.query('select lease_owner from message_destination_deliveries where message_destination_id = $1', [destinationId])).rows[0]).toEqual({
      lease_owner: killedNodeId,
    });

    await until('a delivery by the survivor', () => deliveries.length > deliveriesBeforeKill, 15_000);
    const takeoverMs = (deliveries[deliveriesBeforeKill]?.at ?? Infinity) - killedAt;
    process.stdout.write(
      `forwarding-nodes: the survivor delivered ${takeoverMs} ms after the lease holder was killed (HUB_LEASE_SECONDS=${hubLeaseSeconds}, HUB_HEARTBEAT_SECONDS=${hubHeartbeatSeconds}; the gateway ${gatewayMoved ? 'was on the killed node and moved' : 'was on the survivor'})\n`,
    );
    // The dead node's lease is gone: the survivor holds it now, or has handed it back between batches.
    const after = await db.query<{ lease_owner: string | null }>('select lease_owner from message_destination_deliveries where message_destination_id = $1', [
      destinationId,
    ]);
    expect(after.rows[0]?.lease_owner).not.toBe(killedNodeId);
    expect(takeoverMs).toBeLessThan((hubLeaseSeconds + 3) * 1000);

    await producing;
    await client.drained();
    expect(refused).toEqual([]);
    expect(sent).toHaveLength(total);
    await until(`all ${total} reports at the destination`, () => destination.firstSeen().length === total, 15_000);

    // In order: each report first arrives after every report sent before it; a batch repeats only what came before.
    expect(destination.firstSeen()).toEqual(sent);
    for (const delivery of deliveries) {
      expect(delivery.positions).toEqual([...delivery.positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    const received = deliveries.reduce((count, delivery) => count + delivery.ids.length, 0);
    process.stdout.write(`forwarding-nodes: ${total} reports sent, ${received} messages received (${received - total} again after the takeover)\n`);
    expect(received).toBeGreaterThanOrEqual(total);
  }, 45_000);
});
