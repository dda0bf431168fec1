import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Right } from '../contracts/rights';
import { providerOrganizationId } from '../contracts/limits';
import { systemActor } from '../graph/common/context';
import { HashIds } from '../graph/common/hash-ids';
import { createServices, type Dependencies, type Services } from '../graph/services';
import { sessionCookieName } from '../graph/identity/services/session.service';
import { createGraphqlServer } from '../graph/gateway';
import { buildApp, type AppOptions } from '../server/app';
import { registerGraphql } from '../server/graphql';
import { attachGraphqlWs } from '../server/graphql-ws';
import { attachDeveloperChannel } from '../server/developer-channel';
import { createDeviceHub, type DeviceHub } from '../device-hub/hub';
import { databaseAnswers } from '../server/database';
import { createLogger, type Logger } from '../server/logger';
import { testDatabase, type TestDatabase } from './database';

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
  /** Listens on a free loopback port (for websockets and real HTTP clients); answers the base URL, http://127.0.0.1:<port>. */
  listen(): Promise<string>;
  /** A real console session for a new user with these rights, as a Cookie header value. */
  signIn(rights: Right[], organizationHashId?: string): Promise<string>;
  close(): Promise<void>;
}

let users = 0;

export interface TestAppOptions extends Pick<Dependencies, 'mail' | 'balena' | 'hubspot'> {
  /** Serve /graphql too, through the composed gateway (as the server does). */
  graphql?: boolean;
  /** Serve gateways at /v1/device/connect too (call app.listen to reach it). */
  hub?: boolean;
  /** How long a developer's tunnel waits for the device (hubLimits.tunnelOpenTimeoutMs unless given). */
  tunnelOpenTimeoutMs?: number;
  /** Serve HTTPS with this certificate, asking for client certificates of the device CA (as the server does with TLS_CERT_FILE). */
  tls?: { certificatePem: string; privateKeyPem: string };
}

/** The HTTP app on a test database, as the server builds it. */
export async function testApp(overrides: Partial<AppOptions> = {}, { graphql: withGraphql = false, hub: withHub = false, tunnelOpenTimeoutMs, tls, ...dependencies }: TestAppOptions = {}): Promise<TestApp> {
  const database = await testDatabase();
  const hashIds = new HashIds(testSecrets.hashIdSecret);
  const services = createServices({ db: database.db, hashIds, sessionSecret: testSecrets.sessionSecret, encryptionKey: testSecrets.encryptionKey, ...dependencies });
  const logs = captureLogs();
  const graphql = withGraphql ? await createGraphqlServer({ services, log: logs.log, environment: 'test' }) : null;
  const app = await buildApp({
    services,
    log: logs.log,
    version: 'test',
    databaseAnswers: () => databaseAnswers(database.db),
    ...(tls ? { https: { ...tls, clientCaPems: [(await services.provisioning.authority()).certificatePem] } } : {}),
    ...(graphql ? { register: (instance: FastifyInstance) => registerGraphql(instance, { server: graphql.server, services }) } : {}),
    ...overrides,
  });
  const hub = withHub ? createDeviceHub({ db: database.db, services, log: logs.log }) : null;
  hub?.attach(app.server);
  const graphqlWs = graphql ? await attachGraphqlWs(app.server, { services, log: logs.log, trustedProxies: [] }) : null;
  const developerChannel = hub ? attachDeveloperChannel(app.server, { services, log: logs.log, trustedProxies: [], ...(tunnelOpenTimeoutMs === undefined ? {} : { tunnelOpenTimeoutMs }) }) : null;
  return {
    app,
    hub,
    services,
    hashIds,
    database,
    logs,
    listen: async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      return `${tls ? 'https' : 'http'}://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    },
    signIn: async (rights, organizationHashId = hashIds.encode('organization', providerOrganizationId)) => {
      users += 1;
      const user = await services.users.create(systemActor('test'), {
        organizationHashId,
        name: `User ${users}`,
        email: `user${users}-${Date.now()}@example.com`,
        rights,
      });
      const userId = hashIds.decode('user', user.hashId);
      if (userId === null) {
        throw new Error('a user hash id that does not decode');
      }
      const session = await services.sessions.mint(userId, 'test');
      return `${sessionCookieName}=${session.token}`;
    },
    close: async () => {
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
