/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** How often an organisation is invoiced. */
export type InvoiceFrequency =
  | 'DAILY'
  | 'MONTHLY';

/** What a customer organisation does. */
export type OrganizationType =
  | 'ASSET_OWNER'
  | 'DATA_RECEIVER'
  | 'ENERGY_TRADER'
  | 'INSTALLER';

/** Only the fields given change; null clears a nullable field. */
export type OrganizationUpdateInput = {
  invoiceCustomerReference?: string | null | undefined;
  invoiceFrequency?: InvoiceFrequency | null | undefined;
  name?: string | null | undefined;
  pricing?: unknown;
  requireCustomerReferencePerDevice?: boolean | null | undefined;
  requireLegalEntityPerDevice?: boolean | null | undefined;
  subscriptionDefaults?: SubscriptionDefaultsInput | null | undefined;
  type?: OrganizationType | null | undefined;
};

export type SubscriptionDefaultsInput = {
  chargePeriod: number;
  runtime: number;
};

export type UseOrganizationBilling_OrganizationFragment = { hashId: string, name: string, pricing: unknown, invoiceCustomerReference: string | null, invoiceFrequency: Types.InvoiceFrequency, requireLegalEntityPerDevice: boolean, requireCustomerReferencePerDevice: boolean, subscriptionDefaults: { chargePeriod: number, runtime: number } | null };

export type OrganizationBillingQueryVariables = Exact<{
  hashId: string;
}>;


export type OrganizationBillingQuery = { organization: { hashId: string, name: string, pricing: unknown, invoiceCustomerReference: string | null, invoiceFrequency: Types.InvoiceFrequency, requireLegalEntityPerDevice: boolean, requireCustomerReferencePerDevice: boolean, subscriptionDefaults: { chargePeriod: number, runtime: number } | null }, billingForecast: { pricingType: string, unitCount: number, discount: number, monthlyPriceBeforeDiscount: number, monthlyPrice: number, deviceCount: number } };

export type UpdateOrganizationBillingMutationVariables = Exact<{
  hashId: string;
  input: Types.OrganizationUpdateInput;
}>;


export type UpdateOrganizationBillingMutation = { updateOrganization: { hashId: string, name: string, pricing: unknown, invoiceCustomerReference: string | null, invoiceFrequency: Types.InvoiceFrequency, requireLegalEntityPerDevice: boolean, requireCustomerReferencePerDevice: boolean, subscriptionDefaults: { chargePeriod: number, runtime: number } | null } };

export const UseOrganizationBilling_OrganizationFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"useOrganizationBilling_organization"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Organization"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"pricing"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceCustomerReference"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceFrequency"}},{"kind":"Field","name":{"kind":"Name","value":"requireLegalEntityPerDevice"}},{"kind":"Field","name":{"kind":"Name","value":"requireCustomerReferencePerDevice"}},{"kind":"Field","name":{"kind":"Name","value":"subscriptionDefaults"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargePeriod"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}}]}}]}}]} as unknown as DocumentNode<UseOrganizationBilling_OrganizationFragment, unknown>;
export const OrganizationBillingDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrganizationBilling"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"useOrganizationBilling_organization"}}]}},{"kind":"Field","name":{"kind":"Name","value":"billingForecast"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"organizationHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pricingType"}},{"kind":"Field","name":{"kind":"Name","value":"unitCount"}},{"kind":"Field","name":{"kind":"Name","value":"discount"}},{"kind":"Field","name":{"kind":"Name","value":"monthlyPriceBeforeDiscount"}},{"kind":"Field","name":{"kind":"Name","value":"monthlyPrice"}},{"kind":"Field","name":{"kind":"Name","value":"deviceCount"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"useOrganizationBilling_organization"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Organization"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"pricing"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceCustomerReference"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceFrequency"}},{"kind":"Field","name":{"kind":"Name","value":"requireLegalEntityPerDevice"}},{"kind":"Field","name":{"kind":"Name","value":"requireCustomerReferencePerDevice"}},{"kind":"Field","name":{"kind":"Name","value":"subscriptionDefaults"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargePeriod"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}}]}}]}}]} as unknown as DocumentNode<OrganizationBillingQuery, OrganizationBillingQueryVariables>;
export const UpdateOrganizationBillingDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateOrganizationBilling"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"OrganizationUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"useOrganizationBilling_organization"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"useOrganizationBilling_organization"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Organization"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"pricing"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceCustomerReference"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceFrequency"}},{"kind":"Field","name":{"kind":"Name","value":"requireLegalEntityPerDevice"}},{"kind":"Field","name":{"kind":"Name","value":"requireCustomerReferencePerDevice"}},{"kind":"Field","name":{"kind":"Name","value":"subscriptionDefaults"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargePeriod"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}}]}}]}}]} as unknown as DocumentNode<UpdateOrganizationBillingMutation, UpdateOrganizationBillingMutationVariables>;