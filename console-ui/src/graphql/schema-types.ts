export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.This scalar is serialized to a string in ISO 8601 format and parsed from a string in ISO 8601 format. */
  DateTimeISO: { input: string; output: string; }
  /** The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf). */
  JSON: { input: unknown; output: unknown; }
};

/** The one acting on this request. */
export type Actor = {
  __typename?: 'Actor';
  kind: ActorKind;
  name: Scalars['String']['output'];
  /** Null for Gridport itself. */
  organization: Maybe<Organization>;
  rights: Array<Right>;
};

/** Who is acting: a signed-in user, an API key, or Gridport itself. */
export type ActorKind =
  | 'API_KEY'
  | 'SYSTEM'
  | 'USER';

/** A monitor that fired (device-model.md 3.11). */
export type Alarm = {
  __typename?: 'Alarm';
  assetIdentifier: Maybe<Scalars['String']['output']>;
  closedAt: Maybe<Scalars['DateTimeISO']['output']>;
  createdAt: Scalars['DateTimeISO']['output'];
  customerMessage: Maybe<AlarmCustomerMessage>;
  customerMessageSentAt: Maybe<Scalars['DateTimeISO']['output']>;
  destinationHashId: Maybe<Scalars['ID']['output']>;
  deviceHashId: Maybe<Scalars['ID']['output']>;
  hashId: Scalars['ID']['output'];
  /** The monitor kind, such as device.disconnect.duration. */
  monitor: Scalars['String']['output'];
  /** Since when its condition has been clear. */
  recoveringSince: Maybe<Scalars['DateTimeISO']['output']>;
};

/** What an alarm's outage contacts are told. */
export type AlarmCustomerMessage = {
  __typename?: 'AlarmCustomerMessage';
  markdown: Scalars['String']['output'];
  to: Array<Scalars['String']['output']>;
};

/** An API key in a list, with its organisation; its secret is shown only when it is created or reset. */
export type ApiKey = {
  __typename?: 'ApiKey';
  hashId: Scalars['ID']['output'];
  /** IPv4 CIDR ranges the key may be used from; empty: anywhere. */
  ipRanges: Array<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  organizationHashId: Scalars['ID']['output'];
  organizationName: Scalars['String']['output'];
  rights: Array<Scalars['String']['output']>;
  user: Maybe<ApiKeyUser>;
};

export type ApiKeyCreateInput = {
  /** At most 50 IPv4 CIDR ranges the key may be used from; empty or not given: anywhere. */
  ipRanges?: InputMaybe<Array<Scalars['String']['input']>>;
  /** 1 to 100 characters. */
  name: Scalars['String']['input'];
  organizationHashId: Scalars['ID']['input'];
  /** A PEM public key; the client may then sign short-lived JWTs instead of sending the secret. */
  publicKey?: InputMaybe<Scalars['String']['input']>;
};

/** An API key as GET /v1/api-key/{hashId} gives it; its secret is shown only when it is created or reset. */
export type ApiKeyDetail = {
  __typename?: 'ApiKeyDetail';
  hashId: Scalars['ID']['output'];
  /** IPv4 CIDR ranges the key may be used from; empty: anywhere. */
  ipRanges: Array<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  rights: Array<Scalars['String']['output']>;
  user: Maybe<ApiKeyUser>;
};

export type ApiKeyPage = {
  __typename?: 'ApiKeyPage';
  /** Pass as offset for the next page; null on the last. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<ApiKey>;
};

/** A key with its secret, shown this once: send it as Authorization: Bearer <apiKey>. */
export type ApiKeySecret = {
  __typename?: 'ApiKeySecret';
  apiKey: Scalars['String']['output'];
  hashId: Scalars['ID']['output'];
};

/** Only the fields given change; publicKey null removes the public key. */
export type ApiKeyUpdateInput = {
  ipRanges?: InputMaybe<Array<Scalars['String']['input']>>;
  name?: InputMaybe<Scalars['String']['input']>;
  publicKey?: InputMaybe<Scalars['String']['input']>;
};

/** The user who created an API key. */
export type ApiKeyUser = {
  __typename?: 'ApiKeyUser';
  email: Scalars['String']['output'];
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

/** What kind of change an audit log row records. */
export type AuditChangeType =
  | 'CONTROLLER_2FA_CHANGES'
  | 'CONTROLLER_CREATE'
  | 'CONTROLLER_DELETE'
  | 'CONTROLLER_DEVICE_SHIPPED'
  | 'CONTROLLER_MESSAGE_TO_DEVICE'
  | 'CONTROLLER_UPDATE'
  | 'CONTROLLER_USER_PASSWORD_RESET'
  | 'DEVICE_GATEWAY_MESSAGE_TO_DEVICE'
  | 'DEVICE_GATEWAY_MONITORING'
  | 'MESSAGE_FROM_DEVICE';

/** A page of audit log rows, newest first. */
export type AuditLogPage = {
  __typename?: 'AuditLogPage';
  /** The offset of the next page; null on the last page. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<AuditLogRow>;
};

/** One change to one object. */
export type AuditLogRow = {
  __typename?: 'AuditLogRow';
  actorName: Scalars['String']['output'];
  changeType: AuditChangeType;
  createdAt: Scalars['DateTimeISO']['output'];
  /** The fields that changed, each { type, name, ... } by what it holds (oldValue and newValue for plain values; none for hidden fields). */
  diff: Array<Scalars['JSON']['output']>;
  hashId: Scalars['ID']['output'];
  objectHashId: Scalars['ID']['output'];
  objectType: AuditObjectType;
  /** Shared by every row one write produced. */
  transactionIdentifier: Scalars['String']['output'];
  /** Null when Gridport itself, an API key or the command line made the change. */
  user: Maybe<AuditLogUser>;
};

/** The user who made a change. */
export type AuditLogUser = {
  __typename?: 'AuditLogUser';
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

/** The kinds of objects whose changes the audit log records. */
export type AuditObjectType =
  | 'API_KEYS'
  | 'BILLING_CHARGES'
  | 'BILLING_INVOICES'
  | 'BILLING_LEGAL_ENTITIES'
  | 'CONTACTS'
  | 'DEVICES'
  | 'DEVICE_GROUPS'
  | 'ISSUES'
  | 'MESSAGE_DESTINATIONS'
  | 'ORGANIZATIONS'
  | 'PARTNERSHIPS'
  | 'USERS';

/** A charge in euro cents (docs/billing.md, "Charges"). */
export type BillingCharge = {
  __typename?: 'BillingCharge';
  billableAt: Scalars['DateTimeISO']['output'];
  billingLegalEntity: Maybe<BillingReference>;
  /** Euro cents; negative credits. */
  charge: Scalars['Float']['output'];
  createdAt: Scalars['DateTimeISO']['output'];
  customerReference: Maybe<Scalars['String']['output']>;
  description: Scalars['String']['output'];
  device: Maybe<BillingReference>;
  /** The tier discount applied, in percent. */
  discount: Maybe<Scalars['Float']['output']>;
  from: Maybe<Scalars['DateTimeISO']['output']>;
  hashId: Scalars['ID']['output'];
  invoiceHashId: Maybe<Scalars['ID']['output']>;
  invoicePublicId: Maybe<Scalars['String']['output']>;
  ledgerAccount: LedgerAccount;
  /** Subscription charges: the device's monthly price in euro before the tier discount. */
  monthlyPriceBeforeDiscount: Maybe<Scalars['Float']['output']>;
  organization: BillingReference;
  reason: ChargeReason;
  /** For a refund: the charge it refunds. */
  refundOfHashId: Maybe<Scalars['ID']['output']>;
  refunded: Scalars['Boolean']['output'];
  source: ChargeSource;
  to: Maybe<Scalars['DateTimeISO']['output']>;
};

export type BillingChargeCreateInput = {
  billableAt?: InputMaybe<Scalars['DateTimeISO']['input']>;
  /** Euro cents; negative credits. */
  charge: Scalars['Int']['input'];
  description: Scalars['String']['input'];
  deviceHashId?: InputMaybe<Scalars['ID']['input']>;
  ledgerAccount: LedgerAccount;
  organizationHashId: Scalars['ID']['input'];
  /** manual (the default) or shipment. */
  source?: InputMaybe<Scalars['String']['input']>;
};

export type BillingChargeCreated = {
  __typename?: 'BillingChargeCreated';
  billingChargeHashId: Scalars['ID']['output'];
};

export type BillingChargePage = {
  __typename?: 'BillingChargePage';
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<BillingCharge>;
};

export type BillingChargeRefundInput = {
  /** Euro cents to refund; all that is left without it. */
  charge?: InputMaybe<Scalars['Int']['input']>;
  description?: InputMaybe<Scalars['String']['input']>;
};

/** An organisation's monthly forecast: its devices billed by usage at its pricing now. */
export type BillingForecast = {
  __typename?: 'BillingForecast';
  deviceCount: Scalars['Int']['output'];
  /** Percent. */
  discount: Scalars['Float']['output'];
  monthlyPrice: Scalars['Float']['output'];
  monthlyPriceBeforeDiscount: Scalars['Float']['output'];
  organization: BillingReference;
  /** usage or legacy. */
  pricingType: Scalars['String']['output'];
  unitCount: Scalars['Int']['output'];
};

/** An organisation's charges of one legal entity and customer reference, gathered by the invoicing job. */
export type BillingInvoice = {
  __typename?: 'BillingInvoice';
  billingLegalEntity: Maybe<BillingReference>;
  /** The total in euro cents. */
  charge: Scalars['Float']['output'];
  chargeCount: Scalars['Int']['output'];
  charges: Array<BillingCharge>;
  createdAt: Scalars['DateTimeISO']['output'];
  customerReference: Maybe<Scalars['String']['output']>;
  hashId: Scalars['ID']['output'];
  organization: Organization;
  /** The path of the PDF on this server (GET with a staff session): /console-admin/v1/billing-invoice/{hashId}/pdf. */
  pdfUrl: Scalars['String']['output'];
  /** Charges billable before this moment were invoiced. */
  periodEnd: Scalars['DateTimeISO']['output'];
  /** GP-<year>-<6 digits>, without gaps within a year. */
  publicId: Scalars['String']['output'];
  totals: BillingInvoiceTotals;
};

export type BillingInvoicePage = {
  __typename?: 'BillingInvoicePage';
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<BillingInvoice>;
};

/** Totals per ledger account in euro cents. */
export type BillingInvoiceTotals = {
  __typename?: 'BillingInvoiceTotals';
  consultancy: Scalars['Float']['output'];
  hardware: Scalars['Float']['output'];
  saas: Scalars['Float']['output'];
};

/** A company an organisation's invoices are addressed to (console.md section 3). */
export type BillingLegalEntity = {
  __typename?: 'BillingLegalEntity';
  /** The Moneybird contact it was made from or is linked to. */
  accountingContactId: Maybe<Scalars['String']['output']>;
  address1: Maybe<Scalars['String']['output']>;
  address2: Maybe<Scalars['String']['output']>;
  chamberOfCommerce: Maybe<Scalars['String']['output']>;
  city: Maybe<Scalars['String']['output']>;
  companyName: Scalars['String']['output'];
  /** ISO 3166-1 alpha-2, upper case. */
  country: Scalars['String']['output'];
  createdAt: Scalars['DateTimeISO']['output'];
  /** Where invoices are sent. */
  emails: Array<Scalars['String']['output']>;
  hashId: Scalars['ID']['output'];
  /** Whether it is its organisation's default legal entity (one per organisation). */
  isOrganizationDefault: Scalars['Boolean']['output'];
  organization: Organization;
  taxNumber: Maybe<Scalars['String']['output']>;
  updatedAt: Scalars['DateTimeISO']['output'];
  zipcode: Maybe<Scalars['String']['output']>;
};

/** Full details (companyName and country at least), or a Moneybird contact id alone; details given beside a contact id override the contact's. */
export type BillingLegalEntityCreateInput = {
  /** A Moneybird contact id (digits). */
  accountingContactId?: InputMaybe<Scalars['String']['input']>;
  address1?: InputMaybe<Scalars['String']['input']>;
  address2?: InputMaybe<Scalars['String']['input']>;
  chamberOfCommerce?: InputMaybe<Scalars['String']['input']>;
  city?: InputMaybe<Scalars['String']['input']>;
  companyName?: InputMaybe<Scalars['String']['input']>;
  /** ISO 3166-1 alpha-2. */
  country?: InputMaybe<Scalars['String']['input']>;
  emails?: InputMaybe<Array<Scalars['String']['input']>>;
  isOrganizationDefault?: InputMaybe<Scalars['Boolean']['input']>;
  organizationHashId: Scalars['ID']['input'];
  taxNumber?: InputMaybe<Scalars['String']['input']>;
  zipcode?: InputMaybe<Scalars['String']['input']>;
};

/** A page of legal entities, newest first. */
export type BillingLegalEntityPage = {
  __typename?: 'BillingLegalEntityPage';
  /** The offset of the next page; null on the last page. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<BillingLegalEntity>;
};

/** Only the fields given change; null clears a field that may be empty. */
export type BillingLegalEntityUpdateInput = {
  /** A Moneybird contact id: its details fill in first; null unlinks the contact. */
  accountingContactId?: InputMaybe<Scalars['String']['input']>;
  address1?: InputMaybe<Scalars['String']['input']>;
  address2?: InputMaybe<Scalars['String']['input']>;
  chamberOfCommerce?: InputMaybe<Scalars['String']['input']>;
  city?: InputMaybe<Scalars['String']['input']>;
  companyName?: InputMaybe<Scalars['String']['input']>;
  country?: InputMaybe<Scalars['String']['input']>;
  emails?: InputMaybe<Array<Scalars['String']['input']>>;
  isOrganizationDefault?: InputMaybe<Scalars['Boolean']['input']>;
  taxNumber?: InputMaybe<Scalars['String']['input']>;
  zipcode?: InputMaybe<Scalars['String']['input']>;
};

/** An organisation, device or legal entity as a charge or an invoice names it. */
export type BillingReference = {
  __typename?: 'BillingReference';
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

/** Why a charge was made (docs/billing.md, "Charges"). */
export type ChargeReason =
  | 'CONFIG_CHANGE'
  | 'DESTINATION_UPDATE'
  | 'DEVICE_GROUP_UPDATE'
  | 'DEVICE_UPDATE'
  | 'MANUALLY_ADDED'
  | 'SCHEDULED'
  | 'SUBSCRIPTION_INCREASE';

/** Where a charge comes from. */
export type ChargeSource =
  | 'MANUAL'
  | 'SHIPMENT'
  | 'SUBSCRIPTION';

/** Whether the public API may read a device, and also steer it. */
export type CloudApiLevel =
  | 'OFF'
  | 'READ'
  | 'READ_WRITE';

/** Where delivery to a destination stands: its state, position in the stream, lag and last results. */
export type DestinationHealth = {
  __typename?: 'DestinationHealth';
  /** Reports delivered since the destination was created. */
  deliveredCount: Scalars['Float']['output'];
  /** Since when deliveries fail without a success. */
  failingSince: Maybe<Scalars['DateTimeISO']['output']>;
  lagCountCapped: Scalars['Boolean']['output'];
  /** Reports waiting for the destination, counted up to a cap (lagCountCapped). */
  lagReports: Scalars['Int']['output'];
  /** How old the oldest waiting report is, in seconds. */
  lagSeconds: Scalars['Int']['output'];
  lastError: Maybe<Scalars['String']['output']>;
  lastErrorAt: Maybe<Scalars['DateTimeISO']['output']>;
  lastSuccessAt: Maybe<Scalars['DateTimeISO']['output']>;
  nextAttemptAt: Maybe<Scalars['DateTimeISO']['output']>;
  pausedAt: Maybe<Scalars['DateTimeISO']['output']>;
  /** Why it is paused (failing), or null. */
  pausedReason: Maybe<Scalars['String']['output']>;
  /** The stream position delivered up to (a 64-bit number, as text): what resumeMessageDestination takes as offset. */
  position: Scalars['String']['output'];
  state: DestinationState;
};

/** The kind of a message destination; its `destination` settings carry the same kind in `type` as contracts/forwarding.ts spells it ('azure-service-bus'). */
export type DestinationKind =
  | 'AMQP'
  | 'AWS_SIMPLE_NOTIFICATION_SERVICE'
  | 'AZURE_SERVICE_BUS'
  | 'FTPS'
  | 'GRAFANA_LOKI'
  | 'HTTP'
  | 'INFLUXDB'
  | 'KAFKA'
  | 'MSSQL'
  | 'MYSQL'
  | 'POSTGRES'
  | 'SFTP';

/** A destination's own monitor: alarms when it is paused or lags too far. */
export type DestinationMonitorSettings = {
  __typename?: 'DestinationMonitorSettings';
  enabled: Scalars['Boolean']['output'];
  /** Lag in seconds above which the monitor raises an alarm; none when null. */
  maxLagSeconds: Maybe<Scalars['Int']['output']>;
};

export type DestinationMonitorSettingsInput = {
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  maxLagSeconds?: InputMaybe<Scalars['Int']['input']>;
};

/** Whether a destination is delivered to, or paused until resumed. */
export type DestinationState =
  | 'ACTIVE'
  | 'PAUSED';

/** A user told of a destination's outage. */
export type DestinationUser = {
  __typename?: 'DestinationUser';
  email: Scalars['String']['output'];
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

/** A gateway on site and the assets it runs. */
export type Device = {
  __typename?: 'Device';
  /** Null while the device is offline. */
  activeSession: Maybe<DeviceSession>;
  assets: Array<DeviceAsset>;
  balenaOsVersion: Maybe<Scalars['String']['output']>;
  balenaUuid: Maybe<Scalars['String']['output']>;
  /** The legal entity the device's charges are invoiced to; null: its organisation's default. Staff only. */
  billingLegalEntity: Maybe<BillingLegalEntity>;
  /** The billing usage column (docs/billing.md): staff only, null for customers. */
  billingUsage: Maybe<DeviceBillingUsage>;
  cloudApi: CloudApiLevel;
  /** The configuration (version 2); VPN credentials are withheld from customers. */
  config: Maybe<Scalars['JSON']['output']>;
  controllers: Array<DeviceController>;
  /** Staff only, as over REST. */
  deviceGroup: Maybe<DeviceGroup>;
  deviceGroupHashId: Maybe<Scalars['ID']['output']>;
  exportMessages: Scalars['Boolean']['output'];
  hashId: Scalars['ID']['output'];
  iccid: Maybe<Scalars['String']['output']>;
  /** The placeholder text until the device first connects. */
  identifier: Scalars['String']['output'];
  imsi: Maybe<Scalars['String']['output']>;
  inProduction: Scalars['Boolean']['output'];
  invoiceCustomerReference: Maybe<Scalars['String']['output']>;
  isExposedToCustomer: Scalars['Boolean']['output'];
  isOnline: Scalars['Boolean']['output'];
  monitorConnectivity: Scalars['Boolean']['output'];
  monitorSettings: Scalars['JSON']['output'];
  name: Scalars['String']['output'];
  /** W. */
  nominalActivePowerSum: Scalars['Float']['output'];
  openForProvisioning: Scalars['Boolean']['output'];
  organization: Maybe<Organization>;
  organizationHashId: Maybe<Scalars['ID']['output']>;
  outageEmails: Array<Scalars['String']['output']>;
  outageUsers: Array<DeviceUser>;
  partnerships: Array<DevicePartnership>;
  /** Seconds. */
  reportingInterval: Maybe<Scalars['Int']['output']>;
  subscription: Maybe<Scalars['JSON']['output']>;
  subscriptionChargedUntil: Maybe<Scalars['String']['output']>;
  version: Maybe<Scalars['String']['output']>;
};

/** An asset of a device config, with its schedule. */
export type DeviceAsset = {
  __typename?: 'DeviceAsset';
  category: Maybe<Scalars['String']['output']>;
  identifier: Maybe<Scalars['String']['output']>;
  index: Scalars['Int']['output'];
  /** W. */
  nominalActivePower: Maybe<Scalars['Float']['output']>;
  /** Schedule items: startAt, endAt, command. */
  schedule: Array<Scalars['JSON']['output']>;
  type: Scalars['String']['output'];
};

/** The billing usage column of the device lists: units and the monthly price now. */
export type DeviceBillingUsage = {
  __typename?: 'DeviceBillingUsage';
  /** Euro a month after the tier discount the organisation reaches now. */
  monthlyPrice: Scalars['Float']['output'];
  /** Euro a month before the tier discount; 0 under legacy pricing. */
  monthlyPriceBeforeDiscount: Scalars['Float']['output'];
  unitCount: Scalars['Int']['output'];
  /** Units by rate key; keys without units are absent. */
  units: Scalars['JSON']['output'];
};

/** An active-control loop of a device config, with its schedule. */
export type DeviceController = {
  __typename?: 'DeviceController';
  identifier: Maybe<Scalars['String']['output']>;
  index: Scalars['Int']['output'];
  schedule: Array<Scalars['JSON']['output']>;
  type: Scalars['String']['output'];
};

export type DeviceCount = {
  __typename?: 'DeviceCount';
  /** Offline. */
  inactiveCount: Scalars['Int']['output'];
  /** Online, without an open issue. */
  operationalCount: Scalars['Int']['output'];
  /** Online, with an open issue that is not internal. */
  operationalWithIssuesCount: Scalars['Int']['output'];
  totalCount: Scalars['Int']['output'];
};

export type DeviceGroup = {
  __typename?: 'DeviceGroup';
  apiKeys: Array<DeviceGroupApiKey>;
  deviceCount: Scalars['Int']['output'];
  deviceOutageEmails: Array<Scalars['String']['output']>;
  deviceOutageUsers: Array<DeviceUser>;
  hashId: Scalars['ID']['output'];
  /** The group's forwardings to message destinations (destination, message types, settings), newest first; employees read, as over REST. */
  messageDestinations: Array<DeviceGroupMessageDestination>;
  name: Scalars['String']['output'];
  organization: Organization;
  organizationHashId: Scalars['ID']['output'];
};

/** An API key linked to a group: it sees only the devices of its linked groups. */
export type DeviceGroupApiKey = {
  __typename?: 'DeviceGroupApiKey';
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

export type DeviceGroupCreateInput = {
  deviceOutageEmails?: InputMaybe<Array<Scalars['String']['input']>>;
  deviceOutageUsersHashIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  name: Scalars['String']['input'];
  organizationHashId: Scalars['ID']['input'];
};

/** A device group forwarding reports of some message types to one of its organisation's destinations. */
export type DeviceGroupMessageDestination = {
  __typename?: 'DeviceGroupMessageDestination';
  createdAt: Scalars['DateTimeISO']['output'];
  deviceGroup: ForwardingDeviceGroup;
  hashId: Scalars['ID']['output'];
  messageDestination: ForwardingDestination;
  messageTypes: Array<MessageType>;
  settings: GroupForwardingSettings;
};

export type DeviceGroupMessageDestinationCreateInput = {
  deviceGroupHashId: Scalars['ID']['input'];
  messageDestinationHashId: Scalars['ID']['input'];
  messageTypes: Array<MessageType>;
  settings?: InputMaybe<GroupForwardingSettingsInput>;
};

export type DeviceGroupMessageDestinationPage = {
  __typename?: 'DeviceGroupMessageDestinationPage';
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<DeviceGroupMessageDestination>;
};

export type DeviceGroupMessageDestinationUpdateInput = {
  messageTypes?: InputMaybe<Array<MessageType>>;
  settings?: InputMaybe<GroupForwardingSettingsInput>;
};

export type DeviceGroupPage = {
  __typename?: 'DeviceGroupPage';
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<DeviceGroup>;
};

export type DeviceGroupUpdateInput = {
  deviceOutageEmails?: InputMaybe<Array<Scalars['String']['input']>>;
  deviceOutageUsersHashIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  name?: InputMaybe<Scalars['String']['input']>;
};

/** Only the fields given change; null clears a field. */
export type DeviceInvoiceDetailsInput = {
  /** A legal entity of the device's organisation; null: the organisation's default (billing_legal_entity_must_be_null without an organisation). */
  billingLegalEntityHashId?: InputMaybe<Scalars['ID']['input']>;
  invoiceCustomerReference?: InputMaybe<Scalars['String']['input']>;
  subscription?: InputMaybe<Scalars['JSON']['input']>;
  /** ISO 8601. */
  subscriptionChargedUntil?: InputMaybe<Scalars['String']['input']>;
};

/** Outage emails and users to add and to remove; each user must be able to see the device. */
export type DeviceOutageContactsInput = {
  outageEmails?: InputMaybe<Array<Scalars['String']['input']>>;
  outageUsersHashIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  removedOutageEmails?: InputMaybe<Array<Scalars['String']['input']>>;
  removedOutageUsersHashIds?: InputMaybe<Array<Scalars['ID']['input']>>;
};

export type DevicePage = {
  __typename?: 'DevicePage';
  /** How many devices match, for customers (the admin list does not count). */
  count: Maybe<Scalars['Int']['output']>;
  /** Pass as offset for the next page; null on the last. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<Device>;
};

/** A partnership through which a device is shared. */
export type DevicePartnership = {
  __typename?: 'DevicePartnership';
  allDevices: Scalars['Boolean']['output'];
  description: Scalars['String']['output'];
  hashId: Scalars['ID']['output'];
  owner: Organization;
  partner: Organization;
  role: PartnershipRole;
};

/** A device's gateway connected or went away. */
export type DevicePresenceEvent = {
  __typename?: 'DevicePresenceEvent';
  deviceHashId: Scalars['ID']['output'];
  networkInterface: Maybe<Scalars['String']['output']>;
  online: Scalars['Boolean']['output'];
};

/** A report of a device, as stored. */
export type DeviceReportEvent = {
  __typename?: 'DeviceReportEvent';
  assetIndex: Maybe<Scalars['Int']['output']>;
  /** ISO 8601. */
  at: Scalars['String']['output'];
  /** The whole report: type, at, asset or controller, observations. */
  body: Scalars['JSON']['output'];
  controllerIndex: Maybe<Scalars['Int']['output']>;
  deviceHashId: Scalars['ID']['output'];
  /** The device's own id for the report. */
  reportId: Scalars['String']['output'];
  /** meterPower, batteryPower, ... (docs/gateway-protocol.md) */
  type: Scalars['String']['output'];
};

export type DeviceSession = {
  __typename?: 'DeviceSession';
  /** eth0, eth1 or cellular. */
  networkInterface: Maybe<Scalars['String']['output']>;
};

/** The customer device list status filter. */
export type DeviceStatus =
  | 'NON_OPERATIONAL'
  | 'OPERATIONAL'
  | 'OPERATIONAL_WITH_ISSUES';

/** Only the fields given change; null clears a field that may be empty. */
export type DeviceUpdateInput = {
  balenaUuid?: InputMaybe<Scalars['String']['input']>;
  cloudApi?: InputMaybe<CloudApiLevel>;
  /** A configuration (version 2). */
  config?: InputMaybe<Scalars['JSON']['input']>;
  deviceGroupHashId?: InputMaybe<Scalars['ID']['input']>;
  exportMessages?: InputMaybe<Scalars['Boolean']['input']>;
  iccid?: InputMaybe<Scalars['String']['input']>;
  imsi?: InputMaybe<Scalars['String']['input']>;
  inProduction?: InputMaybe<Scalars['Boolean']['input']>;
  isExposedToCustomer?: InputMaybe<Scalars['Boolean']['input']>;
  monitorConnectivity?: InputMaybe<Scalars['Boolean']['input']>;
  monitorSettings?: InputMaybe<Scalars['JSON']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
  openForProvisioning?: InputMaybe<Scalars['Boolean']['input']>;
  organizationHashId?: InputMaybe<Scalars['ID']['input']>;
  outageEmails?: InputMaybe<Array<Scalars['String']['input']>>;
  outageUsersHashIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  subscription?: InputMaybe<Scalars['JSON']['input']>;
};

/** A user told of outages. */
export type DeviceUser = {
  __typename?: 'DeviceUser';
  email: Scalars['String']['output'];
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

/** The headers of a mail that became a message. */
export type EmailHeaders = {
  __typename?: 'EmailHeaders';
  cc: Array<Scalars['String']['output']>;
  date: Maybe<Scalars['String']['output']>;
  from: Scalars['String']['output'];
  inReplyTo: Maybe<Scalars['String']['output']>;
  messageId: Maybe<Scalars['String']['output']>;
  references: Array<Scalars['String']['output']>;
  subject: Scalars['String']['output'];
  to: Array<Scalars['String']['output']>;
};

/** The message destination of a forwarding, by name and kind. */
export type ForwardingDestination = {
  __typename?: 'ForwardingDestination';
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  type: DestinationKind;
};

/** The device group of a forwarding, by name. */
export type ForwardingDeviceGroup = {
  __typename?: 'ForwardingDeviceGroup';
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

export type GroupForwardingSettings = {
  __typename?: 'GroupForwardingSettings';
  /** At most one message per device, asset and message type in this many seconds (0: every report). */
  minIntervalSeconds: Scalars['Int']['output'];
};

export type GroupForwardingSettingsInput = {
  minIntervalSeconds?: InputMaybe<Scalars['Int']['input']>;
};

/** How often an organisation is invoiced. */
export type InvoiceFrequency =
  | 'DAILY'
  | 'MONTHLY';

export type Issue = {
  __typename?: 'Issue';
  alarms: Array<Alarm>;
  assignedEmail: Maybe<Scalars['String']['output']>;
  assignedUser: Maybe<IssueUser>;
  /** Resolves itself when all its alarms have closed. */
  autoClose: Scalars['Boolean']['output'];
  /** Reopened by an alarm within 24 hours after it closed itself. */
  canReopen: Scalars['Boolean']['output'];
  closedAt: Maybe<Scalars['DateTimeISO']['output']>;
  createdAt: Scalars['DateTimeISO']['output'];
  device: Maybe<IssueReference>;
  /** True when the provider handles the issue, false when the customer does. */
  gridportIssueOwner: Scalars['Boolean']['output'];
  hashId: Scalars['ID']['output'];
  /** Seen by staff only. */
  internal: Scalars['Boolean']['output'];
  /** Messages the caller may read (internal ones are not counted for a customer). */
  messageCount: Scalars['Int']['output'];
  nextActivityDueAt: Maybe<Scalars['DateTimeISO']['output']>;
  nonUserParticipants: Array<NonUserParticipant>;
  organization: Maybe<IssueReference>;
  replyHeaders: ReplyHeaders;
  /** How it began: monitoring, user, incoming-email, telephony, cloud. */
  source: Scalars['String']['output'];
  status: IssueStatus;
  /** A customer sees the subscribers of their own organisation. */
  subscribers: Array<IssueUser>;
  title: Scalars['String']['output'];
  updatedAt: Scalars['DateTimeISO']['output'];
};

/** A change to an issue, as the audit log records it. */
export type IssueAuditEntry = {
  __typename?: 'IssueAuditEntry';
  actorName: Scalars['String']['output'];
  changeType: AuditChangeType;
  createdAt: Scalars['DateTimeISO']['output'];
  /** The fields that changed, each { type, name, ... } as in the audit log. */
  diff: Array<Scalars['JSON']['output']>;
  hashId: Scalars['ID']['output'];
  objectHashId: Scalars['ID']['output'];
  objectType: AuditObjectType;
  transactionIdentifier: Scalars['String']['output'];
  /** Null when Gridport itself, an API key or the command line made the change. */
  user: Maybe<IssueReference>;
};

/** The open issues the caller sees, those assigned to them, and to their organisation. */
export type IssueCount = {
  __typename?: 'IssueCount';
  assignedToMeCount: Scalars['Int']['output'];
  assignedToMyOrganizationCount: Scalars['Int']['output'];
  openCount: Scalars['Int']['output'];
};

/** A file attached to a message; url serves it to who may see the issue. */
export type IssueFile = {
  __typename?: 'IssueFile';
  contentType: Scalars['String']['output'];
  identifier: Scalars['String']['output'];
  name: Scalars['String']['output'];
  /** Bytes. */
  size: Scalars['Float']['output'];
  url: Scalars['String']['output'];
};

/** A message of an issue timeline. */
export type IssueMessage = {
  __typename?: 'IssueMessage';
  cc: Array<Scalars['String']['output']>;
  createdAt: Scalars['DateTimeISO']['output'];
  emailHeaders: Maybe<EmailHeaders>;
  files: Array<IssueFile>;
  hashId: Scalars['ID']['output'];
  /** Seen by staff only; only internal messages can be edited. */
  isInternal: Scalars['Boolean']['output'];
  issueHashId: Scalars['ID']['output'];
  message: Scalars['String']['output'];
  source: IssueMessageSource;
  to: Array<Scalars['String']['output']>;
  updatedAt: Scalars['DateTimeISO']['output'];
  /** Who wrote it; null for Gridport itself or a mail from outside. */
  user: Maybe<IssueUser>;
};

/** A message to an issue. Staff may make it internal, mail it (to, cc) and assign the issue; a customer sends the message and files only. */
export type IssueMessageInput = {
  assignedEmail?: InputMaybe<Scalars['String']['input']>;
  assignedUserHashId?: InputMaybe<Scalars['ID']['input']>;
  cc?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Identifiers of your own uploads (POST /console/v1/file/upload), at most 10. */
  fileIdentifiers?: InputMaybe<Array<Scalars['String']['input']>>;
  isInternal?: InputMaybe<Scalars['Boolean']['input']>;
  issueHashId: Scalars['ID']['input'];
  message: Scalars['String']['input'];
  to?: InputMaybe<Array<Scalars['String']['input']>>;
};

/** Where a timeline message came from. */
export type IssueMessageSource =
  | 'CLOUD'
  | 'GITHUB'
  | 'INCOMING_EMAIL'
  | 'MONITORING'
  | 'USER';

/** Who handles an issue: the provider (gridportIssueOwner) or the customer. */
export type IssueOwner =
  | 'CUSTOMER'
  | 'GRIDPORT';

/** A page of issues in the order asked for. */
export type IssuePage = {
  __typename?: 'IssuePage';
  /** The offset of the next page; null on the last page. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<Issue>;
};

/** An organisation, device or user as an issue names it. */
export type IssueReference = {
  __typename?: 'IssueReference';
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

/** Creation order either way, or the next activity due first (issues without one last). */
export type IssueSort =
  | 'CREATED_AT_ASC'
  | 'CREATED_AT_DESC'
  | 'NEXT_ACTIVITY_DUE_AT';

/** Open, or resolved (closedAt set). */
export type IssueStatus =
  | 'OPEN'
  | 'RESOLVED';

/** A message or an audit log entry of an issue; the one its kind names is set. */
export type IssueTimelineItem = {
  __typename?: 'IssueTimelineItem';
  auditEntry: Maybe<IssueAuditEntry>;
  createdAt: Scalars['DateTimeISO']['output'];
  /** Where the item stands: pass it as after to the issueTimeline subscription to miss nothing after it. */
  cursor: Scalars['String']['output'];
  kind: IssueTimelineItemKind;
  message: Maybe<IssueMessage>;
};

/** A message, or an audit log entry of the issue. */
export type IssueTimelineItemKind =
  | 'AUDIT'
  | 'MESSAGE';

/** A page of an issue's timeline, oldest first. */
export type IssueTimelinePage = {
  __typename?: 'IssueTimelinePage';
  /** The offset of the next page; null on the last page. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<IssueTimelineItem>;
};

/** Only the fields given change; null clears the assignee or the next activity. */
export type IssueUpdateInput = {
  assignedEmail?: InputMaybe<Scalars['String']['input']>;
  assignedUserHashId?: InputMaybe<Scalars['ID']['input']>;
  autoClose?: InputMaybe<Scalars['Boolean']['input']>;
  canReopen?: InputMaybe<Scalars['Boolean']['input']>;
  gridportIssueOwner?: InputMaybe<Scalars['Boolean']['input']>;
  internal?: InputMaybe<Scalars['Boolean']['input']>;
  nextActivityDueAt?: InputMaybe<Scalars['DateTimeISO']['input']>;
  title?: InputMaybe<Scalars['String']['input']>;
};

/** A user as an issue names them: a subscriber, the assignee, the author of a message. */
export type IssueUser = {
  __typename?: 'IssueUser';
  email: Scalars['String']['output'];
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

/** The ledger account a charge books on; subscription charges book on saas. */
export type LedgerAccount =
  | 'CONSULTANCY'
  | 'HARDWARE'
  | 'SAAS';

export type LoginInput = {
  /** The current two-factor code, when two-factor is on. */
  code?: InputMaybe<Scalars['String']['input']>;
  email: Scalars['String']['input'];
  password: Scalars['String']['input'];
  /** A recovery code instead of the two-factor code; each works once. */
  recoveryCode?: InputMaybe<Scalars['String']['input']>;
};

/** One bucket of a measurement history: its start and the aggregates of the values reported within it. */
export type MeasurementPoint = {
  __typename?: 'MeasurementPoint';
  /** The start of the bucket (buckets are aligned on multiples of their size since 1970-01-01 UTC). */
  at: Scalars['DateTimeISO']['output'];
  avg: Scalars['Float']['output'];
  /** How many values the bucket aggregates. */
  count: Scalars['Int']['output'];
  /** The latest value reported within the bucket. */
  last: Scalars['Float']['output'];
  max: Scalars['Float']['output'];
  min: Scalars['Float']['output'];
};

/** A place one organisation's device groups forward reports to; its secrets are never returned. */
export type MessageDestination = {
  __typename?: 'MessageDestination';
  createdAt: Scalars['DateTimeISO']['output'];
  /** The kind's settings with `type`, secrets left out (docs/forwarding.md). */
  destination: Scalars['JSON']['output'];
  hashId: Scalars['ID']['output'];
  health: DestinationHealth;
  monitorSettings: DestinationMonitorSettings;
  name: Scalars['String']['output'];
  /** The nominal active power of the devices in production whose groups forward here, W. */
  nominalActivePowerSum: Scalars['Float']['output'];
  organization: Organization;
  organizationHashId: Scalars['ID']['output'];
  outageEmails: Array<Scalars['String']['output']>;
  outageUsers: Array<DestinationUser>;
  /** The secret settings that hold a value (their values are never returned). */
  secretsSet: Array<Scalars['String']['output']>;
  type: DestinationKind;
  updatedAt: Scalars['DateTimeISO']['output'];
};

export type MessageDestinationCreateInput = {
  /** The kind's settings with `type` ('http', 'azure-service-bus', ...), secrets included. */
  destination: Scalars['JSON']['input'];
  monitorSettings?: InputMaybe<DestinationMonitorSettingsInput>;
  name: Scalars['String']['input'];
  organizationHashId: Scalars['ID']['input'];
  outageEmails?: InputMaybe<Array<Scalars['String']['input']>>;
  outageUsersHashIds?: InputMaybe<Array<Scalars['ID']['input']>>;
};

export type MessageDestinationPage = {
  __typename?: 'MessageDestinationPage';
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<MessageDestination>;
};

export type MessageDestinationUpdateInput = {
  /** The kind's settings as a whole with the stored `type` (changing_type otherwise); a secret left out keeps its stored value. */
  destination?: InputMaybe<Scalars['JSON']['input']>;
  monitorSettings?: InputMaybe<DestinationMonitorSettingsInput>;
  name?: InputMaybe<Scalars['String']['input']>;
  outageEmails?: InputMaybe<Array<Scalars['String']['input']>>;
  outageUsersHashIds?: InputMaybe<Array<Scalars['ID']['input']>>;
};

/** What a device group may forward, each in its version of device-model.md 3.12. */
export type MessageType =
  | 'ALARM'
  | 'BATTERY_POWER'
  | 'BATTERY_POWER_FILTERED'
  | 'BATTERY_POWER_FLASH'
  | 'EV_POWER'
  | 'GENERATOR_POWER'
  | 'METER_POWER'
  | 'METER_POWER_FLASH'
  | 'SOLAR_POWER'
  | 'SOLAR_POWER_FLASH'
  | 'WIND_POWER'
  | 'WIND_POWER_FLASH';

export type Mutation = {
  __typename?: 'Mutation';
  /** A manual charge in euro cents (negative credits) of an organisation, of one of its devices when given. */
  addBillingCharge: BillingChargeCreated;
  /** At most 3 destinations per message type of a group (max_destinations_reached); a pair once (already_configured). */
  addDeviceGroupMessageDestination: DeviceGroupMessageDestination;
  /** Posts a message. Staff: internal or not, mailed to to and cc, assigning the issue. Customers: the message and their uploads only. */
  addIssueMessage: IssueMessage;
  /** Subscribes users to the issue; each must be able to see it. */
  addIssueSubscribers: Issue;
  /** Creates a key; its secret is in the answer and nowhere else. */
  createApiKey: ApiKeySecret;
  /** As POST /console-admin/v1/billing-legal-entity. */
  createBillingLegalEntity: BillingLegalEntity;
  createDeviceGroup: DeviceGroup;
  createMessageDestination: MessageDestination;
  createOrganization: Organization;
  createPartnership: Partnership;
  deleteApiKey: Scalars['Boolean']['output'];
  /** Deletes a legal entity that is neither its organisation's default nor on an invoice (is_in_use). */
  deleteBillingLegalEntity: Scalars['Boolean']['output'];
  /** Deletes an empty group (not_empty otherwise). */
  deleteDeviceGroup: Scalars['Boolean']['output'];
  deletePartnership: Scalars['Boolean']['output'];
  /** Invites 1 to 20 emails into an organisation and mails each its link (Ops). */
  inviteUsers: Array<UserInvite>;
  /** Links an API key to a group: the key then sees only the devices of its linked groups. */
  linkDeviceGroupApiKey: Scalars['Boolean']['output'];
  /** Starts a console session (sets the session cookie) and answers who signed in. */
  login: Actor;
  /** Ends the console session of this request and clears its cookie. */
  logout: Scalars['Boolean']['output'];
  /** Refunds all that is left of a charge, or part of it: a charge of the opposite sign naming it. */
  refundBillingCharge: BillingChargeCreated;
  /** Removes a manual charge not yet invoiced (not_manual, is_invoiced). */
  removeBillingCharge: Scalars['Boolean']['output'];
  /** Stops forwarding a device group to a destination. */
  removeDeviceGroupMessageDestination: Scalars['Boolean']['output'];
  removeIssueSubscribers: Issue;
  /** Reopens a resolved issue (already_open otherwise); silent leaves no timeline message. */
  reopenIssue: Issue;
  /** Gives the key a new secret; the old one stops working at once. */
  resetApiKey: ApiKeySecret;
  /** Resolves an open issue (already_resolved otherwise); silent leaves no timeline message. */
  resolveIssue: Issue;
  /** Delivery goes on from where it stopped, or from offset, a stream position the health shows (replay). */
  resumeMessageDestination: MessageDestination;
  /** Revokes an open invite; its link stops working (Ops). */
  revokeUserInvite: Scalars['Boolean']['output'];
  /** As PUT /v1/parameters. */
  setParameters: SteeringResult;
  /** As PUT /v2/schedule: replaces the schedule of the assets or controllers with these identifiers. */
  setSchedule: SteeringResult;
  /** The caller follows the issue: its messages are mailed to them. */
  subscribeToIssue: Issue;
  unlinkDeviceGroupApiKey: Scalars['Boolean']['output'];
  unsubscribeFromIssue: Issue;
  updateApiKey: Scalars['Boolean']['output'];
  /** As PUT /console-admin/v1/billing-legal-entity/{hashId}. */
  updateBillingLegalEntity: BillingLegalEntity;
  /** As PUT /console-admin/v1/device/{hashId} (Ops and Developer). */
  updateDevice: Device;
  updateDeviceGroup: DeviceGroup;
  updateDeviceGroupMessageDestination: DeviceGroupMessageDestination;
  /** As PUT /console-admin/v1/device/{hashId}/invoice-details (Ops and Sales). */
  updateDeviceInvoiceDetails: Device;
  /** As PUT /console/v1/device/{hashId}. */
  updateDeviceOutageContacts: Device;
  updateIssue: Issue;
  /** Edits an internal message (only_internal_message_updates for any other). */
  updateIssueMessage: IssueMessage;
  /** Changes what is given; the type never changes (changing_type), a secret left out is kept. */
  updateMessageDestination: MessageDestination;
  updateOrganization: Organization;
  updatePartnership: Partnership;
  /** Changes a user's name, email, rights or organisation; staff rights and staff users need Admin. */
  updateUser: User;
};


export type MutationAddBillingChargeArgs = {
  input: BillingChargeCreateInput;
};


export type MutationAddDeviceGroupMessageDestinationArgs = {
  input: DeviceGroupMessageDestinationCreateInput;
};


export type MutationAddIssueMessageArgs = {
  input: IssueMessageInput;
};


export type MutationAddIssueSubscribersArgs = {
  hashId: Scalars['ID']['input'];
  userHashIds: Array<Scalars['ID']['input']>;
};


export type MutationCreateApiKeyArgs = {
  input: ApiKeyCreateInput;
};


export type MutationCreateBillingLegalEntityArgs = {
  input: BillingLegalEntityCreateInput;
};


export type MutationCreateDeviceGroupArgs = {
  input: DeviceGroupCreateInput;
};


export type MutationCreateMessageDestinationArgs = {
  input: MessageDestinationCreateInput;
};


export type MutationCreateOrganizationArgs = {
  input: OrganizationCreateInput;
};


export type MutationCreatePartnershipArgs = {
  input: PartnershipCreateInput;
};


export type MutationDeleteApiKeyArgs = {
  hashId: Scalars['ID']['input'];
};


export type MutationDeleteBillingLegalEntityArgs = {
  hashId: Scalars['ID']['input'];
};


export type MutationDeleteDeviceGroupArgs = {
  hashId: Scalars['ID']['input'];
};


export type MutationDeletePartnershipArgs = {
  hashId: Scalars['ID']['input'];
};


export type MutationInviteUsersArgs = {
  input: UserInviteInput;
};


export type MutationLinkDeviceGroupApiKeyArgs = {
  apiKeyHashId: Scalars['ID']['input'];
  deviceGroupHashId: Scalars['ID']['input'];
};


export type MutationLoginArgs = {
  input: LoginInput;
};


export type MutationRefundBillingChargeArgs = {
  hashId: Scalars['ID']['input'];
  input: InputMaybe<BillingChargeRefundInput>;
};


export type MutationRemoveBillingChargeArgs = {
  hashId: Scalars['ID']['input'];
};


export type MutationRemoveDeviceGroupMessageDestinationArgs = {
  hashId: Scalars['ID']['input'];
};


export type MutationRemoveIssueSubscribersArgs = {
  hashId: Scalars['ID']['input'];
  userHashIds: Array<Scalars['ID']['input']>;
};


export type MutationReopenIssueArgs = {
  hashId: Scalars['ID']['input'];
  silent: InputMaybe<Scalars['Boolean']['input']>;
};


export type MutationResetApiKeyArgs = {
  hashId: Scalars['ID']['input'];
};


export type MutationResolveIssueArgs = {
  hashId: Scalars['ID']['input'];
  silent: InputMaybe<Scalars['Boolean']['input']>;
};


export type MutationResumeMessageDestinationArgs = {
  hashId: Scalars['ID']['input'];
  offset: InputMaybe<Scalars['Float']['input']>;
};


export type MutationRevokeUserInviteArgs = {
  hashId: Scalars['ID']['input'];
};


export type MutationSetParametersArgs = {
  input: ParametersInput;
};


export type MutationSetScheduleArgs = {
  input: ScheduleInput;
};


export type MutationSubscribeToIssueArgs = {
  hashId: Scalars['ID']['input'];
};


export type MutationUnlinkDeviceGroupApiKeyArgs = {
  apiKeyHashId: Scalars['ID']['input'];
  deviceGroupHashId: Scalars['ID']['input'];
};


export type MutationUnsubscribeFromIssueArgs = {
  hashId: Scalars['ID']['input'];
};


export type MutationUpdateApiKeyArgs = {
  hashId: Scalars['ID']['input'];
  input: ApiKeyUpdateInput;
};


export type MutationUpdateBillingLegalEntityArgs = {
  hashId: Scalars['ID']['input'];
  input: BillingLegalEntityUpdateInput;
};


export type MutationUpdateDeviceArgs = {
  hashId: Scalars['ID']['input'];
  input: DeviceUpdateInput;
};


export type MutationUpdateDeviceGroupArgs = {
  hashId: Scalars['ID']['input'];
  input: DeviceGroupUpdateInput;
};


export type MutationUpdateDeviceGroupMessageDestinationArgs = {
  hashId: Scalars['ID']['input'];
  input: DeviceGroupMessageDestinationUpdateInput;
};


export type MutationUpdateDeviceInvoiceDetailsArgs = {
  hashId: Scalars['ID']['input'];
  input: DeviceInvoiceDetailsInput;
};


export type MutationUpdateDeviceOutageContactsArgs = {
  hashId: Scalars['ID']['input'];
  input: DeviceOutageContactsInput;
};


export type MutationUpdateIssueArgs = {
  hashId: Scalars['ID']['input'];
  input: IssueUpdateInput;
};


export type MutationUpdateIssueMessageArgs = {
  hashId: Scalars['ID']['input'];
  message: Scalars['String']['input'];
};


export type MutationUpdateMessageDestinationArgs = {
  hashId: Scalars['ID']['input'];
  input: MessageDestinationUpdateInput;
};


export type MutationUpdateOrganizationArgs = {
  hashId: Scalars['ID']['input'];
  input: OrganizationUpdateInput;
};


export type MutationUpdatePartnershipArgs = {
  hashId: Scalars['ID']['input'];
  input: PartnershipUpdateInput;
};


export type MutationUpdateUserArgs = {
  hashId: Scalars['ID']['input'];
  input: UserUpdateInput;
};

/** Someone outside every user list who takes part (a mail's sender). */
export type NonUserParticipant = {
  __typename?: 'NonUserParticipant';
  email: Scalars['String']['output'];
  name: Maybe<Scalars['String']['output']>;
};

/** A customer organisation, or the provider itself. */
export type Organization = {
  __typename?: 'Organization';
  createdAt: Scalars['DateTimeISO']['output'];
  hashId: Scalars['ID']['output'];
  invoiceCustomerReference: Maybe<Scalars['String']['output']>;
  invoiceFrequency: InvoiceFrequency;
  isProvider: Scalars['Boolean']['output'];
  name: Scalars['String']['output'];
  /** Usage pricing ({ type: "usage", tiers, rates, expiresAt }) or { type: "legacy" }. */
  pricing: Maybe<Scalars['JSON']['output']>;
  requireCustomerReferencePerDevice: Scalars['Boolean']['output'];
  requireLegalEntityPerDevice: Scalars['Boolean']['output'];
  subscriptionDefaults: Maybe<SubscriptionDefaults>;
  /** Null only for the provider organisation. */
  type: Maybe<OrganizationType>;
  updatedAt: Scalars['DateTimeISO']['output'];
};

export type OrganizationCreateInput = {
  invoiceCustomerReference?: InputMaybe<Scalars['String']['input']>;
  /** MONTHLY when not given. */
  invoiceFrequency?: InputMaybe<InvoiceFrequency>;
  /** 1 to 100 characters. */
  name: Scalars['String']['input'];
  pricing?: InputMaybe<Scalars['JSON']['input']>;
  requireCustomerReferencePerDevice?: InputMaybe<Scalars['Boolean']['input']>;
  requireLegalEntityPerDevice?: InputMaybe<Scalars['Boolean']['input']>;
  subscriptionDefaults?: InputMaybe<SubscriptionDefaultsInput>;
  type: OrganizationType;
};

/** A page of organisations, newest first. */
export type OrganizationPage = {
  __typename?: 'OrganizationPage';
  /** The offset of the next page; null on the last page. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<Organization>;
};

/** What a customer organisation does. */
export type OrganizationType =
  | 'ASSET_OWNER'
  | 'DATA_RECEIVER'
  | 'ENERGY_TRADER'
  | 'INSTALLER';

/** Only the fields given change; null clears a nullable field. */
export type OrganizationUpdateInput = {
  invoiceCustomerReference?: InputMaybe<Scalars['String']['input']>;
  invoiceFrequency?: InputMaybe<InvoiceFrequency>;
  name?: InputMaybe<Scalars['String']['input']>;
  pricing?: InputMaybe<Scalars['JSON']['input']>;
  requireCustomerReferencePerDevice?: InputMaybe<Scalars['Boolean']['input']>;
  requireLegalEntityPerDevice?: InputMaybe<Scalars['Boolean']['input']>;
  subscriptionDefaults?: InputMaybe<SubscriptionDefaultsInput>;
  type?: InputMaybe<OrganizationType>;
};

/** As the body of PUT /v1/parameters. */
export type ParametersInput = {
  assetIdentifiers: Array<Scalars['String']['input']>;
  /** { type: sagerFurnace | demoBattery | hedno, ... } */
  parameters: Scalars['JSON']['input'];
};

/** An owner organisation shares all or some of its devices with a partner. */
export type Partnership = {
  __typename?: 'Partnership';
  allDevices: Scalars['Boolean']['output'];
  description: Scalars['String']['output'];
  deviceCount: Scalars['Int']['output'];
  deviceHashIds: Array<Scalars['ID']['output']>;
  /** The listed devices with their names; empty when allDevices. */
  devices: Array<PartnershipDevice>;
  hashId: Scalars['ID']['output'];
  owner: Organization;
  partner: Organization;
  role: PartnershipRole;
};

export type PartnershipCreateInput = {
  allDevices?: InputMaybe<Scalars['Boolean']['input']>;
  description?: InputMaybe<Scalars['String']['input']>;
  deviceHashIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  ownerOrganizationHashId: Scalars['ID']['input'];
  partnerOrganizationHashId: Scalars['ID']['input'];
  role: PartnershipRole;
};

/** A device that a partnership lists: its hash id and name. */
export type PartnershipDevice = {
  __typename?: 'PartnershipDevice';
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

/** Which side of a partnership the caller's organisation is on. */
export type PartnershipKind =
  | 'ACCEPTED'
  | 'OWN';

export type PartnershipPage = {
  __typename?: 'PartnershipPage';
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<Partnership>;
};

/** What a partner may do with shared devices. */
export type PartnershipRole =
  | 'OPERATOR'
  | 'VIEWER';

export type PartnershipUpdateInput = {
  allDevices?: InputMaybe<Scalars['Boolean']['input']>;
  description?: InputMaybe<Scalars['String']['input']>;
  deviceHashIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  role?: InputMaybe<PartnershipRole>;
};

export type Query = {
  __typename?: 'Query';
  apiKey: ApiKeyDetail;
  apiKeys: ApiKeyPage;
  /** The audit log, newest first (staff only). */
  auditLog: AuditLogPage;
  billingCharge: BillingCharge;
  /** Charges newest first, by organisation, device, invoice, invoiced or not, and text. */
  billingCharges: BillingChargePage;
  /** An organisation's monthly forecast: its devices billed by usage at its pricing now. */
  billingForecast: BillingForecast;
  billingInvoice: BillingInvoice;
  /** Invoices newest first, by organisation and public id (filter). */
  billingInvoices: BillingInvoicePage;
  /** Legal entities newest first, of one organisation or all, by company name. */
  billingLegalEntities: BillingLegalEntityPage;
  billingLegalEntity: BillingLegalEntity;
  device: Device;
  /** How many devices the actor may see: in all, operational and inactive. */
  deviceCount: DeviceCount;
  deviceGroup: DeviceGroup;
  deviceGroupMessageDestination: DeviceGroupMessageDestination;
  /** A device group's forwardings, a destination's, or both's, newest first. */
  deviceGroupMessageDestinations: DeviceGroupMessageDestinationPage;
  deviceGroups: DeviceGroupPage;
  /** A device's history of one observation field, aggregated server-side into about `points` buckets (from raw reports, or minute or hourly roll-ups, as the bucket size needs). */
  deviceMeasurements: Array<MeasurementPoint>;
  /** Staff: every device, newest first, with the admin filters. Customers: the devices they may see, with status and a count. */
  devices: DevicePage;
  issue: Issue;
  /** The open issues the caller sees, those assigned to them, and to their organisation. */
  issueCount: IssueCount;
  /** The issue's messages and audit entries merged, oldest first (a customer never sees internal messages). */
  issueTimeline: IssueTimelinePage;
  /** Staff: every issue with the admin filters and sorts. Customers: the issues they may see. */
  issues: IssuePage;
  /** The one acting on this request; null when nobody is signed in. */
  me: Maybe<Actor>;
  messageDestination: MessageDestination;
  /** Destinations newest first; a customer sees only their organisation's. */
  messageDestinations: MessageDestinationPage;
  /** One organisation: staff see any, customers their own. */
  organization: Organization;
  /** Organisations, newest first (staff only). */
  organizations: OrganizationPage;
  /** Staff: every partnership, with filters. Customers: their own and accepted ones. */
  partnerships: PartnershipPage;
  /** One user: staff see any, customers those of their organisation. */
  user: User;
  /** Open invites, newest first: staff see every organisation (or one), customers their own. */
  userInvites: UserInvitePage;
  /** Users, newest first: staff across organisations, customers within their own. */
  users: UserPage;
};


export type QueryApiKeyArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryApiKeysArgs = {
  filter: InputMaybe<Scalars['String']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  organization: InputMaybe<Scalars['String']['input']>;
  organizationHashId: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
};


export type QueryAuditLogArgs = {
  objectHashId: InputMaybe<Scalars['ID']['input']>;
  objectType: InputMaybe<AuditObjectType>;
  offset: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
  transactionIdentifier: InputMaybe<Scalars['String']['input']>;
};


export type QueryBillingChargeArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryBillingChargesArgs = {
  deviceHashId: InputMaybe<Scalars['ID']['input']>;
  filter: InputMaybe<Scalars['String']['input']>;
  invoiceHashId: InputMaybe<Scalars['ID']['input']>;
  invoiced: InputMaybe<Scalars['Boolean']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  organizationHashId: InputMaybe<Scalars['ID']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
};


export type QueryBillingForecastArgs = {
  organizationHashId: Scalars['ID']['input'];
};


export type QueryBillingInvoiceArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryBillingInvoicesArgs = {
  filter: InputMaybe<Scalars['String']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  organizationHashId: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
};


export type QueryBillingLegalEntitiesArgs = {
  filter: InputMaybe<Scalars['String']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  organizationHashId: InputMaybe<Scalars['ID']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
};


export type QueryBillingLegalEntityArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryDeviceArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryDeviceGroupArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryDeviceGroupMessageDestinationArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryDeviceGroupMessageDestinationsArgs = {
  deviceGroupHashId: InputMaybe<Scalars['String']['input']>;
  messageDestinationHashId: InputMaybe<Scalars['String']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
};


export type QueryDeviceGroupsArgs = {
  filter: InputMaybe<Scalars['String']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  organizationHashId: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
};


export type QueryDeviceMeasurementsArgs = {
  assetIndex: InputMaybe<Scalars['Int']['input']>;
  controllerIndex: InputMaybe<Scalars['Int']['input']>;
  field: Scalars['String']['input'];
  from: Scalars['DateTimeISO']['input'];
  hashId: Scalars['ID']['input'];
  points?: InputMaybe<Scalars['Int']['input']>;
  reportType: Scalars['String']['input'];
  to: Scalars['DateTimeISO']['input'];
};


export type QueryDevicesArgs = {
  activeControlIdentifier: InputMaybe<Scalars['String']['input']>;
  activeControlType: InputMaybe<Scalars['String']['input']>;
  assetIdentifier: InputMaybe<Scalars['String']['input']>;
  assetType: InputMaybe<Scalars['String']['input']>;
  deviceGroupHashId: InputMaybe<Scalars['String']['input']>;
  filter: InputMaybe<Scalars['String']['input']>;
  hashId: InputMaybe<Scalars['ID']['input']>;
  iccid: InputMaybe<Scalars['String']['input']>;
  imsi: InputMaybe<Scalars['String']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  organizationHashId: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
  status: InputMaybe<DeviceStatus>;
};


export type QueryIssueArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryIssueTimelineArgs = {
  hashId: Scalars['ID']['input'];
  offset: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
};


export type QueryIssuesArgs = {
  assignee: InputMaybe<Scalars['String']['input']>;
  deviceHashId: InputMaybe<Scalars['ID']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  owner: InputMaybe<IssueOwner>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
  sortBy: InputMaybe<IssueSort>;
  status: InputMaybe<IssueStatus>;
  subscriber: InputMaybe<Scalars['String']['input']>;
};


export type QueryMessageDestinationArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryMessageDestinationsArgs = {
  filter: InputMaybe<Scalars['String']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  organizationHashId: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
  state: InputMaybe<DestinationState>;
  type: InputMaybe<DestinationKind>;
};


export type QueryOrganizationArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryOrganizationsArgs = {
  filter: InputMaybe<Scalars['String']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
  type: InputMaybe<OrganizationType>;
};


export type QueryPartnershipsArgs = {
  filter: InputMaybe<Scalars['String']['input']>;
  kind: InputMaybe<PartnershipKind>;
  offset: InputMaybe<Scalars['String']['input']>;
  organizationHashId: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
};


export type QueryUserArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryUserInvitesArgs = {
  filter: InputMaybe<Scalars['String']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  organizationHashId: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
};


export type QueryUsersArgs = {
  filter: InputMaybe<Scalars['String']['input']>;
  hashIds: InputMaybe<Array<Scalars['ID']['input']>>;
  offset: InputMaybe<Scalars['String']['input']>;
  organizationHashId: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
};

/** The threading headers of the issue's mail. */
export type ReplyHeaders = {
  __typename?: 'ReplyHeaders';
  messageId: Maybe<Scalars['String']['output']>;
  references: Array<Scalars['String']['output']>;
};

/** A right an actor holds. */
export type Right =
  | 'CUSTOMER_READ'
  | 'CUSTOMER_WRITE'
  | 'GRIDPORT_ADMIN'
  | 'GRIDPORT_DEVELOPER'
  | 'GRIDPORT_EMPLOYEE'
  | 'GRIDPORT_OPS'
  | 'GRIDPORT_SALES';

/** As the body of PUT /v2/schedule. */
export type ScheduleInput = {
  assetIdentifiers?: InputMaybe<Array<Scalars['String']['input']>>;
  controllerIdentifiers?: InputMaybe<Array<Scalars['String']['input']>>;
  /** At most 192 items: { startAt, endAt, command: { type, ... } }. */
  schedule: Array<Scalars['JSON']['input']>;
};

/** What a schedule or parameter write did. */
export type SteeringResult = {
  __typename?: 'SteeringResult';
  deviceHashIds: Array<Scalars['ID']['output']>;
  /** Commands that had ended within the last 24 hours, left out. */
  droppedCommands: Scalars['Int']['output'];
  /** W of dangerous-action allowance left, when the write touched devices in production. */
  remainingAllowance: Maybe<Scalars['Float']['output']>;
};

export type Subscription = {
  __typename?: 'Subscription';
  /** The device's gateway connecting and going away. */
  devicePresence: DevicePresenceEvent;
  /** The device's reports as they are stored, optionally of some types only. */
  deviceReports: DeviceReportEvent;
  /** The items added to the issue's timeline: after the item whose cursor is given as after, else from now on (a customer never gets internal messages). */
  issueTimeline: IssueTimelineItem;
};


export type SubscriptionDevicePresenceArgs = {
  hashId: Scalars['ID']['input'];
};


export type SubscriptionDeviceReportsArgs = {
  hashId: Scalars['ID']['input'];
  types: InputMaybe<Array<Scalars['String']['input']>>;
};


export type SubscriptionIssueTimelineArgs = {
  after: InputMaybe<Scalars['String']['input']>;
  hashId: Scalars['ID']['input'];
};

/** The subscription terms new devices of an organisation start with. */
export type SubscriptionDefaults = {
  __typename?: 'SubscriptionDefaults';
  /** Months charged per period. */
  chargePeriod: Scalars['Int']['output'];
  /** Months a subscription runs. */
  runtime: Scalars['Int']['output'];
};

export type SubscriptionDefaultsInput = {
  chargePeriod: Scalars['Int']['input'];
  runtime: Scalars['Int']['input'];
};

/** A person who signs in to the console. */
export type User = {
  __typename?: 'User';
  email: Scalars['String']['output'];
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  organization: Organization;
  /** gridport.admin, gridport.ops, gridport.developer, gridport.sales, gridport.employee, customer.read, customer.write */
  rights: Array<Scalars['String']['output']>;
};

/** An open invite: the invitee becomes a user of the organisation with the given rights. */
export type UserInvite = {
  __typename?: 'UserInvite';
  email: Scalars['String']['output'];
  /** ISO 8601; an invite lasts 7 days. */
  expiresAt: Scalars['String']['output'];
  hashId: Scalars['ID']['output'];
  organization: UserInviteOrganization;
  rights: Array<Right>;
};

export type UserInviteInput = {
  /** 1 to 20 emails. */
  emails: Array<Scalars['String']['input']>;
  organizationHashId: Scalars['ID']['input'];
  /** customer.read for a customer organisation, gridport.employee for Gridport, when not given. */
  rights?: InputMaybe<Array<Right>>;
};

/** The organisation an invite is into. */
export type UserInviteOrganization = {
  __typename?: 'UserInviteOrganization';
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

export type UserInvitePage = {
  __typename?: 'UserInvitePage';
  /** Pass as offset for the next page; null on the last. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<UserInvite>;
};

export type UserPage = {
  __typename?: 'UserPage';
  /** Pass as offset for the next page; null on the last. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<User>;
};

/** Only the fields given change; rights, when given, replace the user’s rights. */
export type UserUpdateInput = {
  email?: InputMaybe<Scalars['String']['input']>;
  /** 1 to 255 characters. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** Moving a user to another organisation signs them out everywhere. */
  organizationHashId?: InputMaybe<Scalars['ID']['input']>;
  /** Staff rights in the provider organisation, customer rights elsewhere. */
  rights?: InputMaybe<Array<Right>>;
};
