/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type PartnershipCreateInput = {
  allDevices?: boolean | null | undefined;
  description?: string | null | undefined;
  deviceHashIds?: Array<string> | null | undefined;
  ownerOrganizationHashId: string;
  partnerOrganizationHashId: string;
  role: PartnershipRole;
};

/** What a partner may do with shared devices. */
export type PartnershipRole =
  | 'OPERATOR'
  | 'VIEWER';

export type CreatePartnershipMutationVariables = Exact<{
  input: Types.PartnershipCreateInput;
}>;


export type CreatePartnershipMutation = { createPartnership: { hashId: string } };


export const CreatePartnershipDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreatePartnership"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PartnershipCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createPartnership"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}}]}}]}}]} as unknown as DocumentNode<CreatePartnershipMutation, CreatePartnershipMutationVariables>;