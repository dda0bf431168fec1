/**
 * Forwarding (console.md sections 3, 5 and 7; device-model.md section 3.12; spec README,
 * "Forwarding"): message destinations of twelve kinds, the forwarding of a device group's
 * reports to them, and the messages delivered. The settings of each kind, which of them are
 * secrets, and the payload of each message type's version are documented in docs/forwarding.md.
 */
import * as yup from 'yup';
import { fleetLimits } from './fleet';
import { filterQuery, pageSchema, paginationQuery } from './pagination';
import { emailSchema } from './user';
import type { NamedReference, UserReference } from './references';

/** The twelve kinds of destination (device-model.md 3.12). */
export const destinationKinds = [
  'mysql',
  'mssql',
  'influxdb',
  'postgres',
  'amqp',
  'azure-service-bus',
  'grafana-loki',
  'aws-simple-notification-service',
  'sftp',
  'ftps',
  'http',
  'kafka',
] as const;
export type DestinationKind = (typeof destinationKinds)[number];

/**
 * What may be forwarded, each in its version of device-model.md 3.12 (`alarm`: the agent's
 * alarm reports, spec README). A version's payload never changes once published; a new shape
 * is a new version (docs/forwarding.md, "Payloads").
 */
export const forwardingVersions = {
  solarPower: 3,
  solarPowerFlash: 1,
  windPower: 3,
  windPowerFlash: 1,
  batteryPower: 2,
  batteryPowerFiltered: 2,
  batteryPowerFlash: 1,
  meterPower: 2,
  meterPowerFlash: 1,
  evPower: 2,
  generatorPower: 1,
  alarm: 1,
} as const;
export type MessageType = keyof typeof forwardingVersions;
export const messageTypes = Object.keys(forwardingVersions) as MessageType[];

/** The stored report type each message type forwards (contracts/hub/reports.ts). */
export const reportTypeOfMessage: Record<MessageType, string> = {
  solarPower: 'solarPower',
  solarPowerFlash: 'solarPower.flash',
  windPower: 'windPower',
  windPowerFlash: 'windPower.flash',
  batteryPower: 'batteryPower',
  batteryPowerFiltered: 'batteryPowerFiltered',
  batteryPowerFlash: 'batteryPower.flash',
  meterPower: 'meterPower',
  meterPowerFlash: 'meterPower.flash',
  evPower: 'evPower',
  generatorPower: 'generatorPower',
  alarm: 'alarm',
};

export const messageTypeOfReport: Readonly<Record<string, MessageType>> = Object.fromEntries(messageTypes.map((type) => [reportTypeOfMessage[type], type]));

export const forwardingLimits = {
  /** console.md sections 5 and 9. */
  maxDestinationsPerMessageType: 3,
  destinationNameLength: 255,
  /** device-model.md 3.12. */
  httpTimeoutMaxMs: 60_000,
  httpTimeoutDefaultMs: 10_000,
  defaultPorts: { mysql: 3306, mssql: 1433, postgres: 5432, sftp: 22, ftps: 21, 'azure-service-bus': 5671 },
  /** A destination failing this long in a row is paused (spec README, "Forwarding"). */
  pauseAfterFailingSeconds: 15 * 60,
  /** Retry after a failed delivery: doubling from the first to the most. */
  backoffFirstMs: 1_000,
  backoffMaxMs: 60_000,
  /** Reports one delivery carries at most. */
  batchMax: 2000,
  hostLength: 253,
  urlLength: 2048,
  identifierLength: 255,
  secretLength: 16_384,
  kafkaBrokers: 20,
  /** Azure Service Bus takes a session id of at most 128 characters. */
  serviceBusSessionIdLength: 128,
  httpHeaders: 20,
  /** The lag count stops at this many reports (a count past it reads "at least"). */
  lagCountMax: 100_000,
  lagMaxSecondsMax: 7 * 24 * 60 * 60,
} as const;

/** sftp and ftps write files in one of two formats (device-model.md 3.12; docs/forwarding.md, "Files"). */
export const fileFormats = ['synaptiq', 'qos'] as const;
export type FileFormat = (typeof fileFormats)[number];

// --- Settings of each kind ---------------------------------------------------------------

const host = yup
  .string()
  .trim()
  .min(1)
  .max(forwardingLimits.hostLength)
  .matches(/^[A-Za-z0-9.:\-[\]_]+$/, { message: '${path} must be a host name or an IP address', excludeEmptyString: true });
const port = yup.number().integer().min(1).max(65535);
const identifier = yup.string().trim().min(1).max(forwardingLimits.identifierLength);
/** A SQL table (or schema.table) name: letters, digits and underscores, so it is safe to quote. */
const tableName = yup
  .string()
  .trim()
  .max(128)
  .matches(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/, '${path} must be a table name (letters, digits and underscores, optionally schema.table)');
const secret = yup.string().max(forwardingLimits.secretLength);
/** A CA certificate (or a bundle of them) in PEM: the server's certificate must chain to it instead of the system's CAs. */
const caCertificate = yup
  .string()
  .trim()
  .max(forwardingLimits.secretLength)
  .matches(/^(-----BEGIN CERTIFICATE-----\s+[A-Za-z0-9+/=\s]+-----END CERTIFICATE-----\s*)+$/, {
    message: '${path} must be a PEM certificate (-----BEGIN CERTIFICATE----- …)',
    excludeEmptyString: true,
  });
const url = (protocols: readonly string[]) =>
  yup
    .string()
    .trim()
    .max(forwardingLimits.urlLength)
    .test('url', `\${path} must be a URL (${protocols.join(' or ')})`, (value) => {
      if (value === undefined || value === null) {
        return true;
      }
      try {
        const parsed = new URL(value);
        return protocols.includes(parsed.protocol.replace(/:$/, '')) && parsed.hostname !== '';
      } catch {
        return false;
      }
    });
const directory = yup
  .string()
  .trim()
  .max(1024)
  .matches(/^[^\0]*$/, '${path} must not hold NUL characters');

const sqlSettings = (kind: 'mysql' | 'mssql' | 'postgres') => ({
  host: host.required(),
  port: port.default(forwardingLimits.defaultPorts[kind]),
  database: identifier.required(),
  username: identifier.required(),
  password: secret.optional(),
  table: tableName.default('gridport_reports'),
  /** TLS to the server; with a CA certificate, the server's certificate must chain to it. */
  tls: yup.boolean().default(false),
  tlsCaCertificate: caCertificate.optional(),
});

/** The settings of each kind; fields named in `secretSettings` are kept encrypted and never returned. */
export const destinationSettingsSchemas = {
  mysql: yup.object(sqlSettings('mysql')).exact(),
  mssql: yup.object(sqlSettings('mssql')).exact(),
  postgres: yup.object(sqlSettings('postgres')).exact(),
  influxdb: yup
    .object({
      /** The server's base URL (http or https). */
      url: url(['http', 'https']).required(),
      /** 1: InfluxDB 1.x's /write (database, retentionPolicy, username, password); 2: /api/v2/write (org, bucket in database, token). */
      apiVersion: yup
        .number()
        .oneOf([1, 2] as const)
        .default(1),
      database: identifier.required(),
      retentionPolicy: identifier.optional(),
      organization: identifier.optional(),
      username: identifier.optional(),
      password: secret.optional(),
      token: secret.optional(),
      tlsCaCertificate: caCertificate.optional(),
    })
    .exact(),
  amqp: yup
    .object({
      host: host.required(),
      port: port.default(5672),
      tls: yup.boolean().default(false),
      tlsCaCertificate: caCertificate.optional(),
      virtualHost: yup.string().trim().max(255).default('/'),
      username: identifier.required(),
      password: secret.optional(),
      /** The exchange published to ('' is the default exchange, where the routing key names a queue). */
      exchange: yup.string().trim().max(255).default(''),
      /** Routing key: `${routingKey}` as given, or `<messageType>.<deviceHashId>` when empty. */
      routingKey: yup.string().trim().max(255).default(''),
    })
    .exact(),
  'azure-service-bus': yup
    .object({
      /** The namespace's host, such as example.servicebus.windows.net. */
      host: host.required(),
      port: port.default(forwardingLimits.defaultPorts['azure-service-bus']),
      tls: yup.boolean().default(true),
      tlsCaCertificate: caCertificate.optional(),
      /** The queue or topic. */
      entityPath: identifier.required(),
      sharedAccessKeyName: identifier.required(),
      sharedAccessKey: secret.required(),
      /** Set on every message (AMQP group-id): for a session-enabled queue or subscription, which needs one. */
      sessionId: yup.string().trim().min(1).max(forwardingLimits.serviceBusSessionIdLength).optional(),
    })
    .exact(),
  'grafana-loki': yup
    .object({
      /** Loki's base URL; reports are pushed to <url>/loki/api/v1/push. */
      url: url(['http', 'https']).required(),
      tenantId: identifier.optional(),
      username: identifier.optional(),
      password: secret.optional(),
      tlsCaCertificate: caCertificate.optional(),
    })
    .exact(),
  'aws-simple-notification-service': yup
    .object({
      region: yup
        .string()
        .trim()
        .matches(/^[a-z]{2}(-[a-z]+)+-\d+$/, '${path} must be an AWS region such as eu-west-1')
        .required(),
      topicArn: yup
        .string()
        .trim()
        .max(1024)
        .matches(/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/, '${path} must be an SNS topic ARN')
        .required(),
      accessKeyId: identifier.required(),
      secretAccessKey: secret.required(),
      /** Another endpoint than AWS's own (a VPC endpoint, a compatible service). */
      endpoint: url(['http', 'https']).optional(),
    })
    .exact(),
  sftp: yup
    .object({
      host: host.required(),
      port: port.default(forwardingLimits.defaultPorts.sftp),
      username: identifier.required(),
      password: secret.optional(),
      privateKey: secret.optional(),
      /** Opens an encrypted privateKey. */
      privateKeyPassphrase: secret.optional(),
      /** The server's host key (OpenSSH public key form); when given, any other key is refused. */
      hostKey: yup.string().trim().max(8192).optional(),
      directory: directory.default('.'),
      format: yup.string().oneOf(fileFormats).required(),
    })
    .exact()
    .test('passphrase-with-key', 'privateKeyPassphrase goes with a privateKey', function (value) {
      const given = (text: string | undefined) => text !== undefined && text !== '';
      return value === undefined || !given(value.privateKeyPassphrase) || given(value.privateKey) || this.createError({ path: 'privateKeyPassphrase' });
    }),
  ftps: yup
    .object({
      host: host.required(),
      port: port.default(forwardingLimits.defaultPorts.ftps),
      /** Implicit TLS (a port that speaks TLS at once, usually 990) rather than AUTH TLS. */
      implicitTls: yup.boolean().default(false),
      tlsCaCertificate: caCertificate.optional(),
      username: identifier.required(),
      password: secret.optional(),
      directory: directory.default('.'),
      format: yup.string().oneOf(fileFormats).required(),
    })
    .exact(),
  http: yup
    .object({
      url: url(['http', 'https']).required(),
      method: yup
        .string()
        .oneOf(['POST', 'PUT'] as const)
        .default('POST'),
      /** Sent with every request (an Authorization header, say); kept as a secret. */
      headers: yup
        .array(
          yup
            .object({
              name: yup
                .string()
                .trim()
                .matches(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, '${path} must be an HTTP header name')
                .required(),
              value: yup
                .string()
                .max(8192)
                .matches(/^[^\r\n\0]*$/, '${path} must not hold line breaks')
                .required(),
            })
            .exact(),
        )
        .max(forwardingLimits.httpHeaders)
        .default([]),
      timeoutMs: yup.number().integer().min(100).max(forwardingLimits.httpTimeoutMaxMs).default(forwardingLimits.httpTimeoutDefaultMs),
      tlsCaCertificate: caCertificate.optional(),
    })
    .exact(),
  kafka: yup
    .object({
      brokers: yup
        .array(
          yup
            .string()
            .trim()
            .matches(/^[A-Za-z0-9.\-_]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/, '${path} must be host:port')
            .required(),
        )
        .min(1, 'kafka needs at least 1 broker')
        .max(forwardingLimits.kafkaBrokers)
        .required(),
      topic: yup
        .string()
        .trim()
        .matches(/^[A-Za-z0-9._-]{1,249}$/, '${path} must be a Kafka topic name')
        .required(),
      clientId: yup.string().trim().max(255).default('gridport'),
      tls: yup.boolean().default(false),
      tlsCaCertificate: caCertificate.optional(),
      saslMechanism: yup
        .string()
        .oneOf(['plain', 'scram-sha-256', 'scram-sha-512'] as const)
        .optional(),
      username: identifier.optional(),
      password: secret.optional(),
    })
    .exact(),
} as const;

export type DestinationSettingsOf<K extends DestinationKind> = yup.InferType<(typeof destinationSettingsSchemas)[K]>;
export type DestinationSettings = { [K in DestinationKind]: DestinationSettingsOf<K> }[DestinationKind];

/** Settings kept encrypted at rest ({ iv, encryptedData, tag }) and never returned; an update without one keeps it. */
export const secretSettings: Record<DestinationKind, readonly string[]> = {
  mysql: ['password'],
  mssql: ['password'],
  postgres: ['password'],
  influxdb: ['password', 'token'],
  amqp: ['password'],
  'azure-service-bus': ['sharedAccessKey'],
  'grafana-loki': ['password'],
  'aws-simple-notification-service': ['secretAccessKey'],
  sftp: ['password', 'privateKey', 'privateKeyPassphrase'],
  ftps: ['password'],
  http: ['headers'],
  kafka: ['password'],
};

/** The hosts a destination's settings name, each to be checked before any connection (spec README, "Private addresses"). */
export function hostsOf(kind: DestinationKind, settings: Record<string, unknown>): string[] {
  if (kind === 'kafka') {
    return (settings.brokers as string[]).map((broker) => broker.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1'));
  }
  for (const key of ['url', 'endpoint'] as const) {
    if (typeof settings[key] === 'string') {
      return [new URL(settings[key]).hostname.replace(/^\[(.*)\]$/, '$1')];
    }
  }
  if (kind === 'aws-simple-notification-service') {
    return [`sns.${String(settings.region)}.amazonaws.com`];
  }
  return [String(settings.host)];
}

/**
 * A destination's settings as written (`type` and the fields of its kind), checked against its
 * kind's schema with defaults filled in; issues carry the path under `destination`.
 */
export function destinationSettingsSchemaOf(kind: DestinationKind): yup.ObjectSchema<Record<string, unknown>> {
  return (destinationSettingsSchemas[kind] as unknown as yup.ObjectSchema<Record<string, unknown>>).shape({
    type: yup.string().oneOf([kind]).required(),
  });
}

// --- Destinations ------------------------------------------------------------------------

/** A destination's own monitor (docs/forwarding.md, "Monitoring"). */
export const destinationMonitorSettingsSchema = yup
  .object({
    /** Whether the monitor raises alarms (a paused destination, a lag above maxLagSeconds). */
    enabled: yup.boolean().default(true),
    /** Lag, in seconds, above which the monitor raises `destination.lag`; none without it. */
    maxLagSeconds: yup.number().integer().min(60).max(forwardingLimits.lagMaxSecondsMax).nullable().default(null),
  })
  .exact();
export type DestinationMonitorSettings = yup.InferType<typeof destinationMonitorSettingsSchema>;

const hashId = yup.string().trim().min(1).max(64);
const name = yup.string().trim().min(1).max(forwardingLimits.destinationNameLength);
const outageEmails = yup.array(emailSchema.required()).max(fleetLimits.outageContacts);
const outageUsersHashIds = yup.array(hashId.required()).max(fleetLimits.outageContacts);
/** `destination`: the kind's settings with `type`; checked against the kind's schema by validateDestinationSettings. */
const destinationObject = yup
  .object()
  .shape({ type: yup.string().oneOf(destinationKinds).required() })
  .noUnknown(false);

/** POST /console-admin/v1/message-destination. */
export const messageDestinationCreateSchema = yup
  .object({
    name: name.required(),
    organizationHashId: hashId.required(),
    outageEmails: outageEmails.default([]),
    outageUsersHashIds: outageUsersHashIds.default([]),
    destination: destinationObject.required(),
    monitorSettings: destinationMonitorSettingsSchema.default(() => ({ enabled: true, maxLagSeconds: null })),
  })
  .exact();

/** PUT /console-admin/v1/message-destination/{hashId}: only what is given changes; `destination.type` must stay (changing_type). */
export const messageDestinationUpdateSchema = yup
  .object({
    name: name.optional(),
    outageEmails: outageEmails.optional().default(undefined),
    outageUsersHashIds: outageUsersHashIds.optional().default(undefined),
    destination: destinationObject.optional().default(undefined),
    monitorSettings: destinationMonitorSettingsSchema.optional().default(undefined),
  })
  .exact();

/** GET /console-admin/v1/message-destination and /console/v1/message-destination. */
export const messageDestinationListQuerySchema = yup
  .object({
    ...paginationQuery,
    filter: filterQuery,
    organizationHashId: hashId.optional(),
    type: yup.string().oneOf(destinationKinds).optional(),
    state: yup
      .string()
      .oneOf(['active', 'paused'] as const)
      .optional(),
  })
  .exact();

/** PUT /console-admin/v1/message-destination/{hashId}/resume: from where it stopped, or from `offset` (a stream position; replay). */
export const messageDestinationResumeSchema = yup
  .object({
    offset: yup.number().integer().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .exact();

export type MessageDestinationCreate = yup.InferType<typeof messageDestinationCreateSchema>;
export type MessageDestinationUpdate = yup.InferType<typeof messageDestinationUpdateSchema>;
export type MessageDestinationListQuery = yup.InferType<typeof messageDestinationListQuerySchema>;
export type MessageDestinationResume = yup.InferType<typeof messageDestinationResumeSchema>;

export const destinationStates = ['active', 'paused'] as const;
export type DestinationState = (typeof destinationStates)[number];

/** Where a destination's delivery stands (docs/forwarding.md, "Health"). */
export interface DestinationHealth {
  state: DestinationState;
  /** Why it is paused: `failing` (15 minutes of failures) or null. */
  pausedReason: string | null;
  pausedAt: string | null;
  /** The stream position delivered up to (what `resume` takes as `offset`), as a decimal string. */
  position: string;
  /** Reports waiting for the destination (at most lagCountMax; lagCountCapped says it stopped counting). */
  lagReports: number;
  lagCountCapped: boolean;
  /** How old the oldest waiting report is, in seconds (0 with nothing waiting). */
  lagSeconds: number;
  deliveredCount: number;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  /** Since when deliveries fail without a success (null while they succeed). */
  failingSince: string | null;
  nextAttemptAt: string | null;
}

/** A destination as every interface returns it: secrets left out (`secretsSet` names the ones kept). */
export interface MessageDestinationView {
  hashId: string;
  name: string;
  type: DestinationKind;
  organizationHashId: string;
  organization: NamedReference;
  outageEmails: string[];
  outageUsers: UserReference[];
  /** The settings without secrets, with `type`. */
  destination: Record<string, unknown> & { type: DestinationKind };
  /** Secret settings that hold a value. */
  secretsSet: string[];
  monitorSettings: DestinationMonitorSettings;
  /** The nominal active power of the devices in production whose groups forward here, W. */
  nominalActivePowerSum: number;
  health: DestinationHealth;
  createdAt: string;
  updatedAt: string;
}

const named = yup.object({ hashId: yup.string().required(), name: yup.string().required() });

export const messageDestinationViewSchema = yup.object({
  hashId: yup.string().required(),
  name: yup.string().required(),
  type: yup.string().oneOf(destinationKinds).required(),
  organizationHashId: yup.string().required(),
  organization: named.required(),
  outageEmails: yup.array(yup.string().required()).required(),
  outageUsers: yup.array(named.shape({ email: yup.string().required() })).required(),
  destination: yup.object().required(),
  secretsSet: yup.array(yup.string().required()).required(),
  monitorSettings: yup.object().required(),
  nominalActivePowerSum: yup.number().required(),
  health: yup.object().required(),
  createdAt: yup.string().required(),
  updatedAt: yup.string().required(),
});
export const messageDestinationPageSchema = pageSchema(messageDestinationViewSchema);

// --- Group forwarding --------------------------------------------------------------------

const messageTypeList = yup
  .array(yup.string().oneOf(messageTypes).required())
  .min(1, 'at least one message type')
  .max(messageTypes.length)
  .test('unique', '${path} must not name a message type twice', (value) => value === undefined || new Set(value).size === value.length);

/** Per-forwarding settings (docs/forwarding.md, "Group forwarding"). */
export const groupForwardingSettingsSchema = yup
  .object({
    /**
     * At most one message per device, asset and message type in this many seconds (0: every
     * report): a destination that wants minutes is not sent seconds.
     */
    minIntervalSeconds: yup
      .number()
      .integer()
      .min(0)
      .max(24 * 60 * 60)
      .default(0),
  })
  .exact();

/** POST /console-admin/v1/device-group/message-destination. */
export const groupForwardingCreateSchema = yup
  .object({
    deviceGroupHashId: hashId.required(),
    messageDestinationHashId: hashId.required(),
    messageTypes: messageTypeList.required(),
    settings: groupForwardingSettingsSchema.default(() => ({ minIntervalSeconds: 0 })),
  })
  .exact();

/** PUT /console-admin/v1/device-group/message-destination/{hashId}. */
export const groupForwardingUpdateSchema = yup
  .object({
    messageTypes: messageTypeList.optional().default(undefined),
    settings: groupForwardingSettingsSchema.optional().default(undefined),
  })
  .exact();

/** GET /console-admin/v1/device-group/message-destination: a group's forwarding, or a destination's. */
export const groupForwardingListQuerySchema = yup
  .object({
    ...paginationQuery,
    deviceGroupHashId: hashId.optional(),
    messageDestinationHashId: hashId.optional(),
  })
  .exact();

export type GroupForwardingCreate = yup.InferType<typeof groupForwardingCreateSchema>;
export type GroupForwardingUpdate = yup.InferType<typeof groupForwardingUpdateSchema>;
export type GroupForwardingListQuery = yup.InferType<typeof groupForwardingListQuerySchema>;
export type GroupForwardingSettings = yup.InferType<typeof groupForwardingSettingsSchema>;

export interface GroupForwardingView {
  hashId: string;
  deviceGroup: NamedReference;
  messageDestination: NamedReference & { type: DestinationKind };
  messageTypes: MessageType[];
  settings: GroupForwardingSettings;
  createdAt: string;
}

export const groupForwardingViewSchema = yup.object({
  hashId: yup.string().required(),
  deviceGroup: named.required(),
  messageDestination: named.shape({ type: yup.string().required() }).required(),
  messageTypes: yup.array(yup.string().required()).required(),
  settings: yup.object().required(),
  createdAt: yup.string().required(),
});
export const groupForwardingPageSchema = pageSchema(groupForwardingViewSchema);

// --- What is delivered -------------------------------------------------------------------

/**
 * One forwarded message (docs/forwarding.md, "Payloads"): the same envelope for every kind and
 * version; `values` holds the report's observations in the shape of `messageType`'s `version`.
 */
export interface ForwardedMessage {
  messageType: MessageType;
  version: number;
  /** The device's id for the report: with device and at, what makes a message unique. */
  id: string;
  /** The report's place in the stream (decimal string): later messages of a device have larger positions. */
  position: string;
  device: { hashId: string; name: string; identifier: string | null };
  asset: { index: number; identifier: string | null; type: string | null } | null;
  at: string;
  receivedAt: string;
  values: Record<string, unknown>;
}
