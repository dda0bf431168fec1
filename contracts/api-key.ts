import * as yup from 'yup';
import { limits } from './limits';
import { filterQuery, pageSchema, paginationQuery } from './pagination';
import { rights, type Right } from './rights';
import type { UserReference } from './references';

/** Values of the api-key list's organisation filter (spec README, "Name"). */
export const apiKeyOrganizationFilters = ['gridport', 'customer'] as const;
export type ApiKeyOrganizationFilter = (typeof apiKeyOrganizationFilters)[number];

const ipv4Cidr = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}\/(3[0-2]|[12]?\d)$/;

/** An IPv4 range in CIDR notation with a prefix length of at most 32 (api.md section 5). */
export const ipv4CidrSchema = yup.string().trim().matches(ipv4Cidr, '${path} must be an IPv4 CIDR range such as 203.0.113.0/24');

const name = yup.string().trim().min(1).max(limits.apiKeyNameLength);
const ipRanges = yup.array(ipv4CidrSchema.required()).max(limits.apiKeyIpRanges);
/** A hash id as it appears in a path or query: letters and digits. */
const hashId = yup
  .string()
  .trim()
  .matches(/^[A-Za-z0-9]{1,64}$/, '${path} must be a hash id');
const pemPublicKey = /^-----BEGIN PUBLIC KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END PUBLIC KEY-----\s*$/;
/**
 * An SPKI public key in PEM (RSA, or EC P-256), with which a client signs short-lived JWTs instead
 * of sending the secret. The service checks that the key parses.
 */
const publicKey = yup.string().trim().max(limits.apiKeyPublicKeyLength).matches(pemPublicKey, '${path} must be a PEM public key (-----BEGIN PUBLIC KEY-----)');

/** POST /v1/api-key (api.md section 7). */
export const apiKeyCreateSchema = yup
  .object({
    organizationHashId: hashId.required(),
    name: name.required(),
    ipRanges: ipRanges.default([]),
    publicKey: publicKey.nullable().default(null),
  })
  .exact();

/** PUT /v1/api-key/:hashId: every field optional, only those given change. */
export const apiKeyUpdateSchema = yup
  .object({
    name: name.optional(),
    ipRanges: ipRanges.optional().default(undefined),
    publicKey: publicKey.nullable().optional(),
  })
  .exact();

/**
 * GET /v1/api-key. deviceGroupHashId lists the keys linked to that device group;
 * excludeDeviceGroupHashId lists the keys not linked to it (the console offers those to add).
 * A group hash id that does not decode is not_found.
 */
export const apiKeyListQuerySchema = yup
  .object({
    ...paginationQuery,
    filter: filterQuery,
    organizationHashId: hashId.optional(),
    organization: yup.string().oneOf(apiKeyOrganizationFilters).optional(),
    deviceGroupHashId: hashId.optional(),
    excludeDeviceGroupHashId: hashId.optional(),
  })
  .exact();

export type ApiKeyCreate = yup.InferType<typeof apiKeyCreateSchema>;
export type ApiKeyUpdate = yup.InferType<typeof apiKeyUpdateSchema>;
export type ApiKeyListQuery = yup.InferType<typeof apiKeyListQuerySchema>;

/** The user who made a key. */
export type ApiKeyUserView = UserReference;

/** GET /v1/api-key/:hashId. */
export interface ApiKeyView {
  hashId: string;
  name: string;
  ipRanges: string[];
  rights: Right[];
  user: ApiKeyUserView | null;
}

/** A row of GET /v1/api-key. */
export interface ApiKeyRowView extends ApiKeyView {
  organizationHashId: string;
  organizationName: string;
}

/** A key's secret, shown once: at creation and at reset. */
export interface ApiKeySecretView {
  hashId: string;
  apiKey: string;
}

const userView = yup.object({ hashId: yup.string().required(), email: yup.string().required(), name: yup.string().required() }).nullable().defined();

export const apiKeyViewSchema = yup.object({
  hashId: yup.string().required(),
  name: yup.string().required(),
  ipRanges: yup.array(yup.string().required()).required(),
  rights: yup.array(yup.string().oneOf(rights).required()).required(),
  user: userView,
});

export const apiKeyRowSchema = apiKeyViewSchema.shape({
  organizationHashId: yup.string().required(),
  organizationName: yup.string().required(),
});

export const apiKeyPageSchema = pageSchema(apiKeyRowSchema);
