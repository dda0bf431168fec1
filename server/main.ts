import 'reflect-metadata';
import { ConfigError, loadConfig } from './config';
import { demoSignIns } from './demo';
import { createLogger } from './logger';
import { startServer } from './server';
import { DataFolderInUseError } from './data-folder-lock';
import { nodeVersionProblem } from './node-version';

async function main(): Promise<void> {
  const nodeProblem = nodeVersionProblem();
  if (nodeProblem) {
    process.stderr.write(`${nodeProblem}\n`);
    process.exit(1);
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  const starting = startServer(config, log);
  // Signals are heard from now on: the server answers HTTP before its start has finished (the demo
  // gateways connect to it), and a stop asked for meanwhile waits for the start, then stops cleanly.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      return;
    }
    stopping = true;
    log.info({ signal }, 'stopping');
    starting
      .then((started) => started.stop())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, 'failed to stop cleanly');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  const server = await starting;
  log.info(
    {
      url: server.url,
      database: config.databaseUrl ? 'postgresql' : `pglite in ${config.dataDir}`,
      pubsub: config.redisUrl ? 'redis' : 'in-process',
      demo: config.demo,
    },
    `Gridport is listening on ${server.url} (console: ${server.url}/, health: ${server.url}/v1/health, GraphQL: ${server.url}/graphql, OpenAPI: ${server.url}/openapi.json)`,
  );
  if (config.demo) {
    const { customer, staff } = demoSignIns;
    log.info(
      { customer: customer.email, staff: staff.email },
      `Demo sign-ins: open ${server.url}/login as ${customer.email} with password ${customer.password}; staff open ${server.url}/admin and sign in through the development identity provider as ${staff.email}`,
    );
  }
}

main().catch((error: unknown) => {
  if (error instanceof DataFolderInUseError) {
    process.stderr.write(
      `Gridport cannot start: ${error.message} Its embedded database (PGlite) serves one process at a time. ` +
        'Stop that server first, or start this one with GRIDPORT_DATA_DIR set to another folder, or let several servers share PostgreSQL (DATABASE_URL). ' +
        'The command line (npx gridport) works beside a running server.\n',
    );
    process.exit(1);
  }
  process.stderr.write(`Gridport failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
