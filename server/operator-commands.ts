import { plausibleDate } from '../contracts/dates';
import { parseArgs } from 'node:util';
import * as yup from 'yup';
import { organizationCreateSchema, organizationListQuerySchema, type OrganizationView } from '../contracts/organization';
import { emailSchema, userCreateSchema } from '../contracts/user';
import { apiKeyCreateSchema } from '../contracts/api-key';
import { deviceShipSchema } from '../contracts/fleet';
import { rights } from '../contracts/rights';
import { sessionCookieName } from '../graph/identity/services/session.service';
import { validate } from '../contracts/validation';
import { GridportError } from '../contracts/errors';
import { systemActor } from '../graph/common/context';
import type { Services } from '../graph/services';
import { invoiceRunSchema, type InvoiceRunView } from '../contracts/billing-invoice';
import { formatEuro } from '../contracts/billing-invoice';
import { issueAdminListQuerySchema, issueStatuses, issueTimelineQuerySchema, type IssueTimelineItemView, type IssueView } from '../contracts/issue';

/**
 * The operator commands that work on the database. The command line runs them on the database it
 * opens, or hands them to the running embedded server (server/operator-socket.ts), which runs
 * them here with its own services: one set of commands, whichever process carries them out.
 */
export const usage = `Usage: gridport <command> [options]

Commands:
  migrate                                   run every pending database migration
  org create --name <name> --type <type>    create an organisation
                                            (type: energy-trader, data-receiver, asset-owner, installer)
  org provider                              print the provider organisation
  org list [--name <text>]                  list the organisations (whose name contains <text>)
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
  issue list [--status open|resolved]       list the issues, newest first
  issue show <hashId>                       print an issue and its timeline (messages and changes)
  billing charge-subscriptions [--at <ISO date>]
                                            make the scheduled subscription charges due by then
                                            (now unless given), as the billing job does
  billing invoice [--organization <hashId>] [--at <ISO time>]
                                            run the invoicing job now (one organisation, or every
                                            one; at the given moment, or now) and print the
                                            invoices made and the charges held back
  mail test <to>                            send a test mail the way Gridport sends mail (SMTP_URL,
                                            or kept in the mails table) and print its receipt
  edge --hub <url> --state <dir> [--token <token>] [--identifier <id>] [--register-maps <dir>] [--host-network]
                                            run the gateway agent (docs/edge.md): provisions with
                                            the token at the first start (the key stays in
                                            <dir>), then connects to the hub and runs until
                                            SIGTERM or SIGINT; needs no database. --register-maps:
                                            a folder of register maps (*.json) for asset types
                                            without a built-in driver. --host-network: apply the
                                            config's network, vpn and maintenance window on this
                                            host through nmcli and openvpn, with rollback

Options:
  --json    print one JSON object instead of text
  --help    print this help

The database is the one the server uses: DATABASE_URL, or PGlite in GRIDPORT_DATA_DIR. While
the server runs on PGlite, the commands are carried out by the server itself.`;

export const databaseCommands = [
  'migrate',
  'org create',
  'org provider',
  'org list',
  'user create',
  'session create',
  'api-key create',
  'device ship',
  'issue list',
  'issue show',
  'mail test',
  'billing charge-subscriptions',
  'billing invoice',
] as const;
export type DatabaseCommand = (typeof databaseCommands)[number];
export type Command = DatabaseCommand | 'edge';

const options = {
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
  'register-maps': { type: 'string' },
  'host-network': { type: 'boolean', default: false },
  status: { type: 'string' },
  organization: { type: 'string' },
  at: { type: 'string' },
} as const;

export interface CommandValues {
  json: boolean;
  help: boolean;
  name?: string;
  type?: string;
  org?: string;
  email?: string;
  rights?: string;
  password?: string;
  'ip-ranges'?: string;
  group?: string;
  hub?: string;
  token?: string;
  state?: string;
  identifier?: string;
  'register-maps'?: string;
  /** edge: apply the config's network and vpn on this host (NetworkManager, openvpn). */
  'host-network'?: boolean;
  status?: string;
  organization?: string;
  /** A moment (ISO 8601): what the billing commands reckon up to. */
  at?: string;
  /** The one word a command takes after its name (`issue show <hashId>`, `mail test <to>`). */
  argument?: string;
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export type ParsedCommand = { kind: 'run'; command: Command; values: CommandValues } | { kind: 'exit'; code: number };

/** The commands that take one word after their name, and what the word is. */
const commandArguments: Partial<Record<Command, string>> = { 'issue show': '<hashId>', 'mail test': '<to>' };

/** Reads argv; usage and unknown commands are answered here (exit 0 for --help, 2 otherwise). Throws TypeError on an unknown option. */
export function parseCommand(argv: string[], io: CliIo): ParsedCommand {
  const parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options });
  const values: CommandValues = parsed.values;
  const words = parsed.positionals;
  if (values.help || words.length === 0) {
    io.out(usage);
    return { kind: 'exit', code: values.help ? 0 : 2 };
  }
  const known: readonly string[] = ['edge', ...databaseCommands];
  const named = [2, 1].map((length) => words.slice(0, length).join(' ')).find((candidate) => known.includes(candidate));
  const command = named as Command | undefined;
  const rest = command === undefined ? [] : words.slice(command.split(' ').length);
  const argument = command === undefined ? undefined : commandArguments[command];
  if (command === undefined || (argument === undefined && rest.length > 0)) {
    io.err(`gridport: unknown command "${words.join(' ')}"\n\n${usage}`);
    return { kind: 'exit', code: 2 };
  }
  if (argument !== undefined && rest.length !== 1) {
    io.err(`gridport: ${command} takes one ${argument}\n\n${usage}`);
    return { kind: 'exit', code: 2 };
  }
  return { kind: 'run', command, values: argument === undefined ? values : { ...values, argument: rest[0] } };
}

/** One line of `issue list`. */
function describeIssue(issue: IssueView): string {
  const where = [issue.organization?.name, issue.device?.name].filter((name) => name !== undefined).join(', ');
  return `${issue.hashId}  ${issue.status.padEnd(8)}  ${issue.createdAt}  ${issue.source.padEnd(14)}  ${issue.title}${where === '' ? '' : ` (${where})`}, ${issue.messageCount} message(s)`;
}

/** What `billing invoice` made: one line per invoice, then the charges held back. */
function describeInvoiceRuns(runs: readonly InvoiceRunView[]): string {
  const invoices = runs.flatMap((run) => run.invoices);
  const heldBack = runs.flatMap((run) => run.heldBack);
  const lines = invoices.map(
    (invoice) =>
      `${invoice.publicId}  ${invoice.hashId}  ${invoice.organization.name}  ${invoice.billingLegalEntity?.name ?? 'no legal entity'}` +
      `${invoice.customerReference ? `  ref ${invoice.customerReference}` : ''}  ${invoice.chargeCount} charge(s)  ${formatEuro(invoice.charge)}`,
  );
  if (invoices.length === 0) {
    lines.push('No invoice made: nothing was due.');
  }
  for (const held of heldBack) {
    lines.push(
      `held back: charge ${held.chargeHashId} of device ${held.deviceHashId ?? 'none'} (the device has no ${held.missing.join(' and no ')} of its own)`,
    );
  }
  return lines.join('\n');
}

/** `issue show`: the issue, then its timeline, oldest first. */
function describeIssueWithTimeline(issue: IssueView, timeline: readonly IssueTimelineItemView[]): string {
  const people = (list: readonly { name: string }[]) => (list.length === 0 ? 'none' : list.map((person) => person.name).join(', '));
  const lines = [
    `Issue ${issue.hashId}: ${issue.title}`,
    `  status ${issue.status}${issue.closedAt ? ` (since ${issue.closedAt})` : ''}, source ${issue.source}, opened ${issue.createdAt}${issue.internal ? ', internal' : ''}`,
    `  organisation ${issue.organization?.name ?? 'none'}, device ${issue.device?.name ?? 'none'}, handled by ${issue.gridportIssueOwner ? 'Gridport' : 'the customer'}`,
    `  assigned to ${issue.assignedUser?.name ?? issue.assignedEmail ?? 'nobody'}; subscribers ${people(issue.subscribers)}`,
    `  participants outside Gridport ${issue.nonUserParticipants.length === 0 ? 'none' : issue.nonUserParticipants.map((person) => person.email).join(', ')}`,
    '',
    `Timeline (${timeline.length}):`,
  ];
  for (const item of timeline) {
    if (item.message) {
      const message = item.message;
      const who = message.user?.name ?? message.emailHeaders?.from ?? message.source;
      const mailed = message.to.length + message.cc.length > 0 ? ` to ${[...message.to, ...message.cc].join(', ')}` : '';
      const files = message.files.length > 0 ? ` [${message.files.length} file(s)]` : '';
      lines.push(`${item.createdAt}  ${message.source} from ${who}${message.isInternal ? ' (internal)' : ''}${mailed}${files}:`);
      lines.push(...message.message.split('\n').map((line) => `    ${line}`));
    } else if (item.auditEntry) {
      lines.push(`${item.createdAt}  ${item.auditEntry.changeType} by ${item.auditEntry.user?.name ?? item.auditEntry.actorName}`);
    }
  }
  return lines.join('\n');
}

function describeOrganization(organization: OrganizationView): string {
  return `${organization.name} (${organization.type ?? 'provider'}), hash id ${organization.hashId}`;
}

/** Prints a refusal the way the command line does: its catalogue key and issues, or the error body with --json. */
export function printRefusal(error: unknown, json: boolean, io: CliIo): boolean {
  if (error instanceof GridportError) {
    const details = Array.isArray(error.details)
      ? (error.details as { path: string; message: string }[]).map((issue) => `  - ${issue.path}: ${issue.message}`).join('\n')
      : '';
    io.err(json ? JSON.stringify(error.toBody()) : `gridport: ${error.key}: ${error.message}${details ? `\n${details}` : ''}`);
    return true;
  }
  if (error instanceof yup.ValidationError) {
    io.err(`gridport: ${error.errors.join('; ')}`);
    return true;
  }
  return false;
}

/**
 * Carries out one database command with `services`; `applied` are the migrations this process
 * applied before. Resolves to the exit code; a refusal is printed and gives 1.
 */
export async function runDatabaseCommand(command: DatabaseCommand, values: CommandValues, services: Services, applied: string[], io: CliIo): Promise<number> {
  const print = (json: object, text: string) => io.out(values.json ? JSON.stringify(json) : text);
  const actor = systemActor('gridport command line');
  const list = (text: string | undefined) =>
    text
      ?.split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
  try {
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
      case 'org provider': {
        const organization = await services.organizations.provider();
        print({ hashId: organization.hashId, name: organization.name }, `Provider organisation: ${describeOrganization(organization)}`);
        return 0;
      }
      case 'org list': {
        const found: OrganizationView[] = [];
        let offset: string | undefined;
        do {
          const query = validate(organizationListQuerySchema, { filter: values.name, rowsPerPage: 500, offset }, 'query_invalid');
          const page = await services.organizations.list(actor, query);
          found.push(...page.rows);
          offset = page.nextPageOffset ?? undefined;
        } while (offset !== undefined);
        const rows = found.map(({ hashId, name, type }) => ({ hashId, name, type }));
        print({ rows }, rows.length === 0 ? 'No organisation matches.' : found.map(describeOrganization).join('\n'));
        return 0;
      }
      case 'user create': {
        const input = validate(
          userCreateSchema,
          { organizationHashId: values.org, email: values.email, name: values.name, rights: list(values.rights), password: values.password },
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
        const input = validate(
          apiKeyCreateSchema,
          { organizationHashId: values.org, name: values.name, ipRanges: list(values['ip-ranges']) },
          'payload_invalid',
        );
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
      case 'issue list': {
        const status = validate(yup.string().oneOf(issueStatuses).optional(), values.status, 'query_invalid');
        const found: IssueView[] = [];
        let offset: string | undefined;
        do {
          const query = validate(issueAdminListQuerySchema, { status, rowsPerPage: 500, offset }, 'query_invalid');
          const page = await services.issues.list(actor, query);
          found.push(...page.rows);
          offset = page.nextPageOffset ?? undefined;
        } while (offset !== undefined);
        print({ rows: found }, found.length === 0 ? 'No issue matches.' : found.map(describeIssue).join('\n'));
        return 0;
      }
      case 'issue show': {
        const hashId = values.argument ?? '';
        const issue = await services.issues.get(actor, hashId);
        const timeline: IssueTimelineItemView[] = [];
        let offset: string | undefined;
        do {
          const query = validate(issueTimelineQuerySchema, { rowsPerPage: 500, offset }, 'query_invalid');
          const page = await services.issues.timeline(actor, hashId, query);
          timeline.push(...page.rows);
          offset = page.nextPageOffset ?? undefined;
        } while (offset !== undefined);
        print({ issue, timeline }, describeIssueWithTimeline(issue, timeline));
        return 0;
      }
      case 'billing invoice': {
        const input = validate(invoiceRunSchema, { organizationHashId: values.organization, at: values.at }, 'payload_invalid');
        const at = input.at ?? services.clock();
        const runs =
          input.organizationHashId === undefined
            ? await services.invoicing.runAll(at)
            : [await services.invoicing.runForOrganizationHashId(input.organizationHashId, at)];
        print({ runs }, describeInvoiceRuns(runs));
        return 0;
      }
      case 'mail test': {
        const { to } = validate(yup.object({ to: emailSchema.required() }), { to: values.argument }, 'payload_invalid');
        const delivery = await services.mail.deliver({
          to: [to],
          subject: 'Gridport test mail',
          text: 'This is a test mail from the Gridport command line (gridport mail test). If it reached you, Gridport can send mail.',
        });
        const outcome = {
          sent: `sent to ${to}`,
          kept: 'kept in the mails table and the log (no SMTP_URL is configured)',
          failed: `refused: ${delivery.error ?? 'unknown reason'}`,
        }[delivery.status];
        print(delivery, `Test mail ${delivery.mailHashId} ${outcome} (Message-ID ${delivery.messageId})`);
        return delivery.status === 'failed' ? 1 : 0;
      }
      case 'billing charge-subscriptions': {
        const { at } = validate(yup.object({ at: plausibleDate().optional() }).exact(), { at: values.at }, 'payload_invalid');
        const run = await services.billingJob.run(at ?? services.clock());
        print(run, `Charged ${run.periods} subscription period(s) up to ${run.at}: ${run.charges} charge(s), ${run.cents} cents`);
        return 0;
      }
    }
  } catch (error) {
    if (printRefusal(error, values.json, io)) {
      return 1;
    }
    throw error;
  }
}
