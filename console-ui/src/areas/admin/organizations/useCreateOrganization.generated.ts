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

export type OrganizationCreateInput = {
  invoiceCustomerReference?: string | null | undefined;
  /** MONTHLY when not given. */
  invoiceFrequency?: InvoiceFrequency | null | undefined;
  /** 1 to 100 characters. */
  name: string;
  pricing?: unknown;
  requireCustomerReferencePerDevice?: boolean | null | undefined;
  requireLegalEntityPerDevice?: boolean | null | undefined;
  subscriptionDefaults?: SubscriptionDefaultsInput | null | undefined;
  type: OrganizationType;
};

/** What a customer organisation does. */
export type OrganizationType =
  | 'ASSET_OWNER'
  | 'DATA_RECEIVER'
  | 'ENERGY_TRADER'
  | 'INSTALLER';

export type SubscriptionDefaultsInput = {
  chargePeriod: number;
  runtime: number;
};

export type CreateOrganizationMutationVariables = Exact<{
  input: Types.OrganizationCreateInput;
}>;


export type CreateOrganizationMutation = { createOrganization: { hashId: string } };


export const CreateOrganizationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateOrganization"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"OrganizationCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}}]}}]}}]} as unknown as DocumentNode<CreateOrganizationMutation, CreateOrganizationMutationVariables>;