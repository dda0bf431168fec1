import type { DeviceBillingUsage } from './billing';
import * as yup from 'yup';
import { plausibleDate } from './dates';
import { integer, numberLimits } from './numbers';
import { filterQuery, pageSchema, paginationQuery } from './pagination';
import { emailSchema } from './user';
import type { NamedReference, UserReference } from './references';

/** A device's cloud API level (device-model.md section 4): schedules and parameters need READ_WRITE. */
export const cloudApiLevels = ['OFF', 'READ', 'READ_WRITE'] as const;
export type CloudApiLevel = (typeof cloudApiLevels)[number];

/** What a partner may do with shared devices: see them, or also send schedules and parameters. */
export const partnershipRoles = ['viewer', 'operator'] as const;
export type PartnershipRole = (typeof partnershipRoles)[number];

/** Shown as a device's identifier until it first connects (console.md section 3). */
export const identifierPlaceholder = 'will be generated when the device is connected';

/** The customer device list's status filter (console.md section 7). */
export const deviceStatuses = ['operational', 'operational-with-issues', 'non-operational'] as const;
export type DeviceStatus = (typeof deviceStatuses)[number];

export const fleetLimits = {
  deviceNameLength: 255,
  deviceGroupNameLength: 255,
  outageContacts: 50,
  partnershipDescriptionLength: 255,
  /** Most device hash ids one partnership lists. */
  partnershipDevices: 10_000,
} as const;

const hashId = yup.string().trim().min(1).max(64);
const hashIds = yup.array(hashId.required());
const emails = yup.array(emailSchema.required()).max(fleetLimits.outageContacts);

/** Monitor settings (device-model.md section 3.11): thresholds 0-100 %, 1-10 bad connections, disconnect interval at most 24 hours. */
export const monitorSettingsSchema = yup
  .object({
    thresholdPercentage: yup.number().min(0).max(100).optional(),
    acceptableBadConnectionCount: yup.number().integer().min(1).max(10).optional(),
    disconnectIntervalSeconds: yup
      .number()
      .integer()
      .min(1)
      .max(24 * 60 * 60)
      .optional(),
    disabledMonitors: yup.array(yup.string().trim().min(1).max(100).required()).max(100).optional(),
  })
  .exact();

const subscriptionTerms = {
  usage: yup.boolean().required(),
  chargePeriod: integer().min(1).max(numberLimits.subscriptionMonthsMax).required(),
  runtime: integer().min(1).max(numberLimits.subscriptionMonthsMax).required(),
};

/** A device's subscription (console.md section 3): billed by usage or not, charge period and runtime in months, what follows expiry. */
export const subscriptionSchema = yup
  .object({
    ...subscriptionTerms,
    afterExpiration: yup.object(subscriptionTerms).exact().nullable().default(null),
    startAt: plausibleDate().required(),
  })
  .exact();

/** GET /console-admin/v1/device: every filter of console.md section 7. */
export const adminDeviceListQuerySchema = yup
  .object({
    ...paginationQuery,
    filter: filterQuery,
    hashId: hashId.optional(),
    /** A group's hash id, or `any` (in some group) or `none` (in no group). */
    deviceGroupHashId: hashId.optional(),
    organizationHashId: hashId.optional(),
    assetType: yup.string().trim().max(64).optional(),
    assetIdentifier: yup.string().trim().max(255).optional(),
    iccid: yup.string().trim().max(32).optional(),
    imsi: yup.string().trim().max(32).optional(),
    activeControlType: yup.string().trim().max(64).optional(),
    activeControlIdentifier: yup.string().trim().max(255).optional(),
  })
  .exact();

/** PUT /console-admin/v1/device/{hashId}: only the fields given change. */
export const deviceUpdateSchema = yup
  .object({
    name: yup.string().trim().min(1).max(fleetLimits.deviceNameLength).optional(),
    organizationHashId: hashId.nullable().optional(),
    deviceGroupHashId: hashId.nullable().optional(),
    /** A configuration (version 2); checked against contracts/device, refused as invalid_config with every issue. */
    config: yup.mixed<Record<string, unknown>>().nullable().optional(),
    balenaUuid: yup.string().trim().max(64).nullable().optional(),
    iccid: yup.string().trim().max(32).nullable().optional(),
    imsi: yup.string().trim().max(32).nullable().optional(),
    monitorSettings: monitorSettingsSchema.optional().default(undefined),
    subscription: subscriptionSchema.nullable().optional().default(undefined),
    monitorConnectivity: yup.boolean().optional(),
    exportMessages: yup.boolean().optional(),
    cloudApi: yup.string().oneOf(cloudApiLevels).optional(),
    openForProvisioning: yup.boolean().optional(),
    outageEmails: emails.optional().default(undefined),
    outageUsersHashIds: hashIds.max(fleetLimits.outageContacts).optional().default(undefined),
    isExposedToCustomer: yup.boolean().optional(),
    inProduction: yup.boolean().optional(),
  })
  .exact();

/** Properties a device in production keeps until it is taken out of production (403 in_production). */
export const productionLockedFields = ['organizationHashId', 'balenaUuid', 'openForProvisioning', 'cloudApi'] as const;

/** PUT /console-admin/v1/device/{hashId}/invoice-details (Ops and Sales). */
export const deviceInvoiceDetailsSchema = yup
  .object({
    invoiceCustomerReference: yup.string().trim().max(255).nullable().optional(),
    subscription: subscriptionSchema.nullable().optional().default(undefined),
    subscriptionChargedUntil: plausibleDate().nullable().optional(),
    /** The legal entity this device's charges are invoiced to; null: the organisation's default (billing_legal_entity_must_be_null without an organisation). */
    billingLegalEntityHashId: yup.string().trim().max(64).nullable().optional(),
  })
  .exact();

/** GET /console/v1/device */
export const customerDeviceListQuerySchema = yup
  .object({ ...paginationQuery, filter: filterQuery, status: yup.string().oneOf(deviceStatuses).optional() })
  .exact();

/** PUT /console/v1/device/{hashId}: a customer adds or removes outage contacts. */
export const customerDeviceUpdateSchema = yup
  .object({
    outageEmails: emails.default([]),
    removedOutageEmails: emails.default([]),
    outageUsersHashIds: hashIds.max(fleetLimits.outageContacts).default([]),
    removedOutageUsersHashIds: hashIds.max(fleetLimits.outageContacts).default([]),
  })
  .exact();

/** `gridport device ship`: a device record open for provisioning. */
export const deviceShipSchema = yup
  .object({
    organizationHashId: hashId.required(),
    name: yup.string().trim().min(1).max(fleetLimits.deviceNameLength).required(),
    deviceGroupHashId: hashId.optional(),
  })
  .exact();

export type AdminDeviceListQuery = yup.InferType<typeof adminDeviceListQuerySchema>;
export type DeviceUpdate = yup.InferType<typeof deviceUpdateSchema>;
export type DeviceInvoiceDetails = yup.InferType<typeof deviceInvoiceDetailsSchema>;
export type CustomerDeviceListQuery = yup.InferType<typeof customerDeviceListQuerySchema>;
export type CustomerDeviceUpdate = yup.InferType<typeof customerDeviceUpdateSchema>;
export type DeviceShip = yup.InferType<typeof deviceShipSchema>;
export type MonitorSettings = yup.InferType<typeof monitorSettingsSchema>;
export type Subscription = yup.InferType<typeof subscriptionSchema>;

/** An asset of a device as the console lists it (console.md section 3). */
export interface DeviceAssetView {
  index: number;
  category: string | null;
  type: string;
  identifier: string | null;
  nominalActivePower: number | null;
  schedule: unknown[];
}

export interface DeviceControllerView {
  index: number;
  type: string;
  identifier: string | null;
  schedule: unknown[];
}

/** A partnership as a device shows it. */
export interface DevicePartnershipView {
  hashId: string;
  role: PartnershipRole;
  description: string;
  allDevices: boolean;
  owner: NamedReference;
  partner: NamedReference;
}

/** A device's gateway session; none while it is offline. */
export interface DeviceSessionView {
  /** eth0, eth1 or cellular. */
  networkInterface: string | null;
}

/**
 * How many devices a caller may see (GET /console/v1/device/count, GraphQL deviceCount): in all,
 * and split as the status filter splits them: operational (online, no open issue), operational
 * with issues (online, with an open issue that is not internal) and inactive (offline).
 */
export const deviceCountViewSchema = yup.object({
  totalCount: yup.number().required(),
  operationalCount: yup.number().required(),
  operationalWithIssuesCount: yup.number().required(),
  inactiveCount: yup.number().required(),
});
export type DeviceCountView = yup.InferType<typeof deviceCountViewSchema>;

/** A device with every field of console.md section 3. */
export interface DeviceView {
  hashId: string;
  deviceGroupHashId: string | null;
  organizationHashId: string | null;
  organizationName: string | null;
  identifier: string;
  balenaUuid: string | null;
  balenaOsVersion: string | null;
  version: string | null;
  iccid: string | null;
  imsi: string | null;
  name: string;
  config: Record<string, unknown> | null;
  nominalActivePowerSum: number;
  monitorSettings: Record<string, unknown>;
  subscription: Record<string, unknown> | null;
  subscriptionChargedUntil: string | null;
  invoiceCustomerReference: string | null;
  /** The legal entity the device's charges are invoiced to (named by its company name); null: its organisation's default. Staff only. */
  billingLegalEntity: NamedReference | null;
  /** The billing usage column (docs/billing.md): staff only, null for customers. */
  billingUsage: DeviceBillingUsage | null;
  monitorConnectivity: boolean;
  exportMessages: boolean;
  cloudApi: CloudApiLevel;
  openForProvisioning: boolean;
  outageEmails: string[];
  outageUsers: UserReference[];
  reportingInterval: number | null;
  activeSession: DeviceSessionView | null;
  isOnline: boolean;
  isExposedToCustomer: boolean;
  inProduction: boolean;
  assets: DeviceAssetView[];
  controllers: DeviceControllerView[];
  partnerships: DevicePartnershipView[];
}

const nullableString = yup.string().nullable().defined();

export const deviceViewSchema = yup.object({
  hashId: yup.string().required(),
  deviceGroupHashId: nullableString,
  organizationHashId: nullableString,
  organizationName: nullableString,
  identifier: yup.string().required(),
  name: yup.string().required(),
  config: yup.mixed().nullable(),
  cloudApi: yup.string().oneOf(cloudApiLevels).required(),
  inProduction: yup.boolean().required(),
  isExposedToCustomer: yup.boolean().required(),
  assets: yup.array(yup.mixed()).required(),
});

export const devicePageSchema = pageSchema(deviceViewSchema);

/** GET /v2/device: an opaque cursor and a page size. */
export const v2DeviceListQuerySchema = yup.object({ ...paginationQuery }).exact();
export type V2DeviceListQuery = yup.InferType<typeof v2DeviceListQuerySchema>;

/** A device as GET /v2/device lists it (api.md section 3, "Device list item"). */
export interface V2DeviceView {
  hashId: string;
  name: string;
  cloudApi: Exclude<CloudApiLevel, 'OFF'>;
  reportingInterval: number | null;
  dataForwarding: boolean;
  inProduction: boolean;
  isOnline: boolean;
  assets: { type: string; category: string | null; identifier: string | null; nominalActivePower: number | null; schedule: unknown[] }[];
  controllers: { type: string; identifier: string | null; schedule: unknown[] }[];
}

export const v2DevicePageSchema = yup.object({
  devices: yup.array(yup.object({ hashId: yup.string().required(), name: yup.string().required(), cloudApi: yup.string().required() })).required(),
  nextPageOffset: yup.string().nullable().defined(),
});

/** What a schedule or parameter write did: the devices it reached, the commands it dropped, and the dangerous-action allowance left. */
export interface SteeringResult {
  deviceHashIds: string[];
  droppedCommands: number;
  /** In W, when the write touched devices in production (spec README, "Dangerous actions"). */
  remainingAllowance: number | null;
}

export const steeringResultSchema = yup.object({
  deviceHashIds: yup.array(yup.string().required()).required(),
  droppedCommands: yup.number().required(),
  remainingAllowance: yup.number().nullable().defined(),
});
