import { fork, type ChildProcess } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { Socket } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Knex } from 'knex';
import { organizationCreateSchema } from '../contracts/organization';
import { validate } from '../contracts/validation';
import { channels } from '../graph/common/pubsub';
import type { StoredReport } from '../contracts/hub/reports';
import { systemActor } from '../graph/common/context';
import { HashIds } from '../graph/common/hash-ids';
import { createServices } from '../graph/services';
import { loadConfig, type Config } from '../server/config';
import { createLogger } from '../server/logger';
import { startServer, type RunningServer } from '../server/server';
import { observationsPerReport, type LoadCommand, type LoadEvent, type LoadIdentity, type LoadResult } from './gateway-load';

/** What one run (one number of connections) measured. */
export interface IngestResult {
  connections: number;
  connectMs: number;
  /** CPU per handshake while connecting, in ms: the server's and the load generator's (the figure a busy machine changes least). */
  connectCpuMsPerHandshake: { server: number; loadGenerator: number };
  /** The ingest's back-pressure during the window: most reports waiting, reports refused (queue full), times reading paused. */
  backPressure: { queuedMax: number; refused: number; pauses: number };
  failedConnections: number;
  targetPerSecond: number;
  load: LoadResult;
  observationsPerSecond: number;
  /** Device-to-subscriber latency: the report's `at` (set by the load generator when it sends) to the subscriber's handler in the server. */
  subscriberP50Ms: number;
  subscriberP99Ms: number;
  subscriberSamples: number;
  /** Mean reports per ingest transaction during the window. */
  meanBatch: number;
  rssMb: { idle: number; connected: number; afterLoad: number; perConnectionKb: number };
  /** CPU during the window in cores (1 = one core busy): the server process, the load generator, and the rest of the machine (PostgreSQL, other users). */
  cpuCores: { server: number; loadGenerator: number; restOfMachine: number };
  /** Where the server's CPU went during the window, when profiled. */
  profile: ProfileSummary | null;
  /** Where the server's CPU went while the gateways connected (the storm), when profiled. */
  connectProfile: ProfileSummary | null;
  /** What the server held at the end of a stall of the report store (--stall-seconds), when asked for. */
  stall: StallResult | null;
}

/** The server at the end of a stall of the report store, the gateways still sending; memory after a full collection. */
export interface StallResult {
  seconds: number;
  /** Reports waiting in the ingest, and whether it had pushed back (reading from gateways paused). */
  queued: number;
  pushedBack: boolean;
  /** Bytes read from the gateways' sockets from the push-back to the end of the stall, and read but not yet taken by ws (their readable buffers). */
  readWhilePausedKb: number;
  unreadKb: number;
  rssMb: number;
  heapUsedMb: number;
  /** Memory outside V8's heap that V8 knows of (Buffers among it). */
  externalMb: number;
}

export interface ProfileSummary {
  categories: { name: string; percent: number }[];
  top: { name: string; percent: number }[];
}

export interface IngestBenchmark {
  devices: number;
  seedMs: number;
  runs: IngestResult[];
}

export interface IngestOptions {
  connections: number[];
  /** Reports per second the load generator sends, in all. */
  reportsPerSecond: number;
  warmupMs: number;
  measureMs: number;
  /** Profile the server (node:inspector) during each measured window. */
  profile: boolean;
  /** Stall the report store for this long from the start of the measured window (0: none): PostgreSQL only. */
  stallMs: number;
  /** Handshakes the load generator keeps under way at once while the gateways connect (64 unless given). */
  concurrency?: number;
}

const subscribedDevices = 10;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) {
    return 0;
  }
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** A full collection, so that resident memory is what is live (V8's gc made reachable from here). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function rssMb(): number {
  return process.memoryUsage().rss / 2 ** 20;
}

const sumOf = (values: number[]): number => values.reduce((sum, value) => sum + value, 0);

/**
 * Stalls the report store for `ms` as a database that stops answering would: a transaction
 * holds an exclusive lock on device_reports, so the ingest's inserts wait, its queue fills and
 * it pushes back on the gateways, which go on sending. At the end, before the lock goes, measures
 * what the server holds: the gateway sockets' bytes read since the push-back and still unread by
 * ws, and its memory after a full collection.
 */
async function stallReportStore(server: RunningServer, sockets: Socket[], ms: number): Promise<StallResult> {
  const ingest = server.hub.ingest;
  const pausesBefore = ingest.stats.pauses;
  const until = performance.now() + ms;
  return server.database.db.transaction(async (trx) => {
    await trx.raw('lock table device_reports in access exclusive mode');
    let readAtPushBack: number | null = null;
    while (performance.now() < until) {
      if (readAtPushBack === null && ingest.stats.pauses > pausesBefore) {
        readAtPushBack = sumOf(sockets.map((socket) => socket.bytesRead));
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const read = sumOf(sockets.map((socket) => socket.bytesRead));
    collectGarbage();
    const memory = process.memoryUsage();
    return {
      seconds: ms / 1000,
      queued: ingest.queued,
      pushedBack: readAtPushBack !== null,
      readWhilePausedKb: readAtPushBack === null ? 0 : Math.round((read - readAtPushBack) / 1024),
      unreadKb: Math.round(sumOf(sockets.map((socket) => socket.readableLength)) / 1024),
      rssMb: Math.round(memory.rss / 2 ** 20),
      heapUsedMb: Math.round(memory.heapUsed / 2 ** 20),
      externalMb: Math.round(memory.external / 2 ** 20),
    };
  });
}

/** Busy and total jiffies of the whole machine (/proc/stat). */
function machineJiffies(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/**
 * `count` gateways as provisioning would leave them, made directly on the server's database
 * (the same secrets): device rows inserted in batches, and for each a key pair and a
 * certificate issued by the platform CA (services.provisioning.authority()), its fingerprint
 * recorded. The provisioning route itself (token, CSR) is not what the benchmark measures.
 * Writes the identities to `identitiesFile` for the load generator; answers the device ids.
 */
export async function seedGateways(db: Knex, config: Config, count: number, identitiesFile: string): Promise<number[]> {
  const hashIds = new HashIds(config.secrets.hashIdSecret);
  const services = createServices({ db, hashIds, sessionSecret: config.secrets.sessionSecret, encryptionKey: config.secrets.encryptionKey });
  const organization = await services.organizations.create(
    systemActor('benchmark'),
    validate(organizationCreateSchema, { name: 'Ingest bench', type: 'asset-owner' }, 'payload_invalid'),
  );
  const organizationId = hashIds.decode('organization', organization.hashId);
  const authority = await services.provisioning.authority();
  const identities: LoadIdentity[] = [];
  const deviceIds: number[] = [];
  const batch = 500;
  for (let start = 0; start < count; start += batch) {
    const made = await Promise.all(
      Array.from({ length: Math.min(batch, count - start) }, async (_, offset) => {
        const identifier = `bench-gw-${start + offset}`;
        const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
        const issued = await authority.issue({ identifier, publicKey: keys.publicKey });
        const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
        return { identifier, issued, pkcs8 };
      }),
    );
    const rows = (await db('devices')
      .insert(
        made.map(({ identifier, issued }) => ({
          organization_id: organizationId,
          identifier,
          name: `Bench gateway ${identifier}`,
          certificate_fingerprint: issued.fingerprint,
          certificate_serial: issued.serial,
          certificate_not_after: issued.notAfter,
          open_for_provisioning: false,
        })),
      )
      .returning('id')) as { id: number | string }[];
    deviceIds.push(...rows.map((row) => Number(row.id)));
    identities.push(...made.map(({ issued, pkcs8 }) => ({ certificatePem: issued.pem, privateKeyPkcs8: pkcs8 })));
  }
  writeFileSync(identitiesFile, JSON.stringify(identities));
  return deviceIds;
}

/** A process of bench/gateway-load.ts. */
function gateways(): ChildProcess {
  return fork(path.join(__dirname, 'gateway-load.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
}

function send(child: ChildProcess, command: LoadCommand): void {
  child.send(command);
}

function next<K extends LoadEvent['kind']>(child: ChildProcess, kind: K): Promise<Extract<LoadEvent, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (event: LoadEvent) => {
      if (event.kind === kind) {
        child.off('message', onMessage);
        resolve(event as Extract<LoadEvent, { kind: K }>);
      } else if (event.kind === 'failed') {
        child.off('message', onMessage);
        reject(new Error(`the load generator failed: ${event.message}`));
      }
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`the load generator exited with ${code}`)));
    child.once('error', reject);
  });
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The category of a profile node: what part of the hot path its self time belongs to. */
function categoryOf({ functionName, url }: ProfileNode['callFrame']): string {
  if (url.includes('contracts/hub/reports')) {
    return 'report validation (contracts/hub/reports.ts)';
  }
  if (url === '' && (functionName === 'parse' || functionName === 'stringify')) {
    return `JSON.${functionName}`;
  }
  if (url === '' && functionName === 'dispatch') {
    // node:inspector's session dispatch: Profiler.stop building the profile, not the server's work.
    return 'the profiler itself';
  }
  if (functionName === '(garbage collector)') {
    return 'garbage collection';
  }
  if (functionName === '(idle)') {
    return 'idle';
  }
  if (functionName === '(program)') {
    return 'V8 and native (program)';
  }
  for (const [part, name] of [
    ['node_modules/ws/', 'ws (frames, masking, events)'],
    ['node_modules/pg', 'pg driver (protocol, array literals)'],
    ['node_modules/knex', 'knex'],
    ['device-hub/ingest', 'device-hub/ingest.ts'],
    ['device-hub/gateway-server', 'device-hub/gateway-server.ts'],
    ['contracts/hub/protocol', 'envelope parsing (contracts/hub/protocol.ts)'],
    ['node_modules/pino', 'logging'],
    ['node_modules/@peculiar', 'certificates (@peculiar/x509, asn1)'],
    ['node_modules/asn1js', 'certificates (@peculiar/x509, asn1)'],
    ['node_modules/pvtsutils', 'certificates (@peculiar/x509, asn1)'],
    ['certificate-authority', 'certificates (certificate-authority.ts)'],
    ['provisioning.service', 'certificates (provisioning.service.ts)'],
    ['node:internal/crypto', 'Node crypto (verify, import, hash)'],
  ] as const) {
    if (url.includes(part)) {
      return name;
    }
  }
  if (url.startsWith('node:')) {
    return 'Node core (net, streams, timers, buffers)';
  }
  return url === '' ? 'V8 builtins' : 'other JavaScript';
}

function summariseProfile(profile: Profile): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const categories = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    if (!node) {
      return;
    }
    total += delta;
    const category = categoryOf(node.callFrame);
    categories.set(category, (categories.get(category) ?? 0) + delta);
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : ''}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + delta);
  });
  const share = (entries: Map<string, number>, limit: number) =>
    [...entries.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, time]) => ({ name, percent: Number(((time / Math.max(1, total)) * 100).toFixed(1)) }));
  return { categories: share(categories, 20), top: share(functions, 15) };
}

async function startProfile(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return session;
}

async function stopProfile(session: Session): Promise<ProfileSummary> {
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
  session.disconnect();
  return summariseProfile(profile);
}

async function run(server: RunningServer, identitiesFile: string, deviceIds: number[], connections: number, options: IngestOptions): Promise<IngestResult> {
  collectGarbage();
  const idle = rssMb();
  const child = gateways();
  // The server's end of each gateway's connection (for a stall's figures).
  const sockets: Socket[] = [];
  const onUpgrade = (_request: unknown, socket: Socket) => void sockets.push(socket);
  server.app.server.on('upgrade', onUpgrade);
  try {
    const connected = next(child, 'connected');
    const connectSession = options.profile ? await startProfile() : null;
    const connectCpu = process.cpuUsage();
    send(child, { kind: 'connect', url: server.url, identitiesFile, connections, concurrency: options.concurrency ?? 64 });
    const { connected: open, failed, ms: connectMs, cpuMs: loadGeneratorConnectCpuMs } = await connected;
    const serverConnectCpu = process.cpuUsage(connectCpu);
    const connectProfile = connectSession ? await stopProfile(connectSession) : null;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    collectGarbage();
    const withConnections = rssMb();

    // The subscriber: the pub/sub channel of a few devices, as the live GraphQL subscription and server-sent events use it.
    const subscriberLatencies: number[] = [];
    let subscriberMeasuring = false;
    const unsubscribe = deviceIds.slice(0, subscribedDevices).map((deviceId) =>
      server.services.pubsub.subscribe(channels.reports(deviceId), (message) => {
        if (subscriberMeasuring) {
          subscriberLatencies.push(Date.now() - Date.parse((message as StoredReport).at));
        }
      }),
    );
    const loaded = next(child, 'loaded');
    send(child, { kind: 'load', reportsPerSecond: options.reportsPerSecond, warmupMs: options.warmupMs, measureMs: options.measureMs });
    await new Promise((resolve) => setTimeout(resolve, options.warmupMs));
    subscriberMeasuring = true;
    const stats = { ...server.hub.ingest.stats };
    // The most reports waiting is counted from the window's start.
    server.hub.ingest.stats.queuedMax = 0;
    const cpuStart = process.cpuUsage();
    const machineStart = machineJiffies();
    const session = options.profile ? await startProfile() : null;
    const windowStart = performance.now();
    const stalled = options.stallMs > 0 ? stallReportStore(server, sockets, options.stallMs) : null;
    const { result } = await loaded;
    const stall = stalled ? await stalled : null;
    const seconds = (performance.now() - windowStart) / 1000;
    subscriberMeasuring = false;
    const profile = session ? await stopProfile(session) : null;
    const cpu = process.cpuUsage(cpuStart);
    const machineEnd = machineJiffies();
    const batches = server.hub.ingest.stats.batches - stats.batches;
    const reports = server.hub.ingest.stats.reports + server.hub.ingest.stats.duplicates - stats.reports - stats.duplicates;
    unsubscribe.forEach((stop) => stop());
    const afterLoad = rssMb();
    const serverCores = (cpu.user + cpu.system) / 1e6 / seconds;
    const machineCores = ((machineEnd.busy - machineStart.busy) / Math.max(1, machineEnd.total - machineStart.total)) * cpus().length;
    const subscriber = Float64Array.from(subscriberLatencies).sort();
    return {
      connections: open,
      connectMs,
      connectCpuMsPerHandshake: {
        server: Number(((serverConnectCpu.user + serverConnectCpu.system) / 1000 / Math.max(1, open)).toFixed(2)),
        loadGenerator: Number((loadGeneratorConnectCpuMs / Math.max(1, open)).toFixed(2)),
      },
      backPressure: {
        queuedMax: server.hub.ingest.stats.queuedMax,
        refused: server.hub.ingest.stats.refused - stats.refused,
        pauses: server.hub.ingest.stats.pauses - stats.pauses,
      },
      failedConnections: failed,
      targetPerSecond: options.reportsPerSecond,
      load: result,
      observationsPerSecond: result.acknowledgedPerSecond * observationsPerReport,
      subscriberP50Ms: percentile(subscriber, 50),
      subscriberP99Ms: percentile(subscriber, 99),
      subscriberSamples: subscriber.length,
      meanBatch: batches === 0 ? 0 : Math.round(reports / batches),
      rssMb: {
        idle: Math.round(idle),
        connected: Math.round(withConnections),
        afterLoad: Math.round(afterLoad),
        perConnectionKb: open === 0 ? 0 : Math.round(((withConnections - idle) * 1024) / open),
      },
      cpuCores: {
        server: Number(serverCores.toFixed(2)),
        loadGenerator: result.cpuCores,
        restOfMachine: Number(Math.max(0, machineCores - serverCores - result.cpuCores).toFixed(2)),
      },
      profile,
      connectProfile,
      stall,
    };
  } finally {
    server.app.server.off('upgrade', onUpgrade);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    send(child, { kind: 'stop' });
    await exited;
    // Let the hub see the connections go before the next run.
    for (let waited = 0; server.hub.gateways.size > 0 && waited < 30_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The disconnections' updates are gathered into batches; once those have run the next run starts.
    await server.hub.gateways.idle();
    await server.database.db.raw('select 1');
  }
}

/**
 * Many gateways on loopback against the hub: the server runs in this process (startServer, as
 * `npm start` starts it) on PostgreSQL at `databaseUrl` (an empty database) or PGlite in a fresh
 * folder; the gateways run in a child process (bench/gateway-load.ts). For each number of
 * connections the child connects them all, then sends meter reports at a fixed total rate for
 * a warm-up and a measured window; a subscriber in the server listens to a few devices' report
 * channel.
 */
export async function ingestBenchmark(databaseUrl: string | null, options: IngestOptions): Promise<IngestBenchmark> {
  if (options.stallMs > 0 && !databaseUrl) {
    throw new Error('a stall of the report store locks a table on PostgreSQL: set BENCH_DATABASE_URL');
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gridport-bench-ingest-'));
  const env: Record<string, string> = {
    GRIDPORT_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    GRIDPORT_DEMO: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const config = loadConfig(env);
  const server = await startServer(config, createLogger('warn', process.stderr));
  try {
    const devices = Math.max(...options.connections);
    const identitiesFile = path.join(dataDir, 'gateways.json');
    let deviceIds: number[];
    let seedMs: number;
    if (databaseUrl) {
      // Seeded by a process of its own, so that the server's memory holds none of it.
      const seeder = gateways();
      const seeded = next(seeder, 'seeded');
      send(seeder, { kind: 'seed', env, count: devices, identitiesFile });
      ({ deviceIds, ms: seedMs } = await seeded);
      send(seeder, { kind: 'stop' });
    } else {
      // PGlite is one process's: the server's. Its idle memory then includes the seeding's leftovers.
      const started = performance.now();
      deviceIds = await seedGateways(server.database.db, config, devices, identitiesFile);
      seedMs = Math.round(performance.now() - started);
    }
    const runs: IngestResult[] = [];
    for (const connections of options.connections) {
      runs.push(await run(server, identitiesFile, deviceIds, connections, options));
    }
    return { devices, seedMs, runs };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
