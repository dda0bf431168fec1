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

export type UpdateOrganizationMutationVariables = Exact<{
  hashId: string;
  input: Types.OrganizationUpdateInput;
}>;


export type UpdateOrganizationMutation = { updateOrganization: { hashId: string, name: string, type: Types.OrganizationType | null, isProvider: boolean, invoiceCustomerReference: string | null, invoiceFrequency: Types.InvoiceFrequency, requireLegalEntityPerDevice: boolean, requireCustomerReferencePerDevice: boolean, createdAt: string, updatedAt: string, subscriptionDefaults: { chargePeriod: number, runtime: number } | null } };


export const UpdateOrganizationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateOrganization"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"OrganizationUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"OrganizationFrame_organization"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"OrganizationGeneralTab_organization"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OrganizationFrame_organization"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Organization"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"isProvider"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OrganizationGeneralTab_organization"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Organization"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"isProvider"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceCustomerReference"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceFrequency"}},{"kind":"Field","name":{"kind":"Name","value":"requireLegalEntityPerDevice"}},{"kind":"Field","name":{"kind":"Name","value":"requireCustomerReferencePerDevice"}},{"kind":"Field","name":{"kind":"Name","value":"subscriptionDefaults"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargePeriod"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<UpdateOrganizationMutation, UpdateOrganizationMutationVariables>;