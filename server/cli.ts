import 'reflect-metadata';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as yup from 'yup';
import { organizationCreateSchema, type OrganizationView } from '../contracts/organization';
import { emailSchema, userCreateSchema } from '../contracts/user';
import { apiKeyCreateSchema } from '../contracts/api-key';
import { deviceShipSchema } from '../contracts/fleet';
import { rights } from '../contracts/rights';
import { sessionCookieName } from '../graph/identity/services/session.service';
import { validate } from '../contracts/validation';
import { GridportError } from '../contracts/errors';
import { systemActor } from '../graph/common/context';
import { HashIds } from '../graph/common/hash-ids';
import { createServices } from '../graph/services';
import { ConfigError, loadConfig, type Config } from './config';
import { migrateLatest, openDatabase } from './database';
import { runEdgeCommand } from '../edge/agent/run';

const usage = `Usage: gridport <command> [options]

Commands:
  migrate                                   run every pending database migration
  org create --name <name> --type <type>    create an organisation
                                            (type: energy-trader, data-receiver, asset-owner, installer)
  org provider                              print the provider organisation
  user create --org <hashId> --email <email> --name <name> --rights <a,b> [--password <password>]
                                            create a user (rights: gridport.admin, gridport.ops,
                                            gridport.developer, gridport.sales, gridport.employee,
                                            customer.read, customer.write)
  session create --email <email>            start a console session for a user and print the
                                            Cookie header value that carries it
  api-key create --org <hashId> --name <name> [--rights <a,b>] [--ip-ranges <cidr,cidr>]
                                            create an API key and print its secret (shown once);
                                            a provider key needs --rights (staff rights), a
                                            customer key carries customer.read and customer.write
  device ship --org <hashId> --name <name> [--group <hashId>]
                                            create a device record open for provisioning and print
                                            its hash id and one-time provisioning token
  edge --hub <url> --state <dir> [--token <token>] [--identifier <id>]
                                            run the gateway agent (docs/edge.md): provisions with
                                            the token at the first start (the key stays in
                                            <dir>), then connects to the hub and runs until
                                            SIGTERM or SIGINT; needs no database

Options:
  --json    print one JSON object instead of text
  --help    print this help

The database is the one the server uses: DATABASE_URL, or PGlite in GRIDPORT_DATA_DIR.`;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

function describeOrganization(organization: OrganizationView): string {
  return `${organization.name} (${organization.type ?? 'provider'}), hash id ${organization.hashId}`;
}

/** Runs one command of the operator command line; resolves to the process exit code. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
      name: { type: 'string' },
      type: { type: 'string' },
      org: { type: 'string' },
      email: { type: 'string' },
      rights: { type: 'string' },
      password: { type: 'string' },
      'ip-ranges': { type: 'string' },
      group: { type: 'string' },
      hub: { type: 'string' },
      token: { type: 'string' },
      state: { type: 'string' },
      identifier: { type: 'string' },
    },
  });
  const command = positionals.join(' ');
  if (values.help || command === '') {
    io.out(usage);
    return values.help ? 0 : 2;
  }
  if (!['migrate', 'org create', 'org provider', 'user create', 'session create', 'api-key create', 'device ship', 'edge'].includes(command)) {
    io.err(`gridport: unknown command "${command}"\n\n${usage}`);
    return 2;
  }
  if (command === 'edge') {
    // A gateway has no database: the agent runs before the server's configuration is read.
    if (values.hub === undefined || values.state === undefined) {
      io.err(`gridport: edge needs --hub and --state\n\n${usage}`);
      return 2;
    }
    try {
      return await runEdgeCommand({
        hub: values.hub,
        token: values.token,
        identifier: values.identifier,
        stateDirectory: path.resolve(values.state),
        log: (level, message, details) => io.err(JSON.stringify({ time: new Date().toISOString(), level, message, ...details })),
      });
    } catch (error) {
      if (error instanceof GridportError) {
        io.err(values.json ? JSON.stringify(error.toBody()) : `gridport: ${error.key}: ${error.message}`);
        return 1;
      }
      throw error;
    }
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
  const database = openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
  const print = (json: object, text: string) => io.out(values.json ? JSON.stringify(json) : text);
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
    const actor = systemActor('gridport command line');
    switch (command) {
      case 'migrate':
        print({ applied }, applied.length === 0 ? 'The database is up to date.' : `Applied ${applied.length} migration(s):\n${applied.join('\n')}`);
        return 0;
      case 'org create': {
        const input = validate(organizationCreateSchema, { name: values.name, type: values.type }, 'payload_invalid');
        const organization = await services.organizations.create(actor, input);
        print({ hashId: organization.hashId }, `Created organisation ${describeOrganization(organization)}`);
        return 0;
      }
      case 'user create': {
        const input = validate(
          userCreateSchema,
          {
            organizationHashId: values.org,
            email: values.email,
            name: values.name,
            rights: values.rights?.split(',').map((right) => right.trim()).filter((right) => right !== ''),
            password: values.password,
          },
          'payload_invalid',
        );
        const user = await services.users.create(actor, input);
        print({ hashId: user.hashId }, `Created user ${user.name} <${user.email}> in ${user.organization.name}, hash id ${user.hashId}`);
        return 0;
      }
      case 'session create': {
        const { email } = validate(yup.object({ email: emailSchema.required() }), { email: values.email }, 'payload_invalid');
        const user = await services.users.findByEmail(email);
        if (!user) {
          throw new GridportError('not_found', { email });
        }
        const session = await services.sessions.mint(user.id, 'command line');
        const cookie = `${sessionCookieName}=${session.token}`;
        print({ hashId: session.sessionHashId, cookie, expiresAt: session.expiresAt.toISOString() }, cookie);
        return 0;
      }
      case 'api-key create': {
        const list = (text: string | undefined) => text?.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
        const input = validate(apiKeyCreateSchema, { organizationHashId: values.org, name: values.name, ipRanges: list(values['ip-ranges']) }, 'payload_invalid');
        const rightsGiven = validate(yup.array(yup.string().oneOf(rights).required()).optional(), list(values.rights), 'payload_invalid');
        const key = await services.apiKeys.create(actor, input, rightsGiven);
        print({ hashId: key.hashId, apiKey: key.apiKey }, `Created API key ${input.name}, hash id ${key.hashId}. Its secret, shown only now:\n${key.apiKey}`);
        return 0;
      }
      case 'device ship': {
        const input = validate(deviceShipSchema, { organizationHashId: values.org, name: values.name, deviceGroupHashId: values.group }, 'payload_invalid');
        const shipped = await services.devices.ship(actor, input);
        print(shipped, `Shipped device ${input.name}, hash id ${shipped.hashId}. Its provisioning token, shown only now:\n${shipped.provisioningToken}`);
        return 0;
      }
      default: {
        const organization = await services.organizations.provider();
        print({ hashId: organization.hashId, name: organization.name }, `Provider organisation: ${describeOrganization(organization)}`);
        return 0;
      }
    }
  } catch (error) {
    if (error instanceof GridportError) {
      const details = Array.isArray(error.details)
        ? (error.details as { path: string; message: string }[]).map((issue) => `  - ${issue.path}: ${issue.message}`).join('\n')
        : '';
      io.err(values.json ? JSON.stringify(error.toBody()) : `gridport: ${error.key}: ${error.message}${details ? `\n${details}` : ''}`);
      return 1;
    }
    if (error instanceof yup.ValidationError) {
      io.err(`gridport: ${error.errors.join('; ')}`);
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
