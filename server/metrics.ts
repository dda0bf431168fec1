import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { Knex } from 'knex';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { GridportError } from '../contracts/errors';
import { metricsLimits, otherOperation, unmatchedRoute } from '../contracts/metrics';
import { monitorKinds, type MonitorKind } from '../contracts/monitors';
import type { HashIds } from '../graph/common/hash-ids';
import type { NodeMetrics } from '../graph/common/metrics';

export interface MetricsOptions {
  /** METRICS_TOKEN: a reader sends it as `Authorization: Bearer <token>`; without it only loopback clients read /metrics. */
  token?: string | null;
  /** Scrapes closer together than this share one reading of the database gauges (metricsLimits.scrapeQueryIntervalMs unless given). */
  queryIntervalMs?: number;
}

/** What the gauges read at scrape time: the database, and this node's hub once it runs. */
export interface MetricsSources {
  db: Knex;
  hashIds: HashIds;
  /** Gateways connected to this node now. */
  gateways?: () => number;
}

/** The methods labelled as themselves; any other is `_other`. */
const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

type OperationType = 'query' | 'mutation' | 'subscription' | 'unknown';

/** Operation documents longer than this are not searched for their operation's name (the token limit refuses them anyway). */
const searchedDocumentLength = 64 * 1024;

/** The seconds of request latencies: from a millisecond to ten seconds. */
const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Reports in one ingest batch, up to hubLimits.ingestBatchMax (2,000). */
const batchSizeBuckets = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2000];

/** An operation definition's keyword and name anywhere in a document (global: walked with lastIndex). */
const operationDefinition = /(?:^|[^A-Za-z0-9_])(query|mutation|subscription)\s+([A-Za-z_][A-Za-z0-9_]*)/g;

/** A GraphQL name (the spec's Name), as an operation name must be. */
const graphqlName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The operation's name and type as the document defines them: the `operationName` asked for when
 * the document defines an operation of that name, else the document's first operation when it
 * starts with a named one; null otherwise (an anonymous or unknown operation).
 */
export function operationOf(query: unknown, operationName: unknown): { name: string; type: OperationType } | null {
  if (typeof query !== 'string' || query.length > searchedDocumentLength) {
    return null;
  }
  if (typeof operationName === 'string' && operationName !== '') {
    if (operationName.length > metricsLimits.graphqlOperationNameLength || !graphqlName.test(operationName)) {
      return null;
    }
    // One regular expression made once, walked over the document's operation definitions (not one made per request and name).
    operationDefinition.lastIndex = 0;
    for (let defined = operationDefinition.exec(query); defined !== null; defined = operationDefinition.exec(query)) {
      if (defined[2] === operationName) {
        return { name: operationName, type: defined[1] as OperationType };
      }
    }
    return null;
  }
  // Without operationName the document must hold one operation; a leading named one is taken, comments skipped.
  const leading = /^(?:\s|,|#[^\n]*\n)*(query|mutation|subscription)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(query);
  const name = leading?.[2];
  if (!leading || name === undefined || name.length > metricsLimits.graphqlOperationNameLength) {
    return null;
  }
  return { name, type: leading[1] as OperationType };
}

/** Whether the address is the loopback interface (IPv4, IPv6, or IPv4 mapped into IPv6). */
export function isLoopback(address: string): boolean {
  if (!ipaddr.isValid(address)) {
    return false;
  }
  const parsed = ipaddr.process(address);
  return parsed.range() === 'loopback';
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** What the scrape-time queries read. */
interface DatabaseReading {
  outboxPending: number;
  openAlarms: Map<string, number>;
  forwardingLag: { destinationId: number; seconds: number }[];
}

type PoolCounts = { numUsed(): number; numFree(): number; numPendingAcquires(): number };

/**
 * The Prometheus metrics of one app (its own registry, so several apps in one process keep
 * theirs apart), served at /metrics: requests per route and per GraphQL operation, ingest,
 * gateways, outbox, monitors and alarms, forwarding lag, the database pool and the process.
 * docs/operations.md, "Metrics", lists each.
 */
export class Metrics {
  readonly registry = new Registry();
  /** The port the core and the hub count through (graph/common/metrics.ts). */
  readonly node: NodeMetrics;
  private readonly tokenHash: Buffer | null;
  private readonly queryIntervalMs: number;
  private sources: MetricsSources | null = null;
  private readonly operationNames = new Set<string>();
  private reading: { at: number; value: Promise<DatabaseReading | null> } | null = null;
  private lastReading: DatabaseReading | null = null;

  private readonly httpDuration = new Histogram({
    name: 'gridport_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, and the seconds each took to answer.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: latencyBuckets,
    registers: [this.registry],
  });
  private readonly graphqlDuration = new Histogram({
    name: 'gridport_graphql_operation_duration_seconds',
    help: 'GraphQL operations over HTTP by operation name, type and HTTP status, and the seconds each took.',
    labelNames: ['operation', 'type', 'status'] as const,
    buckets: latencyBuckets,
    registers: [this.registry],
  });
  private readonly ingestReports = new Counter({
    name: 'gridport_ingest_reports_total',
    help: 'Reports the ingest committed, by outcome: stored (new) or duplicate (stored before, acknowledged again).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly ingestBatchSize = new Histogram({
    name: 'gridport_ingest_batch_size',
    help: 'Reports in each batch the ingest wrote.',
    buckets: batchSizeBuckets,
    registers: [this.registry],
  });
  private readonly ingestBatchDuration = new Histogram({
    name: 'gridport_ingest_batch_duration_seconds',
    help: 'Seconds each ingest batch took to write and commit.',
    buckets: latencyBuckets,
    registers: [this.registry],
  });
  private readonly ingestPauses = new Counter({
    name: 'gridport_ingest_pauses_total',
    help: 'Times the ingest fell behind and this node stopped reading reports from every gateway until it caught up (back-pressure).',
    registers: [this.registry],
  });
  private readonly monitorReports = new Counter({
    name: 'gridport_monitor_reports_evaluated_total',
    help: "Stored reports the monitors' evaluator took up on this node.",
    registers: [this.registry],
  });
  private readonly monitorSweeps = new Counter({
    name: 'gridport_monitor_sweeps_total',
    help: "Rounds of the monitors' sweep run on this node (while it holds the sweep's lease).",
    registers: [this.registry],
  });
  private readonly scrapeQueryFailures = new Counter({
    name: 'gridport_metrics_database_read_failures_total',
    help: 'Scrapes whose database gauges could not be read in time; they kept their previous values.',
    registers: [this.registry],
  });

  constructor(options: MetricsOptions = {}) {
    this.tokenHash = options.token ? sha256(options.token) : null;
    this.queryIntervalMs = options.queryIntervalMs ?? metricsLimits.scrapeQueryIntervalMs;
    collectDefaultMetrics({ register: this.registry });
    this.node = {
      ingestBatch: (received, stored, seconds) => {
        this.ingestReports.inc({ outcome: 'stored' }, stored);
        this.ingestReports.inc({ outcome: 'duplicate' }, received - stored);
        this.ingestBatchSize.observe(received);
        this.ingestBatchDuration.observe(seconds);
      },
      ingestPaused: () => this.ingestPauses.inc(),
      monitorReportsEvaluated: (count) => this.monitorReports.inc(count),
      monitorSweep: () => this.monitorSweeps.inc(),
    };
    // Both outcomes are present from the start, so a rate over them never misses a series.
    this.ingestReports.inc({ outcome: 'stored' }, 0);
    this.ingestReports.inc({ outcome: 'duplicate' }, 0);
    this.gauges();
  }

  /** Where the gauges read at scrape time; until then they read nothing (and are absent). */
  watch(sources: MetricsSources): void {
    this.sources = sources;
  }

  /** The route and GraphQL operation of each answered request, counted once it is answered. */
  install(app: FastifyInstance): void {
    app.addHook('onResponse', (request, reply, done) => {
      this.observe(request, reply);
      done();
    });
    app.get('/metrics', { schema: { hide: true }, config: { operational: true } }, async (request, reply) => {
      this.authorize(request);
      return reply.type(this.registry.contentType).send(await this.registry.metrics());
    });
  }

  /** The label of a GraphQL operation: its name while fewer than metricsLimits.graphqlOperationNames are known, else `_other`. */
  operationLabel(query: unknown, operationName: unknown): { operation: string; type: OperationType } {
    const operation = operationOf(query, operationName);
    if (operation === null) {
      return { operation: otherOperation, type: 'unknown' };
    }
    if (!this.operationNames.has(operation.name)) {
      if (this.operationNames.size >= metricsLimits.graphqlOperationNames) {
        return { operation: otherOperation, type: operation.type };
      }
      this.operationNames.add(operation.name);
    }
    return { operation: operation.name, type: operation.type };
  }

  private observe(request: FastifyRequest, reply: FastifyReply): void {
    const seconds = reply.elapsedTime / 1000;
    const route = request.routeOptions.url ?? unmatchedRoute;
    const status = String(reply.statusCode);
    this.httpDuration.observe({ method: methods.has(request.method) ? request.method : otherOperation, route, status }, seconds);
    if (route === '/graphql') {
      const source = (request.method === 'GET' ? request.query : request.body) as { query?: unknown; operationName?: unknown } | null | undefined;
      const { operation, type } = this.operationLabel(source?.query, source?.operationName);
      this.graphqlDuration.observe({ operation, type, status }, seconds);
    }
  }

  /** METRICS_TOKEN as a bearer token when it is set; otherwise a client on the loopback interface. */
  private authorize(request: FastifyRequest): void {
    if (this.tokenHash === null) {
      if (!isLoopback(request.clientAddress)) {
        throw new GridportError('forbidden', { reason: 'metrics are served to loopback clients only unless METRICS_TOKEN is set' });
      }
      return;
    }
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    if (token === undefined || !timingSafeEqual(sha256(token), this.tokenHash)) {
      throw new GridportError('unauthorized');
    }
  }

  private gauges(): void {
    // The gauges' collect() runs with the gauge as `this`; these reach this node's sources.
    const sources = () => this.sources;
    const databaseReading = () => this.databaseReading();
    new Gauge({
      name: 'gridport_gateways_connected',
      help: 'Gateways connected to this node now.',
      registers: [this.registry],
      collect() {
        const gateways = sources()?.gateways;
        if (gateways) {
          this.set(gateways());
        }
      },
    });
    new Gauge({
      name: 'gridport_database_pool_connections',
      help: "The database pool of this node: connections in use, idle, and requests waiting for one ('used', 'free', 'pending').",
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const pool = (sources()?.db.client as { pool?: PoolCounts | null } | undefined)?.pool;
        if (pool) {
          this.set({ state: 'used' }, pool.numUsed());
          this.set({ state: 'free' }, pool.numFree());
          this.set({ state: 'pending' }, pool.numPendingAcquires());
        }
      },
    });
    new Gauge({
      name: 'gridport_outbox_pending_messages',
      help: `Messages to devices not yet acknowledged, all nodes together (counted up to ${metricsLimits.outboxCountMax}).`,
      registers: [this.registry],
      async collect() {
        const reading = await databaseReading();
        if (reading) {
          this.set(reading.outboxPending);
        }
      },
    });
    new Gauge({
      name: 'gridport_alarms_open',
      help: 'Open alarms, all nodes together, by monitor kind.',
      labelNames: ['monitor'] as const,
      registers: [this.registry],
      async collect() {
        const reading = await databaseReading();
        if (reading) {
          for (const monitor of Object.keys(monitorKinds) as MonitorKind[]) {
            this.set({ monitor }, reading.openAlarms.get(monitor) ?? 0);
          }
        }
      },
    });
    new Gauge({
      name: 'gridport_forwarding_lag_seconds',
      help: `Seconds since the oldest report a message destination has not been given was received (0 when it has all), by destination hash id; the ${metricsLimits.forwardingDestinations} most lagging.`,
      labelNames: ['destination'] as const,
      registers: [this.registry],
      async collect() {
        const reading = await databaseReading();
        const hashIds = sources()?.hashIds;
        if (reading && hashIds) {
          this.reset();
          for (const { destinationId, seconds } of reading.forwardingLag) {
            this.set({ destination: hashIds.encode('messageDestination', destinationId) }, seconds);
          }
        }
      },
    });
  }

  /**
   * The database gauges, read in one short transaction at most once per queryIntervalMs and
   * within metricsLimits.scrapeQueryTimeoutMs; a reading that fails or is late leaves the
   * previous one (counted in gridport_metrics_database_read_failures_total).
   */
  private databaseReading(): Promise<DatabaseReading | null> {
    const now = Date.now();
    if (this.reading && now - this.reading.at < this.queryIntervalMs) {
      return this.reading.value;
    }
    const db = this.sources?.db;
    if (!db) {
      return Promise.resolve(null);
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), metricsLimits.scrapeQueryTimeoutMs);
    });
    const value = Promise.race([readDatabase(db).catch(() => null), late]).then((reading) => {
      clearTimeout(timer);
      if (reading === null) {
        this.scrapeQueryFailures.inc();
        return this.lastReading;
      }
      this.lastReading = reading;
      return reading;
    });
    this.reading = { at: now, value };
    return value;
  }
}

async function readDatabase(db: Knex): Promise<DatabaseReading> {
  return db.transaction(async (trx) => {
    if (db.client.config.client === 'pg') {
      await trx.raw(`set local statement_timeout = ${metricsLimits.scrapeQueryTimeoutMs}`);
    }
    const outbox = (await trx.raw('select count(*)::int as pending from (select 1 from device_outbox where acknowledged_at is null limit ?) as waiting', [
      metricsLimits.outboxCountMax,
    ])) as { rows: { pending: number }[] };
    const alarms = (await trx.raw('select monitor, count(*)::int as open from alarms where closed_at is null group by monitor')) as {
      rows: { monitor: string; open: number }[];
    };
    const lag = (await trx.raw(
      `select id, seconds from (
         select d.message_destination_id as id,
                coalesce(extract(epoch from now() - (
                  select r.received_at from device_reports r
                   where (r.tx, r.seq) > (d.cursor_tx, d.cursor_seq)
                   order by r.tx, r.seq limit 1)), 0)::float8 as seconds
           from message_destination_deliveries d) as lags
        order by seconds desc, id
        limit ?`,
      [metricsLimits.forwardingDestinations],
    )) as { rows: { id: string | number; seconds: number }[] };
    return {
      outboxPending: Number(outbox.rows[0]?.pending ?? 0),
      openAlarms: new Map(alarms.rows.map((row) => [row.monitor, Number(row.open)])),
      forwardingLag: lag.rows.map((row) => ({ destinationId: Number(row.id), seconds: Math.max(0, Number(row.seconds)) })),
    };
  });
}
