import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { organizationCreateSchema } from '../contracts/organization';
import { validate } from '../contracts/validation';
import type { MessageDestinationCreate } from '../contracts/forwarding';
import { systemActor } from '../graph/common/context';
import { HashIds } from '../graph/common/hash-ids';
import { ForwardingWorker } from '../graph/forwarding/services/delivery-worker';
import { defaultForwardingSettings } from '../graph/forwarding/services/forwarding-settings';
import { createServices } from '../graph/services';
import { ReportIngest, type IncomingReport } from '../device-hub/ingest';
import { migrateLatest, openDatabase } from '../server/database';
import { seedDevices } from '../test-support/fleet';
import { Client } from 'pg';

/** One destination's figures over a run. */
export interface ForwardingLine {
  kind: string;
  /** Messages delivered while the ingest ran, and per second. */
  delivered: number;
  perSecond: number;
  /** Age of the newest delivered report, sampled every 250 ms while the ingest ran: median, 99th percentile, most (seconds). */
  lagP50: number;
  lagP99: number;
  lagMax: number;
  /** After the ingest stopped, how long until the destination had everything (seconds). */
  drainSeconds: number;
}

export interface ForwardingBenchmark {
  devices: number;
  /** Reports per second asked of the ingest, and what it stored. */
  rate: number;
  stored: number;
  storedPerSecond: number;
  seconds: number;
  /** CPU of this process (ingest, worker, deliverers, and on PGlite the database), in cores. */
  cpuCores: number;
  lines: ForwardingLine[];
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;
const round = (value: number, places = 2): number => Math.round(value * 10 ** places) / 10 ** places;

/** An HTTP endpoint that takes the batches and counts the messages (the http destination's peer). */
async function countingEndpoint(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let messages = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[];
      messages += body.length;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/in`,
    count: () => messages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A database of its own on the machine's PostgreSQL for the postgres destination, or null when none answers. */
async function destinationDatabase(): Promise<{ settings: Record<string, unknown>; drop: () => Promise<void> } | null> {
  const adminUrl = process.env.BENCH_DESTINATION_POSTGRES_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
  const admin = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `bench_fwd_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  await admin.query(`CREATE ROLE "${name}" LOGIN PASSWORD '${password}'`);
  await admin.query(`CREATE DATABASE "${name}" OWNER "${name}"`);
  const { hostname, port } = new URL(adminUrl);
  return {
    settings: { host: hostname, port: Number(port || 5432), database: name, username: name, password, table: 'gridport_reports', tls: false },
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS "${name}"`);
      await admin.end();
    },
  };
}

/**
 * Forwarding while the ingest stores `rate` reports a second (docs/forwarding.md, "Delivery";
 * issue 18): `devices` gateways' meter reports, all forwarded by their group to an HTTP endpoint
 * and to a PostgreSQL database (a database of its own on the machine's PostgreSQL), through the
 * delivery worker as a node runs it. Every 250 ms the age of each destination's newest delivered
 * report is sampled (its lag); after the ingest stops, the time until each has everything.
 */
export async function forwardingBenchmark(
  databaseUrl: string | null,
  options: { devices: number; rate: number; seconds: number },
): Promise<ForwardingBenchmark> {
  const schema = `bench_forwarding_${randomBytes(4).toString('hex')}`;
  const { db } = openDatabase({ url: databaseUrl, schema, poolMax: 20 });
  await migrateLatest(db, schema);
  const log = pino({ level: 'silent' });
  const settings = { ...defaultForwardingSettings, allowPrivateNetworks: true };
  const services = createServices({
    db,
    hashIds: new HashIds(randomBytes(32).toString('hex')),
    sessionSecret: randomBytes(32).toString('hex'),
    encryptionKey: randomBytes(32).toString('hex'),
    log,
    forwarding: settings,
  });
  const actor = systemActor('bench');
  const organization = await services.organizations.create(
    actor,
    validate(organizationCreateSchema, { name: 'Forwarding Bench BV', type: 'data-receiver' }, 'payload_invalid'),
  );
  const organizationId = services.hashIds.decode('organization', organization.hashId) ?? 0;
  const group = await services.deviceGroups.create(actor, {
    name: 'Bench group',
    organizationHashId: organization.hashId,
    deviceOutageEmails: [],
    deviceOutageUsersHashIds: [],
  });
  const groupId = services.hashIds.decode('deviceGroup', group.hashId) ?? 0;
  const deviceIds = await seedDevices(db, organizationId, options.devices, { deviceGroupId: groupId });
  await db('devices').whereIn('id', deviceIds).update({ in_production: true });

  const endpoint = await countingEndpoint();
  const postgres = await destinationDatabase();
  const targets: { kind: string; destination: Record<string, unknown> }[] = [
    { kind: 'http', destination: { type: 'http', url: endpoint.url, method: 'POST', headers: [], timeoutMs: 10_000 } },
    ...(postgres ? [{ kind: 'postgres', destination: { type: 'postgres', ...postgres.settings } }] : []),
  ];
  const destinations: { kind: string; id: number }[] = [];
  for (const target of targets) {
    const created = await services.messageDestinations.create(actor, {
      name: `Bench ${target.kind}`,
      organizationHashId: organization.hashId,
      outageEmails: [],
      outageUsersHashIds: [],
      destination: target.destination as MessageDestinationCreate['destination'],
      monitorSettings: { enabled: false, maxLagSeconds: null },
    });
    await services.groupForwarding.add(actor, {
      deviceGroupHashId: group.hashId,
      messageDestinationHashId: created.hashId,
      messageTypes: ['meterPower'],
      settings: { minIntervalSeconds: 0 },
    });
    destinations.push({ kind: target.kind, id: services.hashIds.decode('messageDestination', created.hashId) ?? 0 });
  }

  // The worker runs as on a node, under a live hub node's id.
  await db('hub_nodes').insert({ id: 'bench-node', lease_expires_at: new Date(Date.now() + 3_600_000) });
  const worker = new ForwardingWorker({
    db,
    hashIds: services.hashIds,
    destinations: services.messageDestinations,
    alarms: services.alarms,
    settings,
    log,
    nodeId: 'bench-node',
  });
  worker.start();

  /** The age of the newest report each destination has delivered, and how many it delivered. */
  const sample = async (): Promise<Map<number, { lagSeconds: number; delivered: number; atHead: boolean }>> => {
    const result = (await db.raw(
      `select d.message_destination_id as id, d.delivered_count, extract(epoch from (now() - r.received_at)) as lag,
              not exists (select 1 from device_reports n where (n.tx, n.seq) > (d.cursor_tx, d.cursor_seq)) as at_head
         from message_destination_deliveries d
         left join device_reports r on r.seq = d.cursor_seq`,
    )) as { rows: { id: string | number; delivered_count: string | number; lag: string | number | null; at_head: boolean }[] };
    return new Map(
      result.rows.map((row) => [
        Number(row.id),
        { lagSeconds: row.lag === null ? 0 : Number(row.lag), delivered: Number(row.delivered_count), atHead: row.at_head },
      ]),
    );
  };

  let sequence = 0;
  const nextReport = (): IncomingReport => {
    sequence += 1;
    const at = new Date();
    return {
      deviceId: deviceIds[sequence % deviceIds.length] ?? 0,
      reportId: `f${sequence}`,
      type: 'meterPower',
      at: new Date(at.getTime() + Math.floor(sequence / deviceIds.length)),
      assetIndex: 0,
      controllerIndex: null,
      body: { type: 'meterPower', at: at.toISOString(), asset: 0, observations: { activePower: sequence % 5000, energyImport: sequence } },
    };
  };

  const ingest = new ReportIngest(db, services.pubsub);
  const lags = new Map<number, number[]>(destinations.map((destination) => [destination.id, []]));
  const before = await sample();
  const cpu = process.cpuUsage();
  const began = performance.now();
  const pending: Promise<void>[] = [];
  const tickMs = 50;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const now = await sample();
      for (const [id, figures] of now) {
        lags.get(id)?.push(figures.lagSeconds);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  // Paced: every 50 ms the reports due by then, so the ingest sees the rate asked, not a burst.
  let submitted = 0;
  while (performance.now() - began < options.seconds * 1000) {
    const due = Math.floor(((performance.now() - began) / 1000) * options.rate);
    for (; submitted < due; submitted += 1) {
      pending.push(ingest.submit(nextReport()));
    }
    await new Promise((resolve) => setTimeout(resolve, tickMs));
  }
  await Promise.all(pending);
  const ingestEnded = performance.now();
  sampling = false;
  await sampler;
  const atIngestEnd = await sample();
  const drained = new Map<number, number>();
  while (drained.size < destinations.length && performance.now() - ingestEnded < 600_000) {
    const now = await sample();
    for (const destination of destinations) {
      if (!drained.has(destination.id) && now.get(destination.id)?.atHead) {
        drained.set(destination.id, (performance.now() - ingestEnded) / 1000);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const used = process.cpuUsage(cpu);
  const seconds = (ingestEnded - began) / 1000;
  const lines = destinations.map((destination): ForwardingLine => {
    const sorted = [...(lags.get(destination.id) ?? [])].sort((a, b) => a - b);
    const delivered = (atIngestEnd.get(destination.id)?.delivered ?? 0) - (before.get(destination.id)?.delivered ?? 0);
    return {
      kind: destination.kind,
      delivered,
      perSecond: Math.round(delivered / seconds),
      lagP50: round(percentile(sorted, 0.5)),
      lagP99: round(percentile(sorted, 0.99)),
      lagMax: round(sorted.at(-1) ?? 0),
      drainSeconds: round(drained.get(destination.id) ?? Number.NaN),
    };
  });
  const stored = Number(((await db('device_reports').count({ count: '*' })) as { count: string | number }[])[0]?.count ?? 0);

  await worker.stop();
  await ingest.close();
  await endpoint.close();
  await postgres?.drop();
  await services.alarms.settled();
  await db.raw('drop schema if exists ?? cascade', [schema]);
  await db.destroy();
  return {
    devices: options.devices,
    rate: options.rate,
    stored,
    storedPerSecond: Math.round(stored / seconds),
    seconds: round(seconds),
    cpuCores: round((used.user + used.system) / 1000 / (performance.now() - began)),
    lines,
  };
}
