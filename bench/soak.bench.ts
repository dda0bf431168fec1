import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { staffWriterRights } from '../contracts/rights';
import { systemActor } from '../graph/common/context';
import { HashIds } from '../graph/common/hash-ids';
import { createServices } from '../graph/services';
import { sessionCookieName } from '../graph/identity/services/session.service';
import { loadConfig } from '../server/config';
import { migrateLatest, openDatabase } from '../server/database';
import { demoDeviceNames } from '../server/demo';
import type { LoadCommand, LoadEvent, LoadResult } from './gateway-load';
import { seedGateways } from './ingest.bench';
import { csvHeader, csvLine, heapFloors, memoryVerdict, percentile, round, type MemoryVerdict, type SoakSample } from './soak-samples';

/**
 * The soak (issue 21, item 3): Gridport's compiled server in its own process, as an operator
 * runs it, with the demo fleet on (its four sites' edge agents run inside the server against
 * their Modbus simulators), `gateways` more gateways with real certificates in a load generator
 * of their own (bench/gateway-load.ts) sending meter reports at `reportsPerSecond` in all, and a
 * light API load from this process: REST and GraphQL lists in turn, and a graphql-ws
 * subscription of live reports. Every `sampleSeconds` it samples the server from outside
 * (/metrics and /proc), the load generator's acknowledgements, the API's latencies and failures,
 * and the database's size, for `minutes`; then judges whether memory stayed flat.
 */
export interface SoakOptions {
  minutes: number;
  gateways: number;
  /** Reports a second from all the loaded gateways together. */
  reportsPerSecond: number;
  sampleSeconds: number;
  /** API requests a second (REST and GraphQL lists in turn, at most four in flight). */
  apiPerSecond: number;
  /** The CSV of the samples, written as they come; none when null. */
  out: string | null;
  /** Extra node flags for the server (e.g. --heapsnapshot-signal=SIGUSR2). */
  serverNodeArgs: string[];
  /** Called with each sample as it is taken (the command line prints it). */
  onSample?: (sample: SoakSample) => void;
  /** Called once the server runs: its pid and the folder of its data and log. */
  onStarted?: (started: { pid: number; dataDir: string; logFile: string }) => void;
}

export interface SoakSummary {
  minutes: number;
  samples: number;
  gateways: number;
  failedConnections: number;
  reportsPerSecond: number;
  sent: number;
  acknowledged: number;
  /** Reports of the loaded gateways in the database at the end. */
  stored: number;
  /** Sent and not in the database at the end (0 when nothing was lost). */
  lost: number;
  ackP50Ms: number;
  ackP99Ms: number;
  ackWorstP99Ms: number;
  apiRequests: number;
  apiP50Ms: number;
  apiP99Ms: number;
  apiFailures: number;
  liveReceived: number;
  liveP99Ms: number;
  demoReports: number;
  gatewayErrors: number;
  gatewayCloses: number;
  subscriptionDisconnects: number;
  serverWarnings: number;
  serverErrors: number;
  loopLagWorstP99Ms: number;
  memory: MemoryVerdict;
  /** The heap in use after collection (heapFloors), judged the same way as RSS. */
  heap: { secondQuarterMb: number; lastQuarterMb: number; slopeMbPerHour: number };
  databaseMb: { start: number; end: number; growthMbPerHour: number; bytesPerReport: number };
}

const clockTicksPerSecond = 100;

/** Resident memory (MB) and CPU time so far (ms) of a process, from /proc. */
function processReading(pid: number): { rssMb: number; cpuMs: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces: the fields after it start after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024,
    cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond,
  };
}

function folderBytes(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    total += entry.isDirectory() ? folderBytes(full) : entry.isFile() ? statSync(full).size : 0;
  }
  return total;
}

/** The samples of a Prometheus text exposition, by metric name with its labels (`name{a="b"}`). */
function parseMetrics(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) {
      continue;
    }
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return values;
}

/** A script of bench/ or server/ as this process runs (compiled, or through ts-node from the sources). */
function scriptPath(script: string): string {
  return path.join(__dirname, '..', `${script}${path.extname(__filename)}`);
}

function nodeArgsForScripts(): string[] {
  return path.extname(__filename) === '.ts' ? ['-r', 'ts-node/register/transpile-only'] : [];
}

function next<K extends LoadEvent['kind']>(child: ChildProcess, kind: K): Promise<Extract<LoadEvent, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the load generator exited with ${code}`));
    const onMessage = (event: LoadEvent) => {
      if (event.kind === kind || event.kind === 'failed') {
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (event.kind === 'failed') {
          reject(new Error(`the load generator failed: ${event.message}`));
        } else {
          resolve(event as Extract<LoadEvent, { kind: K }>);
        }
      }
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

/** The load generator closes its gateways' sockets and exits when told to stop. */
async function stoppedLoad(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.send({ kind: 'stop' } satisfies LoadCommand);
  await exited;
}

/** Makes the database, the loaded gateways and a staff session as an operator's provisioning would leave them. */
async function seed(
  env: Record<string, string>,
  gateways: number,
  identitiesFile: string,
): Promise<{ cookie: string; deviceHashIds: string[]; deviceIds: number[] }> {
  const config = loadConfig(env);
  const database = openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
  try {
    await migrateLatest(database.db);
    const hashIds = new HashIds(config.secrets.hashIdSecret);
    const services = createServices({ db: database.db, hashIds, sessionSecret: config.secrets.sessionSecret, encryptionKey: config.secrets.encryptionKey });
    const deviceIds = await seedGateways(database.db, config, gateways, identitiesFile);
    const provider = await services.organizations.provider();
    const email = 'soak@example.com';
    await services.users.create(systemActor('benchmark'), {
      organizationHashId: provider.hashId,
      email,
      name: 'Soak',
      rights: [...staffWriterRights, 'gridport.employee'],
    });
    const user = await services.users.findByEmail(email);
    if (!user) {
      throw new Error('the soak user was not created');
    }
    const session = await services.sessions.mint(user.id, 'benchmark');
    return { cookie: `${sessionCookieName}=${session.token}`, deviceIds, deviceHashIds: deviceIds.map((id) => hashIds.encode('device', id)) };
  } finally {
    await database.db.destroy();
  }
}

/** The API load of one window: REST and GraphQL lists in turn, timed from here. */
class ApiLoad {
  private latencies: number[] = [];
  private failures = 0;
  private inFlight = 0;
  private turn = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly kinds: (() => Promise<boolean>)[];

  constructor(base: string, cookie: string) {
    const rest = (route: string) => async () => {
      const response = await fetch(`${base}${route}`, { headers: { cookie } });
      // Read to the end, as a client does: an unread body keeps its connection out of the pool.
      await response.arrayBuffer();
      return response.ok;
    };
    const graphql = (query: string) => async () => {
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      const body = (await response.json()) as { errors?: unknown[] };
      return response.ok && !body.errors;
    };
    this.kinds = [
      rest('/console-admin/v1/organization?rowsPerPage=50'),
      graphql('query SoakOrganizations { organizations(rowsPerPage: 50) { rows { hashId name type } nextPageOffset } }'),
      rest('/console-admin/v1/device?rowsPerPage=50'),
      graphql('query SoakDevices { devices(rowsPerPage: 50) { rows { hashId name identifier organizationHashId } nextPageOffset } }'),
    ];
  }

  start(perSecond: number): void {
    this.timer = setInterval(() => this.fire(), 1000 / perSecond);
  }

  stop(): void {
    if (this.timer) {
      clearInterval(this.timer);
    }
  }

  private fire(): void {
    // A light load: a slow server makes it lighter rather than piling requests up.
    if (this.inFlight >= 4) {
      return;
    }
    const kind = this.kinds[this.turn % this.kinds.length];
    this.turn += 1;
    if (!kind) {
      return;
    }
    this.inFlight += 1;
    const begin = performance.now();
    kind()
      .then(
        (ok) => {
          this.latencies.push(performance.now() - begin);
          this.failures += ok ? 0 : 1;
        },
        () => {
          this.failures += 1;
        },
      )
      .finally(() => {
        this.inFlight -= 1;
      });
  }

  /** The window's latencies and failures, and a new window. */
  take(): { latencies: number[]; failures: number } {
    const taken = { latencies: this.latencies.sort((a, b) => a - b), failures: this.failures };
    this.latencies = [];
    this.failures = 0;
    return taken;
  }
}

/** Live reports over graphql-ws: a few loaded gateways (latency from their `at`) and the demo devices (counted). */
class LiveData {
  private latencies: number[] = [];
  private demo = 0;
  disconnects = 0;
  private readonly client: Client;

  constructor(base: string, cookie: string, loadedHashIds: readonly string[], demoHashIds: readonly string[]) {
    class WithCookie extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { cookie } });
      }
    }
    this.client = createClient({
      url: `${base.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WithCookie,
      lazy: false,
      retryAttempts: Number.MAX_SAFE_INTEGER,
      shouldRetry: () => true,
      on: {
        closed: () => {
          this.disconnects += 1;
        },
      },
    });
    const subscribe = (hashId: string, onReport: (at: string) => void) =>
      this.client.subscribe<{ deviceReports: { at: string } }>(
        { query: `subscription { deviceReports(hashId: "${hashId}") { at } }` },
        { next: (result) => result.data && onReport(result.data.deviceReports.at), error: () => undefined, complete: () => undefined },
      );
    for (const hashId of loadedHashIds) {
      subscribe(hashId, (at) => this.latencies.push(Date.now() - Date.parse(at)));
    }
    for (const hashId of demoHashIds) {
      subscribe(hashId, () => {
        this.demo += 1;
      });
    }
  }

  take(): { latencies: number[]; demo: number } {
    const taken = { latencies: this.latencies.sort((a, b) => a - b), demo: this.demo };
    this.latencies = [];
    this.demo = 0;
    return taken;
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}

/** Counts the server's log lines by level (pino's JSON: 40 warn, 50 error, 60 fatal) and keeps them in a file. */
function watchLog(child: ChildProcess, file: string): { warnings: number; errors: number } {
  const counts = { warnings: 0, errors: 0 };
  const sink = createWriteStream(file);
  let partial = '';
  const onData = (chunk: Buffer) => {
    sink.write(chunk);
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const level = Number(/"level":(\d+)/.exec(line)?.[1] ?? 0);
      if (level >= 50) {
        counts.errors += 1;
      } else if (level >= 40) {
        counts.warnings += 1;
      }
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  child.once('exit', () => sink.end());
  return counts;
}

/** Runs the soak on PostgreSQL at `databaseUrl` (an empty database), or on PGlite in a fresh folder without one. */
export async function soakBenchmark(databaseUrl: string | null, options: SoakOptions): Promise<{ samples: SoakSample[]; summary: SoakSummary }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gridport-soak-'));
  const port = 19000 + Math.floor(Math.random() * 1000);
  const env: Record<string, string> = {
    GRIDPORT_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    GRIDPORT_DEMO: 'true',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const identitiesFile = path.join(dataDir, 'gateways.json');
  const { cookie, deviceHashIds, deviceIds } = await seed(env, options.gateways, identitiesFile);
  const base = `http://127.0.0.1:${port}`;
  const logFile = options.out ? `${options.out.replace(/\.csv$/, '')}.server.log` : path.join(dataDir, 'server.log');
  const server = spawn(process.execPath, [...nodeArgsForScripts(), ...options.serverNodeArgs, scriptPath('server/main')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = watchLog(server, logFile);
  const load = fork(scriptPath('bench/gateway-load'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: nodeArgsForScripts() });
  // PostgreSQL's size is read over a connection of this process; PGlite's is its folder's.
  const sizeReader = databaseUrl ? openDatabase({ url: databaseUrl, poolMax: 1 }) : null;
  const databaseMb = async () => {
    if (sizeReader) {
      const { rows } = (await sizeReader.db.raw('select pg_database_size(current_database()) as bytes')) as { rows: { bytes: string }[] };
      return Number(rows[0]?.bytes ?? 0) / 2 ** 20;
    }
    return folderBytes(path.join(dataDir, 'pglite')) / 2 ** 20;
  };
  let api: ApiLoad | null = null;
  let live: LiveData | null = null;
  const pid = server.pid ?? 0;
  try {
    const metrics = async () => parseMetrics(await (await fetch(`${base}/metrics`)).text());
    // Started once /metrics answers and the demo fleet's four gateways are connected.
    for (let waited = 0; ; waited += 250) {
      if (server.exitCode !== null) {
        throw new Error(`the server exited with ${server.exitCode}; its log: ${logFile}`);
      }
      try {
        if ((await metrics()).get('gridport_gateways_connected') === demoDeviceNames.length) {
          break;
        }
      } catch {
        // Not listening yet.
      }
      if (waited > 180_000) {
        throw new Error(`the server did not start with its demo gateways within three minutes; its log: ${logFile}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    options.onStarted?.({ pid, dataDir, logFile });
    const connected = next(load, 'connected');
    load.send({ kind: 'connect', url: base, identitiesFile, connections: options.gateways, concurrency: 64 } satisfies LoadCommand);
    const { failed: failedConnections } = await connected;

    const demoPage = (await (
      await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query SoakDemoDevices { devices(rowsPerPage: 50) { rows { hashId name } } }' }),
      })
    ).json()) as { data?: { devices: { rows: { hashId: string; name: string }[] } } };
    const demoHashIds = (demoPage.data?.devices.rows ?? []).filter((row) => (demoDeviceNames as readonly string[]).includes(row.name)).map((row) => row.hashId);
    live = new LiveData(base, cookie, deviceHashIds.slice(0, 5), demoHashIds);
    api = new ApiLoad(base, cookie);
    api.start(options.apiPerSecond);

    const samples: SoakSample[] = [];
    const windows: LoadResult[] = [];
    if (options.out) {
      writeFileSync(options.out, `${csvHeader()}\n`);
    }
    const started = performance.now();
    const startDatabaseMb = await databaseMb();
    let previousCpuMs = processReading(pid).cpuMs;
    let previousAt = performance.now();
    await metrics(); // Resets the event-loop delay histogram: the first window starts here.
    const deadline = started + options.minutes * 60_000;
    while (performance.now() < deadline) {
      const windowMs = Math.min(options.sampleSeconds * 1000, Math.max(1000, deadline - performance.now()));
      const loaded = next(load, 'loaded');
      load.send({ kind: 'load', reportsPerSecond: options.reportsPerSecond, warmupMs: 0, measureMs: windowMs } satisfies LoadCommand);
      const { result } = await loaded;
      windows.push(result);
      const now = performance.now();
      const reading = processReading(pid);
      const scraped = await metrics();
      const { latencies: apiLatencies, failures: apiFailures } = api.take();
      const { latencies: liveLatencies, demo } = live.take();
      const mb = (name: string) => round((scraped.get(name) ?? 0) / 2 ** 20);
      const ms = (name: string) => round((scraped.get(name) ?? 0) * 1000);
      const sample: SoakSample = {
        elapsedS: Math.round((now - started) / 1000),
        rssMb: round(reading.rssMb),
        heapUsedMb: mb('nodejs_heap_size_used_bytes'),
        heapTotalMb: mb('nodejs_heap_size_total_bytes'),
        externalMb: mb('nodejs_external_memory_bytes'),
        loopLagP99Ms: ms('nodejs_eventloop_lag_p99_seconds'),
        loopLagMeanMs: ms('nodejs_eventloop_lag_mean_seconds'),
        serverCores: round((reading.cpuMs - previousCpuMs) / (now - previousAt), 2),
        gatewaysConnected: scraped.get('gridport_gateways_connected') ?? 0,
        sent: result.sent,
        acknowledged: result.acknowledged,
        ackP50Ms: result.ackP50Ms,
        ackP99Ms: result.ackP99Ms,
        ackMaxMs: result.ackMaxMs,
        outstanding: result.outstanding,
        gatewayErrors: result.errors,
        gatewayCloses: result.closes,
        storedTotal: scraped.get('gridport_ingest_reports_total{outcome="stored"}') ?? 0,
        apiRequests: apiLatencies.length,
        apiP50Ms: round(percentile(apiLatencies, 50)),
        apiP99Ms: round(percentile(apiLatencies, 99)),
        apiFailures,
        liveReceived: liveLatencies.length,
        liveP50Ms: round(percentile(liveLatencies, 50)),
        liveP99Ms: round(percentile(liveLatencies, 99)),
        demoReports: demo,
        subscriptionDisconnects: live.disconnects,
        databaseMb: round(await databaseMb()),
        serverWarnings: log.warnings,
        serverErrors: log.errors,
      };
      previousCpuMs = reading.cpuMs;
      previousAt = now;
      samples.push(sample);
      if (options.out) {
        writeFileSync(options.out, `${csvLine(sample)}\n`, { flag: 'a' });
      }
      options.onSample?.(sample);
    }
    api.stop();
    // What is still unacknowledged at the end gets a moment to be; then the count in the database is final.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    await live.close();
    live = null;
    const endDatabaseMb = await databaseMb();
    await stoppedLoad(load);
    await stopped(server);
    const stored = await storedReports(env, deviceIds);
    const sent = windows.reduce((sum, window) => sum + window.sent, 0);
    const acknowledged = windows.reduce((sum, window) => sum + window.acknowledged, 0);
    const allAck = (key: 'ackP50Ms' | 'ackP99Ms') =>
      percentile(
        windows.map((window) => window[key]).sort((a, b) => a - b),
        50,
      );
    const apiSamples = samples.filter((sample) => sample.apiRequests > 0);
    const hours = (samples[samples.length - 1]?.elapsedS ?? 0) / 3600;
    const lastSample = samples[samples.length - 1];
    const heap = memoryVerdict(heapFloors(samples), (sample) => sample.heapUsedMb);
    const summary: SoakSummary = {
      minutes: options.minutes,
      samples: samples.length,
      gateways: options.gateways,
      failedConnections,
      reportsPerSecond: options.reportsPerSecond,
      sent,
      acknowledged,
      stored,
      lost: Math.max(0, sent - stored),
      ackP50Ms: round(allAck('ackP50Ms')),
      ackP99Ms: round(allAck('ackP99Ms')),
      ackWorstP99Ms: round(Math.max(0, ...windows.map((window) => window.ackP99Ms))),
      apiRequests: samples.reduce((sum, sample) => sum + sample.apiRequests, 0),
      apiP50Ms: round(
        percentile(
          apiSamples.map((sample) => sample.apiP50Ms).sort((a, b) => a - b),
          50,
        ),
      ),
      apiP99Ms: round(
        percentile(
          apiSamples.map((sample) => sample.apiP99Ms).sort((a, b) => a - b),
          50,
        ),
      ),
      apiFailures: samples.reduce((sum, sample) => sum + sample.apiFailures, 0),
      liveReceived: samples.reduce((sum, sample) => sum + sample.liveReceived, 0),
      liveP99Ms: round(
        percentile(
          samples.map((sample) => sample.liveP99Ms).sort((a, b) => a - b),
          50,
        ),
      ),
      demoReports: samples.reduce((sum, sample) => sum + sample.demoReports, 0),
      gatewayErrors: lastSample?.gatewayErrors ?? 0,
      gatewayCloses: lastSample?.gatewayCloses ?? 0,
      subscriptionDisconnects: lastSample?.subscriptionDisconnects ?? 0,
      serverWarnings: log.warnings,
      serverErrors: log.errors,
      loopLagWorstP99Ms: Math.max(0, ...samples.map((sample) => sample.loopLagP99Ms)),
      memory: memoryVerdict(samples),
      heap: { secondQuarterMb: heap.secondQuarterMb, lastQuarterMb: heap.lastQuarterMb, slopeMbPerHour: heap.slopeMbPerHour },
      databaseMb: {
        start: round(startDatabaseMb),
        end: round(endDatabaseMb),
        growthMbPerHour: hours === 0 ? 0 : round((endDatabaseMb - startDatabaseMb) / hours),
        bytesPerReport: stored === 0 ? 0 : Math.round(((endDatabaseMb - startDatabaseMb) * 2 ** 20) / stored),
      },
    };
    return { samples, summary };
  } finally {
    api?.stop();
    await live?.close();
    await stoppedLoad(load);
    await stopped(server);
    await sizeReader?.db.destroy();
    rmSync(path.join(dataDir, 'pglite'), { recursive: true, force: true });
  }
}

/** The loaded gateways' reports in the database, read once the server has stopped (PGlite serves one process at a time). */
async function storedReports(env: Record<string, string>, deviceIds: readonly number[]): Promise<number> {
  const config = loadConfig(env);
  const database = openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
  try {
    const [row] = (await database.db('device_reports').whereIn('device_id', deviceIds).count({ count: '*' })) as { count: string | number }[];
    return Number(row?.count ?? 0);
  } finally {
    await database.db.destroy();
  }
}
