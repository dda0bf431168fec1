import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Right } from '../contracts/rights';
import { HashIds } from '../graph/common/hash-ids';
import { createServices, type Dependencies, type Services } from '../graph/services';
import { createGraphqlServer } from '../resolvers/gateway';
import { buildApp, type AppOptions } from '../server/app';
import { registerGraphql } from '../server/graphql';
import { attachGraphqlWs } from '../server/graphql-ws';
import { attachDeveloperChannel } from '../server/developer-channel';
import { createDeviceHub, type DeviceHub } from '../device-hub/hub';
import type { ReconnectThrottleSettings } from '../device-hub/reconnect-throttle';
import type { MonitorSweepSettings } from '../graph/operations/services/monitor-sweep';
import { databaseAnswers } from '../server/database';
import { createLogger, type Logger } from '../server/logger';
import { testDatabase, type TestDatabase } from './database';
import { buildSession, providerHashId } from './factories';
import { ForwardingWorker } from '../graph/forwarding/services/delivery-worker';
import { Metrics, type MetricsOptions } from '../server/metrics';
import { Readiness } from '../server/readiness';

export const testSecrets = {
  hashIdSecret: 'test-hash-id-secret-0123456789abcdef0123456789',
  sessionSecret: 'test-session-secret-0123456789abcdef0123456789',
  encryptionKey: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
};

/** Log lines written during a test, parsed. */
export interface LogCapture {
  lines: Record<string, unknown>[];
  log: Logger;
}

export function captureLogs(): LogCapture {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { lines, log: createLogger('info', stream) };
}

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  hashIds: HashIds;
  database: TestDatabase;
  logs: LogCapture;
  /** The device hub, when asked for. */
  hub: DeviceHub | null;
  /** The forwarding worker, when asked for (deliver). */
  forwarding: ForwardingWorker | null;
  /** The app's Prometheus metrics (/metrics), when asked for. */
  metrics: Metrics | null;
  /** What /readyz answers from (on the test database). */
  readiness: Readiness;
  /** Listens on a free loopback port (for websockets and real HTTP clients); answers the base URL, http://127.0.0.1:<port>. */
  listen(): Promise<string>;
  /** A real console session for a new user with these rights, as a Cookie header value. */
  signIn(rights: Right[], organizationHashId?: string): Promise<string>;
  /** One request through the app (no socket): as a console session or an API key, with a JSON body when given. */
  call(method: HttpMethod, url: string, caller?: Caller, payload?: object): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who calls: a session's Cookie header value (as signIn answers it), an API key, or nobody (undefined). */
export type Caller = string | { cookie?: string; bearer?: string; headers?: Record<string, string> };

function headersOf(caller: Caller | undefined): Record<string, string> {
  if (caller === undefined) {
    return {};
  }
  if (typeof caller === 'string') {
    return { cookie: caller };
  }
  return {
    ...caller.headers,
    ...(caller.cookie === undefined ? {} : { cookie: caller.cookie }),
    ...(caller.bearer === undefined ? {} : { authorization: `Bearer ${caller.bearer}` }),
  };
}

/**
 * `forwarding`: how the install forwards; destinations pointing at 127.0.0.1 need
 * `{ ...defaultForwardingSettings, allowPrivateNetworks: true }`.
 */
export interface TestAppOptions extends Pick<
  Dependencies,
  'mail' | 'balena' | 'hubspot' | 'files' | 'grafanaOnCall' | 'twilio' | 'forwarding' | 'moneybird' | 'clock'
> {
  /** Serve /graphql too, through the composed gateway (as the server does). */
  graphql?: boolean;
  /** Serve gateways at /v1/device/connect too (call app.listen to reach it). */
  hub?: boolean;
  /** The hub's monitor sweep (every 10 s unless given); false runs no monitors. */
  monitors?: MonitorSweepSettings | false;
  /** Alarm recovery (ALARM_RECOVERY_SECONDS, 600 unless given). */
  alarms?: Dependencies['alarms'];
  /** How long a developer's tunnel waits for the device (hubLimits.tunnelOpenTimeoutMs unless given). */
  tunnelOpenTimeoutMs?: number;
  /** Connections per device and window (hubLimits.reconnectsPerWindow in reconnectWindowMs unless given): tests that reconnect one gateway many times raise it. */
  reconnectThrottle?: ReconnectThrottleSettings;
  /** Serve HTTPS with this certificate, asking for client certificates of the device CA (as the server does with TLS_CERT_FILE). */
  tls?: { certificatePem: string; privateKeyPem: string };
  /** Run the forwarding worker (with the hub: under its node id), as the server does. */
  deliver?: boolean;
  /** Serve /metrics, counting what the app (and its hub) does, as the server does. */
  metrics?: boolean | MetricsOptions;
}

/** The HTTP app on a test database, as the server builds it. */
export async function testApp(
  overrides: Partial<AppOptions> = {},
  {
    graphql: withGraphql = false,
    hub: withHub = false,
    monitors,
    tunnelOpenTimeoutMs,
    reconnectThrottle,
    tls,
    deliver = false,
    metrics: withMetrics = false,
    ...dependencies
  }: TestAppOptions = {},
): Promise<TestApp> {
  const database = await testDatabase();
  const hashIds = new HashIds(testSecrets.hashIdSecret);
  const services = createServices({
    db: database.db,
    hashIds,
    sessionSecret: testSecrets.sessionSecret,
    encryptionKey: testSecrets.encryptionKey,
    ...dependencies,
  });
  const logs = captureLogs();
  const graphql = withGraphql ? await createGraphqlServer({ services, log: logs.log, environment: 'test' }) : null;
  const metrics = withMetrics === false ? null : new Metrics(withMetrics === true ? {} : withMetrics);
  const readiness = new Readiness({ db: database.db, schema: database.schema });
  const app = await buildApp({
    services,
    log: logs.log,
    version: 'test',
    databaseAnswers: () => databaseAnswers(database.db),
    ...(tls ? { https: { ...tls, clientCaPems: [(await services.provisioning.authority()).certificatePem] } } : {}),
    ...(graphql ? { register: (instance: FastifyInstance) => registerGraphql(instance, { server: graphql.server, services }) } : {}),
    ...(metrics ? { metrics } : {}),
    readiness,
    ...overrides,
  });
  const hub = withHub
    ? createDeviceHub({
        db: database.db,
        services,
        log: logs.log,
        ...(monitors === undefined ? {} : { monitors }),
        ...(metrics ? { metrics: metrics.node } : {}),
        ...(reconnectThrottle ? { reconnectThrottle } : {}),
      })
    : null;
  hub?.attach(app.server);
  metrics?.watch({ db: database.db, hashIds, ...(hub ? { gateways: () => hub.gateways.size } : {}) });
  const forwarding = deliver
    ? new ForwardingWorker({
        db: database.db,
        hashIds,
        destinations: services.messageDestinations,
        alarms: services.alarms,
        settings: services.forwardingSettings,
        log: logs.log,
        nodeId: hub?.node.nodeId ?? 'test-node',
      })
    : null;
  forwarding?.start();
  const graphqlWs = graphql ? await attachGraphqlWs(app.server, { services, log: logs.log, trustedProxies: [], graphql: graphql.server }) : null;
  const developerChannel = hub
    ? attachDeveloperChannel(app.server, { services, log: logs.log, trustedProxies: [], ...(tunnelOpenTimeoutMs === undefined ? {} : { tunnelOpenTimeoutMs }) })
    : null;
  return {
    app,
    hub,
    services,
    hashIds,
    database,
    logs,
    metrics,
    readiness,
    listen: async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      return `${tls ? 'https' : 'http'}://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    },
    signIn: async (rights, organizationHashId = providerHashId(services)) => (await buildSession(services, { rights, organizationHashId })).cookie,
    call: (method, url, caller, payload) => app.inject({ method, url, headers: headersOf(caller), ...(payload === undefined ? {} : { payload }) }),
    forwarding,
    close: async () => {
      await forwarding?.stop();
      await hub?.close();
      await graphqlWs?.close();
      await developerChannel?.close();
      await app.close();
      await graphql?.stop();
      services.mail.close();
      await database.close();
    },
  };
}
