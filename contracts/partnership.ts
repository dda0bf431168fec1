import * as yup from 'yup';
import { fleetLimits, partnershipRoles, type PartnershipRole } from './fleet';
import { filterQuery, pageSchema, paginationQuery } from './pagination';
import type { NamedReference } from './references';

const hashId = yup.string().trim().min(1).max(64);
const description = yup.string().trim().max(fleetLimits.partnershipDescriptionLength);
const role = yup.string().oneOf(partnershipRoles);
/** The owner's devices a partnership lists; used only while it does not share all of them. */
const deviceHashIds = yup.array(hashId.required()).max(fleetLimits.partnershipDevices);

/** POST /console-admin/v1/partnership: an owner shares all or the listed devices with a partner. */
export const partnershipCreateSchema = yup
  .object({
    ownerOrganizationHashId: hashId.required(),
    partnerOrganizationHashId: hashId.required(),
    role: role.required(),
    description: description.default(''),
    allDevices: yup.boolean().default(false),
    deviceHashIds: deviceHashIds.default([]),
  })
  .exact();

/** PUT /console-admin/v1/partnership/{hashId}: only the fields given change; deviceHashIds replaces the list. */
export const partnershipUpdateSchema = yup
  .object({
    role: role.optional(),
    description: description.optional(),
    allDevices: yup.boolean().optional(),
    deviceHashIds: deviceHashIds.optional().default(undefined),
  })
  .exact();

/** GET /console-admin/v1/partnership: newest first; filter matches the description and both organisations' names. */
export const partnershipListQuerySchema = yup
  .object({
    ...paginationQuery,
    filter: filterQuery,
    /** Partnerships in which this organisation is the owner or the partner. */
    organizationHashId: hashId.optional(),
  })
  .exact();

/** GET /console-admin/v1/partnership/device/{hashId}: a page of the partnerships that cover the device. */
export const partnershipPageQuerySchema = yup.object({ ...paginationQuery }).exact();

/** Which side of a partnership the caller's organisation is on: the owner (own) or the partner (accepted). */
export const partnershipKinds = ['own', 'accepted'] as const;
export type PartnershipKind = (typeof partnershipKinds)[number];

/** GET /console/v1/partnership: the caller's own or accepted partnerships, both when kind is not given. */
export const customerPartnershipListQuerySchema = yup
  .object({
    ...paginationQuery,
    kind: yup.string().oneOf(partnershipKinds).optional(),
  })
  .exact();

export type PartnershipCreate = yup.InferType<typeof partnershipCreateSchema>;
export type PartnershipUpdate = yup.InferType<typeof partnershipUpdateSchema>;
export type PartnershipListQuery = yup.InferType<typeof partnershipListQuerySchema>;
export type PartnershipPageQuery = yup.InferType<typeof partnershipPageQuerySchema>;
export type CustomerPartnershipListQuery = yup.InferType<typeof customerPartnershipListQuerySchema>;

/** A partnership (console.md section 3). */
export interface PartnershipView {
  hashId: string;
  owner: NamedReference;
  partner: NamedReference;
  role: PartnershipRole;
  description: string;
  allDevices: boolean;
  /** All the owner's devices when allDevices, otherwise the listed ones. */
  deviceCount: number;
  /** The listed devices; empty when allDevices. */
  deviceHashIds: string[];
}

const organizationRef = yup.object({ hashId: yup.string().required(), name: yup.string().defined() });

export const partnershipViewSchema = yup.object({
  hashId: yup.string().required(),
  owner: organizationRef.required(),
  partner: organizationRef.required(),
  role: yup.string().oneOf(partnershipRoles).required(),
  description: yup.string().defined(),
  allDevices: yup.boolean().required(),
  deviceCount: yup.number().integer().required(),
  deviceHashIds: yup.array(yup.string().required()).required(),
});

export const partnershipPageSchema = pageSchema(partnershipViewSchema);
