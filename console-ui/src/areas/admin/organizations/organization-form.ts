import {
  organizationCreateSchema,
  organizationTypes,
  organizationUpdateSchema,
  subscriptionDefaultsSchema,
  type InvoiceFrequency,
  type OrganizationType,
} from '../../../../../contracts/organization';
import type { OrganizationGeneralTab_OrganizationFragment } from './OrganizationGeneralTab.generated';
import type { InvoiceFrequency as GraphqlInvoiceFrequency, OrganizationCreateInput } from './useCreateOrganization.generated';
import type { OrganizationUpdateInput } from './useUpdateOrganization.generated';
import type { OrganizationType as GraphqlOrganizationType } from '../../customer/access/MyOrganization.generated';

/**
 * The GraphQL name of each organisation type and invoice frequency of contracts/organization.ts
 * (the server's graphqlEnum): a value added there fails the type check here until it is named.
 */
const graphqlTypes: Record<OrganizationType, GraphqlOrganizationType> = {
  'energy-trader': 'ENERGY_TRADER',
  'data-receiver': 'DATA_RECEIVER',
  'asset-owner': 'ASSET_OWNER',
  installer: 'INSTALLER',
};
const graphqlFrequencies: Record<InvoiceFrequency, GraphqlInvoiceFrequency> = { daily: 'DAILY', monthly: 'MONTHLY' };

/** The contract's value that GraphQL calls `name`. */
function contractValue<V extends string, G extends string>(names: Record<V, G>, name: G): V | undefined {
  return (Object.keys(names) as V[]).find((value) => names[value] === name);
}

/** The GraphQL name of an organisation type of the address ('energy-trader'); undefined for anything else. */
export function graphqlOrganizationType(value: string | undefined): GraphqlOrganizationType | undefined {
  const type = organizationTypes.find((known) => known === value);
  return type === undefined ? undefined : graphqlTypes[type];
}

/** The contract's value of a GraphQL organisation type (null for the provider, which has none). */
export function organizationTypeOf(type: GraphqlOrganizationType | null): OrganizationType | null {
  return type === null ? null : (contractValue(graphqlTypes, type) ?? null);
}

/** An organisation as the add form and the general tab edit it: the contract's values, numbers blank until typed. */
export interface OrganizationValues {
  name: string;
  /** Blank until chosen, and for the provider organisation, which has no type. */
  type: OrganizationType | '';
  invoiceCustomerReference: string;
  invoiceFrequency: InvoiceFrequency;
  requireLegalEntityPerDevice: boolean;
  requireCustomerReferencePerDevice: boolean;
  /** Both blank for none. */
  subscriptionDefaults: { chargePeriod: number | ''; runtime: number | '' };
}

export const newOrganizationValues: OrganizationValues = {
  name: '',
  type: '',
  invoiceCustomerReference: '',
  invoiceFrequency: 'monthly',
  requireLegalEntityPerDevice: false,
  requireCustomerReferencePerDevice: false,
  subscriptionDefaults: { chargePeriod: '', runtime: '' },
};

/** A saved organisation as the general tab's form starts with it. */
export function valuesOf(organization: OrganizationGeneralTab_OrganizationFragment): OrganizationValues {
  return {
    name: organization.name,
    type: organizationTypeOf(organization.type) ?? '',
    invoiceCustomerReference: organization.invoiceCustomerReference ?? '',
    invoiceFrequency: contractValue(graphqlFrequencies, organization.invoiceFrequency) ?? 'monthly',
    requireLegalEntityPerDevice: organization.requireLegalEntityPerDevice,
    requireCustomerReferencePerDevice: organization.requireCustomerReferencePerDevice,
    // Only the two months: the answer's __typename is no field of the form (the schema is exact).
    subscriptionDefaults: {
      chargePeriod: organization.subscriptionDefaults?.chargePeriod ?? '',
      runtime: organization.subscriptionDefaults?.runtime ?? '',
    },
  };
}

// Formik hands yup blank fields as undefined: two blank months mean no subscription defaults.
const subscriptionDefaults = subscriptionDefaultsSchema
  .nullable()
  .transform((value: { chargePeriod?: number; runtime?: number } | null) =>
    value !== null && value.chargePeriod === undefined && value.runtime === undefined ? null : value,
  );

/** The add form's rules: the server's createOrganization body (contracts/), pricing aside (the billing screens set it). */
export const organizationCreateFormSchema = organizationCreateSchema.omit(['pricing']).shape({ subscriptionDefaults });

/** The general tab's rules: the server's updateOrganization body, pricing aside. */
export const organizationUpdateFormSchema = organizationUpdateSchema.omit(['pricing']).shape({ subscriptionDefaults: subscriptionDefaults.optional() });

function subscriptionDefaultsOf({ subscriptionDefaults: { chargePeriod, runtime } }: OrganizationValues) {
  return chargePeriod === '' || runtime === '' ? null : { chargePeriod, runtime };
}

const blankAsNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** The createOrganization input of valid values (a type chosen). */
export function createInputOf(values: OrganizationValues & { type: OrganizationType }): OrganizationCreateInput {
  return {
    name: values.name.trim(),
    type: graphqlTypes[values.type],
    invoiceCustomerReference: blankAsNull(values.invoiceCustomerReference),
    invoiceFrequency: graphqlFrequencies[values.invoiceFrequency],
    requireLegalEntityPerDevice: values.requireLegalEntityPerDevice,
    requireCustomerReferencePerDevice: values.requireCustomerReferencePerDevice,
    subscriptionDefaults: subscriptionDefaultsOf(values),
  };
}

/** Only what changed, as updateOrganization takes it (its audit entry then names only those fields). */
export function changesOf(before: OrganizationValues, after: OrganizationValues): OrganizationUpdateInput {
  const input: OrganizationUpdateInput = {};
  if (after.name.trim() !== before.name) {
    input.name = after.name.trim();
  }
  if (after.type !== before.type && after.type !== '') {
    input.type = graphqlTypes[after.type];
  }
  if (blankAsNull(after.invoiceCustomerReference) !== blankAsNull(before.invoiceCustomerReference)) {
    input.invoiceCustomerReference = blankAsNull(after.invoiceCustomerReference);
  }
  if (after.invoiceFrequency !== before.invoiceFrequency) {
    input.invoiceFrequency = graphqlFrequencies[after.invoiceFrequency];
  }
  for (const flag of ['requireLegalEntityPerDevice', 'requireCustomerReferencePerDevice'] as const) {
    if (after[flag] !== before[flag]) {
      input[flag] = after[flag];
    }
  }
  const defaults = subscriptionDefaultsOf(after);
  const previous = subscriptionDefaultsOf(before);
  if (defaults?.chargePeriod !== previous?.chargePeriod || defaults?.runtime !== previous?.runtime) {
    input.subscriptionDefaults = defaults;
  }
  return input;
}
