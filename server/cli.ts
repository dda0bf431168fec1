import 'reflect-metadata';
import path from 'node:path';
import { GridportError } from '../contracts/errors';
import { HashIds } from '../graph/common/hash-ids';
import { createServices } from '../graph/services';
import { ConfigError, loadConfig, type Config } from './config';
import { migrateLatest, openDatabase } from './database';
import { runEdgeCommand } from '../edge/agent/run';
import { driverFactoryWith, hasDriver } from '../edge/drivers';
import { loadRegisterMaps } from '../edge/drivers/maps/load';
import type { AgentLog } from '../edge/agent/journal';
import { createHostNetwork } from '../edge/network';
import { acquireDataFolder, currentHolder, DataFolderInUseError, describeHolder, type DataFolderLock, type LockHolder } from './data-folder-lock';
import { askServer } from './operator-socket';
import { nodeVersionProblem } from './node-version';
import { parseCommand, printRefusal, runDatabaseCommand, usage, type CliIo, type CommandValues, type DatabaseCommand } from './operator-commands';

export type { CliIo } from './operator-commands';

const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/** How long the command line waits for a starting server to answer, or for another command to finish. */
const waitForDataFolderMs = 60_000;
const pollMs = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs one command of the operator command line; resolves to the process exit code. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  const nodeProblem = nodeVersionProblem();
  if (nodeProblem) {
    io.err(nodeProblem);
    return 1;
  }
  const parsed = parseCommand(argv, io);
  if (parsed.kind === 'exit') {
    return parsed.code;
  }
  const { command, values } = parsed;
  if (command === 'edge') {
    return runEdge(values, io);
  }
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
  if (config.databaseUrl) {
    return runOnDatabase(command, values, config, io);
  }
  return runEmbedded(argv, command, values, config, io);
}

async function runEdge(values: CommandValues, io: CliIo): Promise<number> {
  // A gateway has no database: the agent runs before the server's configuration is read.
  if (values.hub === undefined || values.state === undefined) {
    io.err(`gridport: edge needs --hub and --state\n\n${usage}`);
    return 2;
  }
  try {
    // Operator maps are checked before the agent starts: a bad map stops it with the file and point named.
    const maps = values['register-maps'] === undefined ? undefined : await loadRegisterMaps(path.resolve(values['register-maps']), hasDriver);
    const stateDirectory = path.resolve(values.state);
    const log: AgentLog = (level, message, details) => io.err(JSON.stringify({ time: new Date().toISOString(), level, message, ...details }));
    // The host's own network only when asked: on a developer's machine the agent must not touch NetworkManager.
    const hostNetwork = values['host-network'] ? await createHostNetwork({ stateDirectory, baseUrl: values.hub, log }) : undefined;
    return await runEdgeCommand({
      hub: values.hub,
      token: values.token,
      identifier: values.identifier,
      stateDirectory,
      ...(maps === undefined ? {} : { parts: { createDriver: driverFactoryWith(maps) } }),
      ...(hostNetwork === undefined ? {} : { hostNetwork }),
      log,
    });
  } catch (error) {
    if (error instanceof GridportError) {
      io.err(values.json ? JSON.stringify(error.toBody()) : `gridport: ${error.key}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

/**
 * On the embedded database the command line never opens the data folder beside a server: while
 * a server holds it, the server carries the command out (server/operator-socket.ts); while
 * another command holds it, this one waits its turn; otherwise it opens the folder itself.
 */
async function runEmbedded(argv: string[], command: DatabaseCommand, values: CommandValues, config: Config, io: CliIo): Promise<number> {
  const deadline = Date.now() + waitForDataFolderMs;
  let lastHolder: LockHolder | null = null;
  let unanswered: unknown = null;
  while (Date.now() < deadline) {
    let lock: DataFolderLock;
    try {
      lock = acquireDataFolder(config.dataDir, 'command line');
    } catch (error) {
      if (!(error instanceof DataFolderInUseError)) {
        throw error;
      }
      lastHolder = error.holder;
      if (error.holder.role === 'server' && error.holder.socketPath) {
        try {
          const answer = await askServer(error.holder.socketPath, argv);
          answer.out.forEach((line) => io.out(line));
          answer.err.forEach((line) => io.err(line));
          return answer.code;
        } catch (refused) {
          // A server still starting (its socket comes up once its database is open), or one just gone.
          unanswered = refused;
        }
      }
      await sleep(pollMs);
      continue;
    }
    try {
      return await runOnDatabase(command, values, config, io);
    } finally {
      lock.release();
    }
  }
  const holder = lastHolder ?? currentHolder(config.dataDir);
  const who = holder ? describeHolder(holder) : 'another process';
  const why = unanswered instanceof Error ? ` (${unanswered.message})` : '';
  io.err(
    `gridport: the data folder ${config.dataDir} is in use by ${who}, which did not answer within ${waitForDataFolderMs / 1000} s${why}. ` +
      'Wait for it to finish starting or stop it, then try again; or run Gridport on PostgreSQL (DATABASE_URL), where the command line and the server work side by side.',
  );
  return 1;
}

async function runOnDatabase(command: DatabaseCommand, values: CommandValues, config: Config, io: CliIo): Promise<number> {
  const database = openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
  try {
    const applied = await migrateLatest(database.db, database.schema);
    const services = createServices({
      db: database.db,
      hashIds: new HashIds(config.secrets.hashIdSecret),
      sessionSecret: config.secrets.sessionSecret,
      encryptionKey: config.secrets.encryptionKey,
      mail: { ...config.mail, publicUrl: config.publicUrl },
      balena: config.balena,
      hubspot: config.hubspot,
    });
    return await runDatabaseCommand(command, values, services, applied, io);
  } catch (error) {
    if (printRefusal(error, values.json, io)) {
      return 1;
    }
    throw error;
  } finally {
    await database.db.destroy();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`gridport: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
