import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';
import WebSocket from 'ws';
import { gatewayPath, parseEnvelope } from '../contracts/hub/protocol';
import { signChallenge } from '../edge/gateway-client/provision';

/**
 * The gateways of the ingest benchmark (bench/ingest.bench.ts), in processes of their own so
 * that their CPU and memory are not the server's. One such process seeds them on PostgreSQL
 * (`seed`: device rows and certificates), then exits; another is the load generator: it opens one websocket per gateway with
 * plain `ws` and the edge client's `signChallenge` (GatewayClient's disk store would make the
 * generator, not the server, the bottleneck), each gateway's key imported before the storm, then sends meter reports at a fixed total rate,
 * round-robin over the connections, and times each report from send to acknowledgement.
 * The parent talks to it over IPC: `connect`, then `load`, then `stop`.
 */

/** One gateway the parent provisioned: its certificate and PKCS#8 private key (base64). */
export interface LoadIdentity {
  certificatePem: string;
  privateKeyPkcs8: string;
}

export type LoadCommand =
  | { kind: 'seed'; env: Record<string, string>; count: number; identitiesFile: string }
  | { kind: 'connect'; url: string; identitiesFile: string; connections: number; concurrency: number }
  | { kind: 'load'; reportsPerSecond: number; warmupMs: number; measureMs: number }
  | { kind: 'stop' };

export type LoadEvent =
  | { kind: 'seeded'; deviceIds: number[]; ms: number }
  | { kind: 'connected'; connected: number; failed: number; ms: number; rssMb: number; cpuMs: number }
  | { kind: 'loaded'; result: LoadResult }
  | { kind: 'failed'; message: string };

export interface LoadResult {
  /** Reports sent and acknowledged within the measured window (by the time they were sent). */
  sent: number;
  acknowledged: number;
  /** Acknowledgements received per second during the window, whatever their send time. */
  acknowledgedPerSecond: number;
  sentPerSecond: number;
  ackP50Ms: number;
  ackP99Ms: number;
  ackMaxMs: number;
  /** Reports still unacknowledged at the end of the window. */
  outstanding: number;
  errors: number;
  closes: number;
  /** CPU of this process during the window, as a share of one core. */
  cpuCores: number;
  rssMb: number;
}

/** Measurement fields of a meter report: ten numbers (contracts/hub/reports.ts, meterPower). */
export const observationsPerReport = 10;

function meterReport(at: string, index: number): unknown {
  return {
    type: 'meterPower',
    at,
    asset: 0,
    observations: {
      activePower: 1500 + (index % 1000),
      reactivePower: -120.5,
      apparentPower: 1504.8,
      powerFactor: 0.997,
      frequency: 49.98,
      phaseVoltage: { l1: 230.1, l2: 231.4, l3: 229.8 },
      energyImport: 1_234_567 + index,
      energyExport: 98_765,
      connectionStatistics: { success: 12, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 },
    },
  };
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) {
    return 0;
  }
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

interface Gateway {
  socket: WebSocket;
  sequence: number;
  /** Send time (performance.now()) by report id, until acknowledged. */
  pending: Map<string, number>;
}

const gateways: Gateway[] = [];
let measuring = false;
let latencies: number[] = [];
let acknowledgedInWindow = 0;
let errors = 0;
let closes = 0;

function emit(event: LoadEvent): void {
  process.send?.(event);
}

function onFrame(gateway: Gateway, text: string): void {
  const envelope = parseEnvelope(text);
  if (!envelope) {
    return;
  }
  if (envelope.type === 'ack') {
    const now = performance.now();
    const ids = (envelope.payload as { ids?: unknown }).ids;
    if (!Array.isArray(ids)) {
      return;
    }
    for (const id of ids as string[]) {
      const sentAt = gateway.pending.get(id);
      if (sentAt === undefined) {
        continue;
      }
      gateway.pending.delete(id);
      if (measuring) {
        acknowledgedInWindow += 1;
        latencies.push(now - sentAt);
      }
    }
  } else if (envelope.type === 'error') {
    errors += 1;
  } else if (envelope.type === 'message') {
    gateway.socket.send(JSON.stringify({ id: `a${envelope.id}`, type: 'ack', payload: { ids: [envelope.id] } }));
  }
}

/** Opens one gateway's websocket and answers the challenge; resolves once welcomed. */
function open(url: string, identity: LoadIdentity, privateKey: webcrypto.CryptoKey): Promise<Gateway> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    const gateway: Gateway = { socket, sequence: 0, pending: new Map() };
    let welcomed = false;
    socket.on('message', (data) => {
      const text = data.toString();
      if (welcomed) {
        onFrame(gateway, text);
        return;
      }
      const envelope = parseEnvelope(text);
      if (envelope?.type === 'challenge') {
        void signChallenge(privateKey, String((envelope.payload as { nonce?: unknown }).nonce)).then((signature) =>
          socket.send(
            JSON.stringify({ id: 'auth', type: 'authenticate', payload: { certificate: identity.certificatePem, signature, networkInterface: 'eth0' } }),
          ),
        );
      } else if (envelope?.type === 'welcome') {
        welcomed = true;
        resolve(gateway);
      }
    });
    socket.on('close', (code) => {
      if (!welcomed) {
        reject(new Error(`closed with ${code} before the welcome`));
        return;
      }
      closes += 1;
    });
    socket.on('error', (error) => {
      if (!welcomed) {
        reject(error);
      }
    });
  });
}

async function connect(command: Extract<LoadCommand, { kind: 'connect' }>): Promise<void> {
  const identities = (JSON.parse(readFileSync(command.identitiesFile, 'utf8')) as LoadIdentity[]).slice(0, command.connections);
  // A gateway that reconnects holds its key already (GatewayClient imports it once, at start):
  // the keys are imported before the storm, so the storm times what a reconnect costs.
  const keys = await Promise.all(
    identities.map((identity) =>
      webcrypto.subtle.importKey('pkcs8', Buffer.from(identity.privateKeyPkcs8, 'base64'), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']),
    ),
  );
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const url = `${command.url.replace(/^http/, 'ws')}${gatewayPath}`;
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: command.concurrency }, async () => {
      while (next < identities.length) {
        const index = next;
        next += 1;
        try {
          gateways.push(await open(url, identities[index] as LoadIdentity, keys[index] as webcrypto.CryptoKey));
        } catch (error) {
          failed += 1;
          if (failed <= 3) {
            process.stderr.write(`gateway-load: a connection failed: ${error instanceof Error ? error.message : String(error)}\n`);
          }
        }
      }
    }),
  );
  emit({
    kind: 'connected',
    connected: gateways.length,
    failed,
    ms: Math.round(performance.now() - started),
    rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
    cpuMs: Math.round(cpuMs(process.cpuUsage(cpuStart))),
  });
}

/** Sends `reportsPerSecond` in all, round-robin, in ticks of 10 ms; measures after the warm-up. */
async function load(command: Extract<LoadCommand, { kind: 'load' }>): Promise<LoadResult> {
  const { reportsPerSecond, warmupMs, measureMs } = command;
  const started = performance.now();
  let sentTotal = 0;
  let cursor = 0;
  let sentInWindow = 0;
  let windowStart = 0;
  let cpuStart = process.cpuUsage();
  let index = 0;
  const tick = () => {
    const now = performance.now();
    const due = Math.floor(((now - started) / 1000) * reportsPerSecond) - sentTotal;
    const at = new Date().toISOString();
    for (let i = 0; i < due && gateways.length > 0; i += 1) {
      const gateway = gateways[cursor] as Gateway;
      cursor = (cursor + 1) % gateways.length;
      sentTotal += 1;
      if (gateway.socket.readyState !== WebSocket.OPEN) {
        continue;
      }
      gateway.sequence += 1;
      index += 1;
      const id = gateway.sequence.toString(36);
      gateway.pending.set(id, now);
      gateway.socket.send(JSON.stringify({ id, type: 'report', payload: meterReport(at, index) }));
      if (measuring) {
        sentInWindow += 1;
      }
    }
  };
  const timer = setInterval(tick, 10);
  await new Promise((resolve) => setTimeout(resolve, warmupMs));
  measuring = true;
  latencies = [];
  acknowledgedInWindow = 0;
  windowStart = performance.now();
  cpuStart = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, measureMs));
  measuring = false;
  clearInterval(timer);
  const seconds = (performance.now() - windowStart) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const sorted = Float64Array.from(latencies).sort();
  const outstanding = gateways.reduce((sum, gateway) => sum + gateway.pending.size, 0);
  return {
    sent: sentInWindow,
    acknowledged: acknowledgedInWindow,
    acknowledgedPerSecond: Math.round(acknowledgedInWindow / seconds),
    sentPerSecond: Math.round(sentInWindow / seconds),
    ackP50Ms: Number(percentile(sorted, 50).toFixed(1)),
    ackP99Ms: Number(percentile(sorted, 99).toFixed(1)),
    ackMaxMs: Number((sorted[sorted.length - 1] ?? 0).toFixed(1)),
    outstanding,
    errors,
    closes,
    cpuCores: Number(((cpu.user + cpu.system) / 1e6 / seconds).toFixed(2)),
    rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
  };
}

/** Seeds the gateways on the server's database (bench/ingest.bench.ts, seedGateways) from this process, then reports their device ids. */
async function seed(command: Extract<LoadCommand, { kind: 'seed' }>): Promise<void> {
  const started = performance.now();
  const [{ loadConfig }, { openDatabase }, { seedGateways }] = await Promise.all([
    import('../server/config'),
    import('../server/database'),
    import('./ingest.bench'),
  ]);
  const config = loadConfig(command.env);
  const database = openDatabase({ url: config.databaseUrl, pgliteDir: `${config.dataDir}/pglite` });
  try {
    const deviceIds = await seedGateways(database.db, config, command.count, command.identitiesFile);
    emit({ kind: 'seeded', deviceIds, ms: Math.round(performance.now() - started) });
  } finally {
    await database.db.destroy();
  }
}

// Only as a child of the benchmark (bench/ingest.bench.ts imports this module's types and constants too).
process.on('message', (command: LoadCommand) => {
  const fail = (error: unknown) => emit({ kind: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  if (command.kind === 'seed') {
    seed(command).catch(fail);
  } else if (command.kind === 'connect') {
    connect(command).catch(fail);
  } else if (command.kind === 'load') {
    load(command).then((result) => emit({ kind: 'loaded', result }), fail);
  } else {
    for (const gateway of gateways) {
      gateway.socket.terminate();
    }
    process.exit(0);
  }
});
