import 'reflect-metadata';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import { databaseAnswers, migrateLatest, openDatabase, type OpenDatabase } from './database';
import { createLogger, type Logger } from './logger';
import { HashIds } from '../graph/common/hash-ids';
import { createServices, type Services } from '../graph/services';
import { createGraphqlServer } from '../resolvers/gateway';
import { buildApp } from './app';
import { ensureDemoFleet, type DemoFleet } from './demo';
import { startDemoGateways } from './demo-gateways';
import { createDeviceHub, type DeviceHub } from '../device-hub/hub';
import type { PubSub } from '../graph/common/pubsub';
import { RedisPubSub } from '../device-hub/redis-pubsub';
import { registerGraphql } from './graphql';
import { attachGraphqlWs } from './graphql-ws';
import { attachDeveloperChannel } from './developer-channel';
import { version } from './version';
import { acquireDataFolder, DataFolderInUseError, type DataFolderLock } from './data-folder-lock';
import { serveOperatorSocket, type OperatorSocket } from './operator-socket';
import type { SmtpReceiver } from './smtp-receiver';
import { startIssueMail, type IssueMailRunning } from './issue-mail';
import { startFileSweep } from './file-sweep';
import { startInvoicing } from '../graph/billing/services/invoice-job';
import { ForwardingWorker } from '../graph/forwarding/services/delivery-worker';
import { startSubscriptionJob } from '../graph/billing/services/subscription-job';
import { Metrics } from './metrics';
import { Readiness } from './readiness';

/**
 * Connections the kernel holds for the server before it accepts them (capped by
 * net.core.somaxconn). Node's default, 511, is overrun when thousands of gateways come back at
 * once after an outage: the SYNs beyond it are dropped or reset and those gateways wait a
 * backoff. All at once, 10,000 took 33.4 s with 66 resets at 511, and 15.7 s with none at 4,096
 * (bench/ingest.bench.ts --concurrency 10000).
 */
const listenBacklog = 4096;

export interface RunningServer {
  app: FastifyInstance;
  database: OpenDatabase;
  services: Services;
  hub: DeviceHub;
  log: Logger;
  /** The address the server listens on, such as http://127.0.0.1:8080. */
  url: string;
  /** The SMTP receiver, when SMTP_INBOUND_PORT is set. */
  smtpReceiver: SmtpReceiver | null;
  /** This node's Prometheus metrics (/metrics). */
  metrics: Metrics;
  /** Whether this node can serve (/readyz); a stop makes it not ready first. */
  readiness: Readiness;
  stop(): Promise<void>;
}

/** How long start-up waits for Redis before going on without it (it keeps reconnecting). */
const redisStartupWaitMs = 10_000;

/** REDIS_URL without its password, for the log. */
function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) {
    parsed.password = '***';
  }
  return parsed.toString();
}

/**
 * The cross-node pub/sub when REDIS_URL is set (undefined otherwise: services make an
 * in-process one). A Redis that does not answer at start is logged, not fatal: the node serves
 * meanwhile, its messages reach only itself, and the connection is retried until it succeeds.
 */
async function openPubSub(config: Config, log: Logger): Promise<PubSub | undefined> {
  if (!config.redisUrl) {
    log.info({ pubsub: 'in-process' }, 'pub/sub in process: this node alone (set REDIS_URL to run several nodes)');
    return undefined;
  }
  const pubsub = new RedisPubSub({ url: config.redisUrl, log, prefix: config.redisPrefix });
  try {
    await pubsub.ready(redisStartupWaitMs);
    log.info({ pubsub: 'redis', redis: redactedUrl(config.redisUrl), prefix: config.redisPrefix }, 'pub/sub through Redis, across nodes');
  } catch {
    log.error(
      { pubsub: 'redis', redis: redactedUrl(config.redisUrl), prefix: config.redisPrefix },
      `Redis did not answer within ${redisStartupWaitMs / 1000} s; starting anyway, with messages reaching this node only until it does`,
    );
  }
  return pubsub;
}

/** How long a starting server waits for a command of the command line that holds the data folder. */
const commandLineWaitMs = 30_000;

/**
 * Takes the data folder for this server (PGlite is one process's database). A command of the
 * command line holding it finishes within seconds, so the server waits for it; another server
 * holding it is refused at once (DataFolderInUseError).
 */
async function takeDataFolder(dataDir: string, log: Logger): Promise<DataFolderLock> {
  const deadline = Date.now() + commandLineWaitMs;
  for (;;) {
    try {
      return acquireDataFolder(dataDir, 'server');
    } catch (error) {
      if (!(error instanceof DataFolderInUseError) || error.holder.role === 'server' || Date.now() > deadline) {
        throw error;
      }
      log.info({ pid: error.holder.pid }, 'waiting for a gridport command to finish with the data folder');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Opens the database (PGlite in the data folder unless DATABASE_URL is set), migrates it, and serves HTTP. */
export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const lock = config.databaseUrl ? null : await takeDataFolder(config.dataDir, log);
  const database = openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
  let pubsub: PubSub | undefined;
  let operatorSocket: OperatorSocket | undefined;
  let issueMail: IssueMailRunning | undefined;
  let fileSweep: { close(): Promise<void> } | undefined;
  let billingJob: { close(): Promise<void> } | undefined;
  let invoicing: { close(): Promise<void> } | undefined;
  let forwarding: ForwardingWorker | undefined;
  try {
    const applied = await migrateLatest(database.db, database.schema);
    log.info({ database: database.kind, applied }, 'database migrated');
    const hashIds = new HashIds(config.secrets.hashIdSecret);
    pubsub = await openPubSub(config, log);
    const services = createServices({
      db: database.db,
      hashIds,
      sessionSecret: config.secrets.sessionSecret,
      encryptionKey: config.secrets.encryptionKey,
      mail: { ...config.mail, publicUrl: config.publicUrl },
      log,
      balena: config.balena,
      hubspot: config.hubspot,
      pubsub,
      history: config.history,
      alarms: { recoverySeconds: config.monitors.recoverySeconds },
      files: config.files,
      grafanaOnCall: config.grafanaOnCall,
      twilio: { ...config.twilio, publicUrl: config.publicUrl },
      forwarding: config.forwarding,
      moneybird: config.moneybird,
    });
    if (lock?.holder.socketPath) {
      operatorSocket = await serveOperatorSocket(lock.holder.socketPath, services, log);
    }
    let demo: DemoFleet | null = null;
    if (config.demo) {
      demo = await ensureDemoFleet(services);
      log.info({ organizationHashId: demo.organizationHashId, devices: demo.deviceHashIds }, demo.created ? 'demo fleet created' : 'demo fleet present');
    }
    const graphql = await createGraphqlServer({ services, log, environment: config.environment });
    // The device CA is made (or read) now, not when the first gateway arrives; with HTTPS it names the client certificates asked for.
    const authority = await services.provisioning.authority();
    const metrics = new Metrics({ token: config.metrics.token });
    const redis = pubsub instanceof RedisPubSub ? pubsub : null;
    const readiness = new Readiness({ db: database.db, schema: database.schema, redis: redis ? () => redis.answers() : null });
    const app = await buildApp({
      services,
      log,
      version,
      saml: config.saml,
      trustedProxies: config.trustedProxies,
      http: config.http,
      ...(config.tls ? { https: { ...config.tls, clientCaPems: [authority.certificatePem] } } : {}),
      databaseAnswers: () => databaseAnswers(database.db),
      register: (instance) => registerGraphql(instance, { server: graphql.server, services }),
      metrics,
      readiness,
    });
    const hub = createDeviceHub({
      db: database.db,
      services,
      log,
      history: config.history,
      presence: config.presence,
      monitors: { sweepSeconds: config.monitors.sweepSeconds },
      metrics: metrics.node,
      redis,
    });
    hub.attach(app.server);
    metrics.watch({ db: database.db, hashIds, gateways: () => hub.gateways.size });
    // Forwarding: this node delivers to the destinations it claims, under the hub node's id (a crashed node's claims are free at once).
    forwarding = new ForwardingWorker({
      db: database.db,
      hashIds,
      destinations: services.messageDestinations,
      alarms: services.alarms,
      settings: config.forwarding,
      log: log.child({ part: 'forwarding' }),
      nodeId: hub.node.nodeId,
    });
    forwarding.start();
    const graphqlWs = await attachGraphqlWs(app.server, { services, log, trustedProxies: config.trustedProxies, graphql: graphql.server });
    const developerChannel = attachDeveloperChannel(app.server, { services, log, trustedProxies: config.trustedProxies });
    const address = await app.listen({ port: config.port, host: config.host, backlog: listenBacklog });
    const url = address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
    issueMail = await startIssueMail(config, services, log);
    fileSweep = startFileSweep(services.files, log);
    billingJob = startSubscriptionJob(services.billingJob, config.billing.jobIntervalSeconds, log);
    invoicing = startInvoicing(services.invoicing, log.child({ part: 'invoicing' }), config.billing.invoiceIntervalSeconds);
    if (config.tls) {
      log.info({ url }, 'serving HTTPS; gateways may prove themselves by mutual TLS');
    }
    // The demo fleet's gateways connect to this server as any gateway does, so they start once it listens.
    const demoGateways = demo ? await startDemoGateways({ services, deviceHashIds: demo.deviceHashIds, baseUrl: url, dataDir: config.dataDir, log }) : null;
    if (demoGateways) {
      log.info({ sites: demoGateways.sites.map((site) => site.name) }, 'demo gateways running against their simulated sites');
    }
    return {
      app,
      database,
      services,
      log,
      url,
      hub,
      smtpReceiver: issueMail.smtpReceiver,
      metrics,
      readiness,
      stop: async () => {
        readiness.shuttingDown();
        await forwarding?.stop();
        await issueMail?.close();
        await fileSweep?.close();
        await billingJob?.close();
        await invoicing?.close();
        await operatorSocket?.close();
        await demoGateways?.close();
        await hub.close();
        await graphqlWs.close();
        await developerChannel.close();
        await app.close();
        await graphql.stop();
        services.mail.close();
        await services.pubsub.close();
        await database.db.destroy();
        lock?.release();
      },
    };
  } catch (error) {
    await forwarding?.stop();
    await issueMail?.close();
    await fileSweep?.close();
    await billingJob?.close();
    await invoicing?.close();
    await pubsub?.close();
    await operatorSocket?.close();
    await database.db.destroy();
    lock?.release();
    throw error;
  }
}
