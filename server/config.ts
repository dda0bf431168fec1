import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import * as yup from 'yup';
import type { SamlSettings } from '../graph/identity/services/saml.service';
import type { MailSettings } from '../graph/operations/services/mail.service';
import type { BalenaSettings } from '../graph/fleet/services/balena.client';
import type { HubspotSettings } from '../graph/fleet/services/device-message.service';
import type { FileSettings } from '../graph/operations/services/file-store';
import type { GrafanaOnCallSettings } from '../graph/operations/services/grafana-oncall.client';
import { defaultMoneybirdApiUrl, type MoneybirdSettings } from '../graph/billing/services/moneybird.client';
import type { TwilioSettings } from '../graph/operations/services/telephony.service';
import { defaultHistorySettings, type HistorySettings } from '../contracts/history';
import { metricsLimits } from '../contracts/metrics';
import { defaultHttpBounds, type HttpBounds } from './http-bounds';
import { defaultPresenceSettings, type PresenceSettings } from '../graph/fleet/services/device-presence.service';
import { defaultAlarmRecoverySeconds } from '../contracts/monitors';
import { defaultMonitorSweepSettings } from '../graph/operations/services/monitor-sweep';
import { defaultInvoiceIntervalSeconds } from '../graph/billing/services/invoice-job';
import { defaultForwardingSettings, type ForwardingSettings } from '../graph/forwarding/services/forwarding-settings';

/**
 * Gridport's configuration, read once at start-up from the environment and validated.
 * Nothing else in Gridport reads process.env: the resulting object is passed down.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; null means embedded PGlite in the data folder. */
  databaseUrl: string | null;
  redisUrl: string | null;
  /** Put before every Redis channel and key of this install (REDIS_PREFIX): installs that share a Redis keep apart. */
  redisPrefix: string;
  demo: boolean;
  environment: 'production' | 'development' | 'test';
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Whether tests must fail rather than skip when an outside service is missing. */
  requireServices: boolean;
  secrets: Secrets;
  /** Staff sign-in with SAML (docs/operations.md, "Staff sign-in (SAML)"). */
  saml: SamlSettings;
  /** Proxies (addresses or CIDR ranges) whose X-Forwarded-For is believed; empty: none. */
  trustedProxies: string[];
  /** Outgoing mail: SMTP_URL (none keeps mail in the database and the log) and MAIL_FROM. */
  mail: Omit<MailSettings, 'publicUrl'>;
  /** Where people reach the console, for links in mail (never taken from a request's Host header). */
  publicUrl: string;
  /** The SMTP receiver (SMTP_INBOUND_PORT, SMTP_INBOUND_HOST): mail in, to issues; port null: it does not run. */
  mailInbound: { port: number | null; host: string };
  /** Balena Cloud for firmware: BALENA_API_URL, BALENA_API_TOKEN, BALENA_FLEET_ID. */
  balena: BalenaSettings;
  /** HubSpot for the device ticket link: HUBSPOT_PORTAL_ID. */
  hubspot: HubspotSettings;
  /** Reports and history: REPORT_RETENTION_DAYS, REPORT_MINUTE_RETENTION_DAYS, REPORT_ROLLUP_INTERVAL_SECONDS. */
  history: HistorySettings;
  /** Device presence across crashes: HUB_HEARTBEAT_SECONDS, HUB_LEASE_SECONDS (docs/operations.md, "Presence"). */
  presence: PresenceSettings;
  /** Monitors and alarms: ALARM_RECOVERY_SECONDS, MONITOR_SWEEP_SECONDS (docs/operations.md, "Monitors and alarms"). */
  monitors: { recoverySeconds: number; sweepSeconds: number };
  /** Billing: BILLING_JOB_INTERVAL_SECONDS between runs of the scheduled subscription charges, BILLING_INVOICE_INTERVAL_SECONDS of the invoicing job (docs/billing.md). */
  billing: { jobIntervalSeconds: number; invoiceIntervalSeconds: number };
  /** HTTPS on the server itself (TLS_CERT_FILE, TLS_KEY_FILE, PEM); gateways then prove themselves by mutual TLS. Null: plain HTTP (TLS ends at a proxy). */
  tls: { certificatePem: string; privateKeyPem: string } | null;
  /** How long the HTTP server waits for a client: HTTP_HEADERS_TIMEOUT_SECONDS, HTTP_REQUEST_TIMEOUT_SECONDS, HTTP_KEEP_ALIVE_TIMEOUT_SECONDS. */
  http: HttpBounds;
  /** Where uploaded files are kept: FILE_STORAGE (database, folder, s3), FILE_FOLDER, S3_* (docs/operations.md, "Files"). */
  files: FileSettings;
  /** Grafana OnCall: GRAFANA_ONCALL_URL, GRAFANA_ONCALL_TOKEN, GRAFANA_ONCALL_SCHEDULE (docs/operations.md, "On-call and telephony"). */
  grafanaOnCall: GrafanaOnCallSettings;
  /** Twilio: TWILIO_AUTH_TOKEN, which signs Twilio's requests (they are checked against PUBLIC_URL). */
  twilio: Omit<TwilioSettings, 'publicUrl'>;
  /** /metrics: METRICS_TOKEN, the bearer token a reader sends; null serves loopback clients only. */
  metrics: { token: string | null };
  /** Forwarding: FORWARDING_ALLOW_PRIVATE_NETWORKS, FORWARDING_PAUSE_AFTER_SECONDS, FORWARDING_POLL_MS, FORWARDING_CONCURRENCY (docs/forwarding.md, "Configuration"). */
  forwarding: ForwardingSettings;
  /** Moneybird, for legal entities made from a contact: MONEYBIRD_API_URL, MONEYBIRD_ADMINISTRATION_ID, MONEYBIRD_API_TOKEN (docs/billing.md, "Legal entities"). */
  moneybird: MoneybirdSettings;
}

export interface Secrets {
  /** Signs console session tokens. */
  sessionSecret: string;
  /** Salts the hash ids of every entity type. */
  hashIdSecret: string;
  /** Encrypts secrets kept in the database (32 bytes, hex). */
  encryptionKey: string;
}

const secretNames = {
  sessionSecret: 'SESSION_SECRET',
  hashIdSecret: 'HASH_ID_SECRET',
  encryptionKey: 'ENCRYPTION_KEY',
} as const satisfies Record<keyof Secrets, string>;

/**
 * The placeholder values of `.env.sample`. A secret equal to one of them was copied from the
 * sample file, and the server refuses to start with it.
 */
export const sampleSecretValues = ['replace-with-64-hex-characters-from-openssl-rand-hex-32', 'changeme', 'change-me', 'secret'] as const;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Gridport cannot start; the configuration has ${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const booleanText = yup
  .string()
  .trim()
  .lowercase()
  .oneOf(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], '${path} must be true or false (1/0, yes/no, on/off)');

/** A positive whole number of seconds, at most an hour. */
function seconds(name: string, defaultMs: number) {
  return yup
    .number()
    .typeError(`${name} must be a number of seconds`)
    .integer(`${name} must be a whole number of seconds`)
    .min(1, `${name} must be at least 1`)
    .max(3600, `${name} must be at most 3600`)
    .default(defaultMs / 1000);
}

const environmentSchema = yup.object({
  PORT: yup.number().typeError('PORT must be a number').integer('PORT must be an integer').min(0).max(65535).default(8080),
  HOST: yup.string().trim().default('0.0.0.0'),
  GRIDPORT_DATA_DIR: yup.string().trim().default('./data'),
  DATABASE_URL: yup
    .string()
    .trim()
    .matches(/^postgres(ql)?:\/\/\S+$/, 'DATABASE_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  REDIS_URL: yup
    .string()
    .trim()
    .matches(/^rediss?:\/\/\S+$/, 'REDIS_URL must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_PREFIX: yup
    .string()
    .trim()
    .matches(/^[A-Za-z0-9_.:-]{1,64}$/, 'REDIS_PREFIX must be 1 to 64 letters, digits or _ . : -')
    .default('gridport:'),
  GRIDPORT_DEMO: booleanText.optional(),
  NODE_ENV: yup.string().oneOf(['production', 'development', 'test'], 'NODE_ENV must be production, development or test').default('development'),
  LOG_LEVEL: yup
    .string()
    .oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent')
    .default('info'),
  REQUIRE_SERVICES: booleanText.optional(),
  SESSION_SECRET: yup.string().optional(),
  HASH_ID_SECRET: yup.string().optional(),
  ENCRYPTION_KEY: yup.string().optional(),
  SAML_ENTRY_POINT: yup.string().trim().url('SAML_ENTRY_POINT must be an http(s) URL').optional(),
  SAML_IDP_CERT: yup.string().trim().optional(),
  SAML_ISSUER: yup.string().trim().default('gridport'),
  SAML_CALLBACK_URL: yup.string().trim().url('SAML_CALLBACK_URL must be an http(s) URL').optional(),
  GRIDPORT_DEV_IDP: booleanText.optional(),
  TRUSTED_PROXIES: yup.string().trim().optional(),
  SMTP_URL: yup
    .string()
    .trim()
    .matches(/^smtps?:\/\/\S+$/, 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: yup.string().trim().default('Gridport <no-reply@gridport.invalid>'),
  SMTP_INBOUND_PORT: yup
    .number()
    .typeError('SMTP_INBOUND_PORT must be a port number')
    .integer('SMTP_INBOUND_PORT must be an integer')
    .min(0, 'SMTP_INBOUND_PORT must be from 0 to 65535')
    .max(65535, 'SMTP_INBOUND_PORT must be from 0 to 65535')
    .optional(),
  SMTP_INBOUND_HOST: yup.string().trim().default('127.0.0.1'),
  PUBLIC_URL: yup
    .string()
    .trim()
    .matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'PUBLIC_URL must be an http(s) URL such as https://gridport.example.com')
    .optional(),
  BALENA_API_URL: yup
    .string()
    .trim()
    .matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'BALENA_API_URL must be an http(s) URL such as https://api.balena-cloud.com')
    .default('https://api.balena-cloud.com'),
  BALENA_API_TOKEN: yup.string().trim().optional(),
  TLS_CERT_FILE: yup.string().trim().optional(),
  TLS_KEY_FILE: yup.string().trim().optional(),
  BALENA_FLEET_ID: yup
    .number()
    .typeError('BALENA_FLEET_ID must be a number (the numeric id of the fleet)')
    .integer('BALENA_FLEET_ID must be an integer')
    .min(1, 'BALENA_FLEET_ID must be positive')
    .optional(),
  HUBSPOT_PORTAL_ID: yup.string().trim().matches(/^\d+$/, 'HUBSPOT_PORTAL_ID must be the numeric id of the HubSpot account').optional(),
  FILE_STORAGE: yup.string().trim().oneOf(['database', 'folder', 's3'], 'FILE_STORAGE must be database, folder or s3').optional(),
  FILE_FOLDER: yup.string().trim().optional(),
  S3_ENDPOINT: yup
    .string()
    .trim()
    .matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'S3_ENDPOINT must be an http(s) URL such as https://s3.eu-central-1.amazonaws.com')
    .optional(),
  S3_BUCKET: yup.string().trim().optional(),
  S3_ACCESS_KEY_ID: yup.string().trim().optional(),
  S3_SECRET_ACCESS_KEY: yup.string().trim().optional(),
  S3_REGION: yup.string().trim().default('us-east-1'),
  GRAFANA_ONCALL_URL: yup
    .string()
    .trim()
    .matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'GRAFANA_ONCALL_URL must be an http(s) URL such as https://oncall-prod-eu-west-0.grafana.net/oncall')
    .optional(),
  GRAFANA_ONCALL_TOKEN: yup.string().trim().optional(),
  GRAFANA_ONCALL_SCHEDULE: yup.string().trim().optional(),
  TWILIO_AUTH_TOKEN: yup.string().trim().optional(),
  METRICS_TOKEN: yup
    .string()
    .trim()
    .min(metricsLimits.tokenMinLength, `METRICS_TOKEN must be at least ${metricsLimits.tokenMinLength} characters long`)
    .optional(),
  MONEYBIRD_API_URL: yup
    .string()
    .trim()
    .matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'MONEYBIRD_API_URL must be an http(s) URL such as https://moneybird.com/api/v2')
    .default(defaultMoneybirdApiUrl),
  MONEYBIRD_ADMINISTRATION_ID: yup
    .string()
    .trim()
    .matches(/^\d{1,20}$/, 'MONEYBIRD_ADMINISTRATION_ID must be the digits of a Moneybird administration id')
    .optional(),
  MONEYBIRD_API_TOKEN: yup.string().trim().optional(),
  HTTP_HEADERS_TIMEOUT_SECONDS: seconds('HTTP_HEADERS_TIMEOUT_SECONDS', defaultHttpBounds.headersTimeoutMs),
  HTTP_REQUEST_TIMEOUT_SECONDS: seconds('HTTP_REQUEST_TIMEOUT_SECONDS', defaultHttpBounds.requestTimeoutMs),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: seconds('HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', defaultHttpBounds.keepAliveTimeoutMs),
  REPORT_RETENTION_DAYS: yup
    .number()
    .typeError('REPORT_RETENTION_DAYS must be a number of days')
    .integer('REPORT_RETENTION_DAYS must be a whole number of days')
    .min(1, 'REPORT_RETENTION_DAYS must be at least 1')
    .default(defaultHistorySettings.rawRetentionDays),
  REPORT_MINUTE_RETENTION_DAYS: yup
    .number()
    .typeError('REPORT_MINUTE_RETENTION_DAYS must be a number of days')
    .integer('REPORT_MINUTE_RETENTION_DAYS must be a whole number of days')
    .default(defaultHistorySettings.minuteRetentionDays),
  REPORT_ROLLUP_INTERVAL_SECONDS: yup
    .number()
    .typeError('REPORT_ROLLUP_INTERVAL_SECONDS must be a number of seconds')
    .integer('REPORT_ROLLUP_INTERVAL_SECONDS must be a whole number of seconds')
    .min(1, 'REPORT_ROLLUP_INTERVAL_SECONDS must be at least 1')
    .max(3600, 'REPORT_ROLLUP_INTERVAL_SECONDS must be at most 3600')
    .default(defaultHistorySettings.rollupIntervalSeconds),
  ALARM_RECOVERY_SECONDS: yup
    .number()
    .typeError('ALARM_RECOVERY_SECONDS must be a number of seconds')
    .integer('ALARM_RECOVERY_SECONDS must be a whole number of seconds')
    .min(0, 'ALARM_RECOVERY_SECONDS must be at least 0')
    .max(7 * 24 * 3600, 'ALARM_RECOVERY_SECONDS must be at most 604800 (a week)')
    .default(defaultAlarmRecoverySeconds),
  FORWARDING_ALLOW_PRIVATE_NETWORKS: booleanText.optional(),
  FORWARDING_PAUSE_AFTER_SECONDS: yup
    .number()
    .typeError('FORWARDING_PAUSE_AFTER_SECONDS must be a number of seconds')
    .integer('FORWARDING_PAUSE_AFTER_SECONDS must be a whole number of seconds')
    .min(1, 'FORWARDING_PAUSE_AFTER_SECONDS must be at least 1')
    .max(7 * 24 * 3600, 'FORWARDING_PAUSE_AFTER_SECONDS must be at most 604800 (a week)')
    .default(defaultForwardingSettings.pauseAfterSeconds),
  FORWARDING_POLL_MS: yup
    .number()
    .typeError('FORWARDING_POLL_MS must be a number of milliseconds')
    .integer('FORWARDING_POLL_MS must be a whole number of milliseconds')
    .min(10, 'FORWARDING_POLL_MS must be at least 10')
    .max(60_000, 'FORWARDING_POLL_MS must be at most 60000')
    .default(defaultForwardingSettings.pollMs),
  FORWARDING_CONCURRENCY: yup
    .number()
    .typeError('FORWARDING_CONCURRENCY must be a number')
    .integer('FORWARDING_CONCURRENCY must be a whole number')
    .min(0, 'FORWARDING_CONCURRENCY must be at least 0 (0: this node delivers nothing)')
    .max(1000, 'FORWARDING_CONCURRENCY must be at most 1000')
    .default(defaultForwardingSettings.concurrency),
  BILLING_JOB_INTERVAL_SECONDS: yup
    .number()
    .typeError('BILLING_JOB_INTERVAL_SECONDS must be a number of seconds')
    .integer('BILLING_JOB_INTERVAL_SECONDS must be a whole number of seconds')
    .min(60, 'BILLING_JOB_INTERVAL_SECONDS must be at least 60')
    .max(86_400, 'BILLING_JOB_INTERVAL_SECONDS must be at most 86400')
    .default(3600),
  BILLING_INVOICE_INTERVAL_SECONDS: yup
    .number()
    .typeError('BILLING_INVOICE_INTERVAL_SECONDS must be a number of seconds')
    .integer('BILLING_INVOICE_INTERVAL_SECONDS must be a whole number of seconds')
    .min(10, 'BILLING_INVOICE_INTERVAL_SECONDS must be at least 10')
    .max(86_400, 'BILLING_INVOICE_INTERVAL_SECONDS must be at most 86400')
    .default(defaultInvoiceIntervalSeconds),
  MONITOR_SWEEP_SECONDS: yup
    .number()
    .typeError('MONITOR_SWEEP_SECONDS must be a number of seconds')
    .integer('MONITOR_SWEEP_SECONDS must be a whole number of seconds')
    .min(1, 'MONITOR_SWEEP_SECONDS must be at least 1')
    .max(600, 'MONITOR_SWEEP_SECONDS must be at most 600')
    .default(defaultMonitorSweepSettings.sweepSeconds),
  HUB_HEARTBEAT_SECONDS: yup
    .number()
    .typeError('HUB_HEARTBEAT_SECONDS must be a number of seconds')
    .integer('HUB_HEARTBEAT_SECONDS must be a whole number of seconds')
    .min(1, 'HUB_HEARTBEAT_SECONDS must be at least 1')
    .max(300, 'HUB_HEARTBEAT_SECONDS must be at most 300')
    .default(defaultPresenceSettings.heartbeatSeconds),
  HUB_LEASE_SECONDS: yup
    .number()
    .typeError('HUB_LEASE_SECONDS must be a number of seconds')
    .integer('HUB_LEASE_SECONDS must be a whole number of seconds')
    .max(3600, 'HUB_LEASE_SECONDS must be at most 3600')
    .default(defaultPresenceSettings.leaseSeconds),
});

function isTrue(text: string | undefined): boolean {
  return text !== undefined && ['1', 'true', 'yes', 'on'].includes(text.trim().toLowerCase());
}

function checkSecret(name: string, value: string, problems: string[], pattern?: RegExp): void {
  if ((sampleSecretValues as readonly string[]).includes(value.trim())) {
    problems.push(`${name} is the placeholder of the sample file; generate a real secret (openssl rand -hex 32)`);
    return;
  }
  if (value.length < 32) {
    problems.push(`${name} must be at least 32 characters long`);
    return;
  }
  if (pattern && !pattern.test(value)) {
    problems.push(`${name} must be 64 hexadecimal characters (32 bytes)`);
  }
}

/**
 * Secrets not given in the environment are generated on first start and kept in
 * `<dataDir>/secrets.json`, so a restart keeps sessions and hash ids valid.
 */
function loadOrCreateSecrets(dataDir: string, given: Partial<Secrets>, problems: string[]): Secrets {
  const file = path.join(dataDir, 'secrets.json');
  let kept: Partial<Secrets> = {};
  if (existsSync(file)) {
    try {
      kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>;
    } catch (error) {
      problems.push(`${file} is not readable JSON (${(error as Error).message}); restore it or remove it to generate new secrets`);
      return { sessionSecret: '', hashIdSecret: '', encryptionKey: '' };
    }
  }
  const secrets: Secrets = {
    sessionSecret: given.sessionSecret ?? kept.sessionSecret ?? randomBytes(32).toString('hex'),
    hashIdSecret: given.hashIdSecret ?? kept.hashIdSecret ?? randomBytes(32).toString('hex'),
    encryptionKey: given.encryptionKey ?? kept.encryptionKey ?? randomBytes(32).toString('hex'),
  };
  const toKeep = {
    sessionSecret: kept.sessionSecret ?? (given.sessionSecret ? undefined : secrets.sessionSecret),
    hashIdSecret: kept.hashIdSecret ?? (given.hashIdSecret ? undefined : secrets.hashIdSecret),
    encryptionKey: kept.encryptionKey ?? (given.encryptionKey ? undefined : secrets.encryptionKey),
  };
  if (JSON.stringify(toKeep) !== JSON.stringify(kept)) {
    try {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, `${JSON.stringify(toKeep, null, 2)}\n`, { mode: 0o600 });
    } catch (error) {
      problems.push(`cannot keep generated secrets in ${file}: ${(error as Error).message}`);
    }
  }
  return secrets;
}

/**
 * SAML sign-in: an outside identity provider when SAML_ENTRY_POINT is set (its certificate,
 * SAML_IDP_CERT, as PEM text or a file path, is then required); otherwise the development
 * identity provider, except in production unless GRIDPORT_DEV_IDP=true.
 */
function samlSettings(parsed: yup.InferType<typeof environmentSchema>, dataDir: string, cwd: string, problems: string[]): SamlSettings {
  const entryPoint = parsed.SAML_ENTRY_POINT ?? null;
  let idpCert: string | null = null;
  const certText = parsed.SAML_IDP_CERT;
  if (certText !== undefined && /-----BEGIN CERTIFICATE-----/.test(certText)) {
    idpCert = certText.replace(/\\n/g, '\n');
  } else if (certText !== undefined) {
    const file = path.resolve(cwd, certText);
    try {
      idpCert = readFileSync(file, 'utf8');
    } catch (error) {
      problems.push(`SAML_IDP_CERT is neither a PEM certificate nor a readable file (${file}: ${(error as Error).message})`);
    }
  }
  if (entryPoint !== null && certText === undefined) {
    problems.push("SAML_ENTRY_POINT is set, so SAML_IDP_CERT (the identity provider's signing certificate) is required");
  }
  const devIdentityProvider =
    entryPoint === null && (parsed.GRIDPORT_DEV_IDP === undefined ? parsed.NODE_ENV !== 'production' : isTrue(parsed.GRIDPORT_DEV_IDP));
  return {
    entryPoint,
    idpCert,
    issuer: parsed.SAML_ISSUER,
    // The ACS URL: as given, else under PUBLIC_URL; only without either is it taken from the login request.
    callbackUrl: parsed.SAML_CALLBACK_URL ?? (parsed.PUBLIC_URL ? `${parsed.PUBLIC_URL.replace(/\/+$/, '')}/console-admin/v1/saml2/acs` : null),
    devIdentityProvider,
    devIdentityProviderKeyFile: devIdentityProvider ? path.join(dataDir, 'dev-identity-provider.json') : null,
  };
}

/** TRUSTED_PROXIES: a comma-separated list of IP addresses and CIDR ranges (IPv4 or IPv6). */
function trustedProxyList(text: string | undefined, problems: string[]): string[] {
  const entries = (text ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    if (!(entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry))) {
      problems.push(`TRUSTED_PROXIES: "${entry}" is neither an IP address nor a CIDR range`);
    }
  }
  return entries;
}

/** Reads and validates the configuration; throws a ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  let parsed: yup.InferType<typeof environmentSchema>;
  try {
    const known = Object.fromEntries(
      Object.keys(environmentSchema.fields)
        .filter((key) => env[key] !== undefined && env[key] !== '')
        .map((key) => [key, env[key]]),
    );
    parsed = environmentSchema.validateSync(known, { abortEarly: false, stripUnknown: true });
  } catch (error) {
    if (error instanceof yup.ValidationError) {
      throw new ConfigError(error.errors);
    }
    throw error;
  }

  const given: Partial<Secrets> = {};
  for (const [field, name] of Object.entries(secretNames) as [keyof Secrets, string][]) {
    const value = parsed[name as keyof typeof parsed] as string | undefined;
    if (value !== undefined) {
      checkSecret(name, value, problems, field === 'encryptionKey' ? /^[0-9a-fA-F]{64}$/ : undefined);
      given[field] = value;
    }
  }
  const dataDir = path.resolve(cwd, parsed.GRIDPORT_DATA_DIR);
  const secrets = loadOrCreateSecrets(dataDir, given, problems);
  for (const [field, name] of Object.entries(secretNames) as [keyof Secrets, string][]) {
    if (given[field] === undefined && secrets[field] !== '') {
      checkSecret(
        `${name} (kept in ${path.join(dataDir, 'secrets.json')})`,
        secrets[field],
        problems,
        field === 'encryptionKey' ? /^[0-9a-fA-F]{64}$/ : undefined,
      );
    }
  }
  const saml = samlSettings(parsed, dataDir, cwd, problems);
  const trustedProxies = trustedProxyList(parsed.TRUSTED_PROXIES, problems);
  if (parsed.BALENA_API_TOKEN !== undefined && parsed.BALENA_FLEET_ID === undefined) {
    problems.push('BALENA_API_TOKEN is set, so BALENA_FLEET_ID (the numeric id of the Balena fleet) is required');
  }
  // Raw reports are dropped by whole months, so up to 31 days after REPORT_RETENTION_DAYS; their minutes must outlive them.
  // A lease must outlast a missed heartbeat, or a node that is merely slow loses its devices.
  if (parsed.HUB_LEASE_SECONDS < 2 * parsed.HUB_HEARTBEAT_SECONDS) {
    problems.push(`HUB_LEASE_SECONDS must be at least twice HUB_HEARTBEAT_SECONDS (${2 * parsed.HUB_HEARTBEAT_SECONDS})`);
  }
  if (parsed.REPORT_MINUTE_RETENTION_DAYS < parsed.REPORT_RETENTION_DAYS + 31) {
    problems.push(`REPORT_MINUTE_RETENTION_DAYS must be at least REPORT_RETENTION_DAYS + 31 (${parsed.REPORT_RETENTION_DAYS + 31})`);
  }
  const tls = tlsFiles(parsed.TLS_CERT_FILE, parsed.TLS_KEY_FILE, cwd, problems);
  // Node refuses a headers timeout longer than the request's: the headers are part of the request.
  if (parsed.HTTP_HEADERS_TIMEOUT_SECONDS > parsed.HTTP_REQUEST_TIMEOUT_SECONDS) {
    problems.push(
      `HTTP_HEADERS_TIMEOUT_SECONDS (${parsed.HTTP_HEADERS_TIMEOUT_SECONDS}) must be at most HTTP_REQUEST_TIMEOUT_SECONDS (${parsed.HTTP_REQUEST_TIMEOUT_SECONDS})`,
    );
  }
  const files = fileSettings(parsed, dataDir, cwd, problems);
  const grafanaOnCall = {
    url: parsed.GRAFANA_ONCALL_URL?.replace(/\/+$/, '') ?? null,
    token: parsed.GRAFANA_ONCALL_TOKEN ?? null,
    scheduleId: parsed.GRAFANA_ONCALL_SCHEDULE ?? null,
  };
  const grafanaGiven = Object.entries({
    GRAFANA_ONCALL_URL: grafanaOnCall.url,
    GRAFANA_ONCALL_TOKEN: grafanaOnCall.token,
    GRAFANA_ONCALL_SCHEDULE: grafanaOnCall.scheduleId,
  });
  if (grafanaGiven.some(([, value]) => value !== null) && grafanaGiven.some(([, value]) => value === null)) {
    problems.push(
      `Grafana OnCall needs GRAFANA_ONCALL_URL, GRAFANA_ONCALL_TOKEN and GRAFANA_ONCALL_SCHEDULE together; missing: ${grafanaGiven
        .filter(([, value]) => value === null)
        .map(([name]) => name)
        .join(', ')}`,
    );
  }
  if ((parsed.MONEYBIRD_ADMINISTRATION_ID === undefined) !== (parsed.MONEYBIRD_API_TOKEN === undefined)) {
    problems.push(
      `Moneybird needs MONEYBIRD_ADMINISTRATION_ID and MONEYBIRD_API_TOKEN together; missing: ${parsed.MONEYBIRD_ADMINISTRATION_ID === undefined ? 'MONEYBIRD_ADMINISTRATION_ID' : 'MONEYBIRD_API_TOKEN'}`,
    );
  }
  if (problems.length > 0) {
    throw new ConfigError(problems);
  }

  const databaseUrl = parsed.DATABASE_URL ?? null;
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir,
    databaseUrl,
    redisUrl: parsed.REDIS_URL ?? null,
    redisPrefix: parsed.REDIS_PREFIX,
    demo: parsed.GRIDPORT_DEMO === undefined ? databaseUrl === null : isTrue(parsed.GRIDPORT_DEMO),
    environment: parsed.NODE_ENV as Config['environment'],
    logLevel: parsed.LOG_LEVEL as Config['logLevel'],
    requireServices: isTrue(parsed.REQUIRE_SERVICES),
    secrets,
    saml,
    trustedProxies,
    mail: { smtpUrl: parsed.SMTP_URL ?? null, from: parsed.MAIL_FROM },
    mailInbound: { port: parsed.SMTP_INBOUND_PORT ?? null, host: parsed.SMTP_INBOUND_HOST },
    publicUrl: (parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, ''),
    balena: {
      apiUrl: parsed.BALENA_API_URL.replace(/\/+$/, ''),
      apiToken: parsed.BALENA_API_TOKEN ?? null,
      fleetId: parsed.BALENA_FLEET_ID ?? null,
    },
    hubspot: { portalId: parsed.HUBSPOT_PORTAL_ID ?? null },
    history: {
      rawRetentionDays: parsed.REPORT_RETENTION_DAYS,
      minuteRetentionDays: parsed.REPORT_MINUTE_RETENTION_DAYS,
      rollupIntervalSeconds: parsed.REPORT_ROLLUP_INTERVAL_SECONDS,
    },
    presence: { heartbeatSeconds: parsed.HUB_HEARTBEAT_SECONDS, leaseSeconds: parsed.HUB_LEASE_SECONDS },
    monitors: { recoverySeconds: parsed.ALARM_RECOVERY_SECONDS, sweepSeconds: parsed.MONITOR_SWEEP_SECONDS },
    billing: { jobIntervalSeconds: parsed.BILLING_JOB_INTERVAL_SECONDS, invoiceIntervalSeconds: parsed.BILLING_INVOICE_INTERVAL_SECONDS },
    tls,
    http: {
      headersTimeoutMs: parsed.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: parsed.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveTimeoutMs: parsed.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    },
    files,
    grafanaOnCall,
    twilio: { authToken: parsed.TWILIO_AUTH_TOKEN ?? null },
    metrics: { token: parsed.METRICS_TOKEN ?? null },
    forwarding: {
      allowPrivateNetworks: parsed.FORWARDING_ALLOW_PRIVATE_NETWORKS !== undefined && isTrue(parsed.FORWARDING_ALLOW_PRIVATE_NETWORKS),
      pauseAfterSeconds: parsed.FORWARDING_PAUSE_AFTER_SECONDS,
      pollMs: parsed.FORWARDING_POLL_MS,
      concurrency: parsed.FORWARDING_CONCURRENCY,
    },
    moneybird: {
      apiUrl: parsed.MONEYBIRD_API_URL.replace(/\/+$/, ''),
      administrationId: parsed.MONEYBIRD_ADMINISTRATION_ID ?? null,
      apiToken: parsed.MONEYBIRD_API_TOKEN ?? null,
    },
  };
}

/**
 * Where uploaded files go: FILE_STORAGE, else an S3-compatible store when S3_BUCKET is set, else
 * the database on PostgreSQL (DATABASE_URL) and the data folder's files/ in the embedded default.
 */
function fileSettings(parsed: yup.InferType<typeof environmentSchema>, dataDir: string, cwd: string, problems: string[]): FileSettings {
  const storage = parsed.FILE_STORAGE ?? (parsed.S3_BUCKET !== undefined ? 's3' : parsed.DATABASE_URL !== undefined ? 'database' : 'folder');
  if (storage === 'database') {
    return { storage };
  }
  if (storage === 'folder') {
    return { storage, folder: parsed.FILE_FOLDER ? path.resolve(cwd, parsed.FILE_FOLDER) : path.join(dataDir, 'files') };
  }
  const required = {
    S3_ENDPOINT: parsed.S3_ENDPOINT,
    S3_BUCKET: parsed.S3_BUCKET,
    S3_ACCESS_KEY_ID: parsed.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: parsed.S3_SECRET_ACCESS_KEY,
  };
  const missing = Object.entries(required)
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  if (missing.length > 0) {
    problems.push(`files in S3 need ${missing.join(', ')}`);
    return { storage: 'database' };
  }
  return {
    storage: 's3',
    s3: {
      endpoint: (parsed.S3_ENDPOINT ?? '').replace(/\/+$/, ''),
      bucket: parsed.S3_BUCKET ?? '',
      accessKeyId: parsed.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: parsed.S3_SECRET_ACCESS_KEY ?? '',
      region: parsed.S3_REGION,
    },
  };
}

/** The server's own certificate and key: both files or neither, each readable PEM. */
function tlsFiles(certificateFile: string | undefined, keyFile: string | undefined, cwd: string, problems: string[]): Config['tls'] {
  if (certificateFile === undefined && keyFile === undefined) {
    return null;
  }
  if (certificateFile === undefined || keyFile === undefined) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE go together: set both (HTTPS on the server) or neither (plain HTTP behind a proxy)');
    return null;
  }
  const read = (name: string, file: string, marker: RegExp): string | null => {
    try {
      const text = readFileSync(path.resolve(cwd, file), 'utf8');
      if (!marker.test(text)) {
        problems.push(`${name} (${file}) is not PEM`);
        return null;
      }
      return text;
    } catch (error) {
      problems.push(`${name} (${file}) cannot be read: ${(error as Error).message}`);
      return null;
    }
  };
  const certificatePem = read('TLS_CERT_FILE', certificateFile, /-----BEGIN CERTIFICATE-----/);
  const privateKeyPem = read('TLS_KEY_FILE', keyFile, /-----BEGIN [A-Z ]*PRIVATE KEY-----/);
  return certificatePem !== null && privateKeyPem !== null ? { certificatePem, privateKeyPem } : null;
}
