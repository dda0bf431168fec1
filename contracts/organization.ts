import * as yup from 'yup';
import { integer, numberLimits } from './numbers';
import { limits } from './limits';
import { paginationQuery, filterQuery, pageSchema } from './pagination';
import { pricingSchema, type Pricing } from './pricing';

export const organizationTypes = ['energy-trader', 'data-receiver', 'asset-owner', 'installer'] as const;
export type OrganizationType = (typeof organizationTypes)[number];

export const invoiceFrequencies = ['daily', 'monthly'] as const;
export type InvoiceFrequency = (typeof invoiceFrequencies)[number];

export const subscriptionDefaultsSchema = yup
  .object({
    chargePeriod: integer().min(1).max(numberLimits.subscriptionMonthsMax).required(),
    runtime: integer().min(1).max(numberLimits.subscriptionMonthsMax).required(),
  })
  .exact();

export type SubscriptionDefaults = yup.InferType<typeof subscriptionDefaultsSchema>;

const name = yup.string().trim().min(1).max(limits.organizationNameLength);

/** Body of a new organisation (console.md section 3, "Organisation"). */
export const organizationCreateSchema = yup
  .object({
    name: name.required(),
    type: yup.string().oneOf(organizationTypes).required(),
    pricing: pricingSchema.nullable().default(null),
    invoiceCustomerReference: yup.string().trim().max(255).nullable().default(null),
    invoiceFrequency: yup.string().oneOf(invoiceFrequencies).default('monthly'),
    requireLegalEntityPerDevice: yup.boolean().default(false),
    requireCustomerReferencePerDevice: yup.boolean().default(false),
    subscriptionDefaults: subscriptionDefaultsSchema.nullable().default(null),
  })
  .exact();

/** Body of an organisation update: every field optional, only those given change. */
export const organizationUpdateSchema = yup
  .object({
    name: name.optional(),
    type: yup.string().oneOf(organizationTypes).optional(),
    pricing: pricingSchema.nullable().optional(),
    invoiceCustomerReference: yup.string().trim().max(255).nullable().optional(),
    invoiceFrequency: yup.string().oneOf(invoiceFrequencies).optional(),
    requireLegalEntityPerDevice: yup.boolean().optional(),
    requireCustomerReferencePerDevice: yup.boolean().optional(),
    subscriptionDefaults: subscriptionDefaultsSchema.nullable().optional().default(undefined),
  })
  .exact();

export const organizationListQuerySchema = yup
  .object({
    ...paginationQuery,
    filter: filterQuery,
    type: yup.string().oneOf(organizationTypes).optional(),
  })
  .exact();

export type OrganizationCreate = yup.InferType<typeof organizationCreateSchema>;
export type OrganizationUpdate = yup.InferType<typeof organizationUpdateSchema>;
export type OrganizationListQuery = yup.InferType<typeof organizationListQuerySchema>;

/** An organisation as it leaves the server. */
export interface OrganizationView {
  hashId: string;
  name: string;
  /** Null only for the provider's own organisation. */
  type: OrganizationType | null;
  isProvider: boolean;
  pricing: Pricing | null;
  invoiceCustomerReference: string | null;
  invoiceFrequency: InvoiceFrequency;
  requireLegalEntityPerDevice: boolean;
  requireCustomerReferencePerDevice: boolean;
  subscriptionDefaults: SubscriptionDefaults | null;
  createdAt: string;
  updatedAt: string;
}

export const organizationViewSchema = yup.object({
  hashId: yup.string().required(),
  name: yup.string().required(),
  type: yup.string().oneOf(organizationTypes).nullable().defined(),
  isProvider: yup.boolean().required(),
  pricing: pricingSchema.nullable(),
  invoiceCustomerReference: yup.string().nullable(),
  invoiceFrequency: yup.string().oneOf(invoiceFrequencies).required(),
  requireLegalEntityPerDevice: yup.boolean().required(),
  requireCustomerReferencePerDevice: yup.boolean().required(),
  subscriptionDefaults: subscriptionDefaultsSchema.nullable(),
  createdAt: yup.string().required(),
  updatedAt: yup.string().required(),
});

export const organizationPageSchema = pageSchema(organizationViewSchema);
