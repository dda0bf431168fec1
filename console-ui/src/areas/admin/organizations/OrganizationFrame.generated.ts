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

export type OrganizationFrame_OrganizationFragment = { hashId: string, name: string, type: Types.OrganizationType | null, isProvider: boolean };

export type AdminOrganizationQueryVariables = Exact<{
  hashId: string;
}>;


export type AdminOrganizationQuery = { organization: { hashId: string, name: string, type: Types.OrganizationType | null, isProvider: boolean, invoiceCustomerReference: string | null, invoiceFrequency: Types.InvoiceFrequency, requireLegalEntityPerDevice: boolean, requireCustomerReferencePerDevice: boolean, createdAt: string, updatedAt: string, subscriptionDefaults: { chargePeriod: number, runtime: number } | null } };

export const OrganizationFrame_OrganizationFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OrganizationFrame_organization"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Organization"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"isProvider"}}]}}]} as unknown as DocumentNode<OrganizationFrame_OrganizationFragment, unknown>;
export const AdminOrganizationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AdminOrganization"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"OrganizationFrame_organization"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"OrganizationGeneralTab_organization"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OrganizationFrame_organization"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Organization"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"isProvider"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OrganizationGeneralTab_organization"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Organization"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"isProvider"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceCustomerReference"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceFrequency"}},{"kind":"Field","name":{"kind":"Name","value":"requireLegalEntityPerDevice"}},{"kind":"Field","name":{"kind":"Name","value":"requireCustomerReferencePerDevice"}},{"kind":"Field","name":{"kind":"Name","value":"subscriptionDefaults"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargePeriod"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<AdminOrganizationQuery, AdminOrganizationQueryVariables>;