import 'reflect-metadata';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import { databaseAnswers, migrateLatest, openDatabase, type OpenDatabase } from './database';
import { createLogger, type Logger } from './logger';
import { HashIds } from '../graph/common/hash-ids';
import { createServices, type Services } from '../graph/services';
import { createGraphqlServer } from '../graph/gateway';
import { buildApp } from './app';
import { ensureDemoFleet } from './demo';
import { createDeviceHub, type DeviceHub } from '../device-hub/hub';
import { registerGraphql } from './graphql';
import { version } from './version';

export interface RunningServer {
  app: FastifyInstance;
  database: OpenDatabase;
  services: Services;
  hub: DeviceHub;
  log: Logger;
  /** The address the server listens on, such as http://127.0.0.1:8080. */
  url: string;
  stop(): Promise<void>;
}

/** Opens the database (PGlite in the data folder unless DATABASE_URL is set), migrates it, and serves HTTP. */
export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const database = openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
  try {
    const applied = await migrateLatest(database.db, database.schema);
    log.info({ database: database.kind, applied }, 'database migrated');
    const hashIds = new HashIds(config.secrets.hashIdSecret);
    const services = createServices({ db: database.db, hashIds, sessionSecret: config.secrets.sessionSecret, encryptionKey: config.secrets.encryptionKey, mail: { ...config.mail, publicUrl: config.publicUrl }, log, balena: config.balena, hubspot: config.hubspot });
    if (config.demo) {
      const demo = await ensureDemoFleet(services);
      log.info({ organizationHashId: demo.organizationHashId, devices: demo.deviceHashIds }, demo.created ? 'demo fleet created' : 'demo fleet present');
    }
    const graphql = await createGraphqlServer({ services, log, environment: config.environment });
    const app = await buildApp({
      services,
      log,
      version,
      saml: config.saml,
      trustedProxies: config.trustedProxies,
      databaseAnswers: () => databaseAnswers(database.db),
      register: (instance) => registerGraphql(instance, { server: graphql.server, services }),
    });
    // The device CA is made (or read) now, not when the first gateway arrives.
    await services.provisioning.authority();
    const hub = createDeviceHub({ db: database.db, services, log });
    hub.attach(app.server);
    const address = await app.listen({ port: config.port, host: config.host });
    const url = address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
    return {
      app,
      database,
      services,
      log,
      url,
      hub,
      stop: async () => {
        await hub.close();
        await app.close();
        await graphql.stop();
        services.mail.close();
        await database.db.destroy();
      },
    };
  } catch (error) {
    await database.db.destroy();
    throw error;
  }
}
