import * as yup from 'yup';
import { fleetLimits } from './fleet';
import { filterQuery, pageSchema, paginationQuery } from './pagination';
import { emailSchema } from './user';
import type { NamedReference, UserReference } from './references';

const hashId = yup.string().trim().min(1).max(64);
const name = yup.string().trim().min(1).max(fleetLimits.deviceGroupNameLength);
const outageEmails = yup.array(emailSchema.required()).max(fleetLimits.outageContacts);
const outageUsersHashIds = yup.array(hashId.required()).max(fleetLimits.outageContacts);

/** POST /console-admin/v1/device-group: a group belongs to one organisation for good. */
export const deviceGroupCreateSchema = yup
  .object({
    name: name.required(),
    organizationHashId: hashId.required(),
    deviceOutageEmails: outageEmails.default([]),
    /** Users told of an outage of the group's devices; each must be able to see them (user_has_no_access). */
    deviceOutageUsersHashIds: outageUsersHashIds.default([]),
  })
  .exact();

/** PUT /console-admin/v1/device-group/{hashId}: only the fields given change; the organisation never does. */
export const deviceGroupUpdateSchema = yup
  .object({
    name: name.optional(),
    deviceOutageEmails: outageEmails.optional().default(undefined),
    deviceOutageUsersHashIds: outageUsersHashIds.optional().default(undefined),
  })
  .exact();

/** GET /console-admin/v1/device-group: newest first, by name (contains, any case) and organisation. */
export const deviceGroupListQuerySchema = yup
  .object({
    ...paginationQuery,
    filter: filterQuery,
    organizationHashId: hashId.optional(),
  })
  .exact();

/** POST and DELETE /console-admin/v1/device-group/api-key: an API key linked to, or unlinked from, a group. */
export const deviceGroupApiKeySchema = yup
  .object({
    deviceGroupHashId: hashId.required(),
    apiKeyHashId: hashId.required(),
  })
  .exact();

export type DeviceGroupCreate = yup.InferType<typeof deviceGroupCreateSchema>;
export type DeviceGroupUpdate = yup.InferType<typeof deviceGroupUpdateSchema>;
export type DeviceGroupListQuery = yup.InferType<typeof deviceGroupListQuerySchema>;
export type DeviceGroupApiKey = yup.InferType<typeof deviceGroupApiKeySchema>;

/** A device group with every field of console.md section 3, its device count and its linked API keys. */
export interface DeviceGroupView {
  hashId: string;
  name: string;
  organizationHashId: string;
  organization: NamedReference;
  deviceOutageEmails: string[];
  deviceOutageUsers: UserReference[];
  deviceCount: number;
  /** Keys linked to the group: such a key sees only the devices of its linked groups. */
  apiKeys: NamedReference[];
}

const named = yup.object({ hashId: yup.string().required(), name: yup.string().required() });

export const deviceGroupViewSchema = yup.object({
  hashId: yup.string().required(),
  name: yup.string().required(),
  organizationHashId: yup.string().required(),
  organization: named.required(),
  deviceOutageEmails: yup.array(yup.string().required()).required(),
  deviceOutageUsers: yup.array(named.shape({ email: yup.string().required() })).required(),
  deviceCount: yup.number().integer().required(),
  apiKeys: yup.array(named).required(),
});

export const deviceGroupPageSchema = pageSchema(deviceGroupViewSchema);
