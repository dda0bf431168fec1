/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** A right an actor holds. */
export type Right =
  | 'CUSTOMER_READ'
  | 'CUSTOMER_WRITE'
  | 'GRIDPORT_ADMIN'
  | 'GRIDPORT_DEVELOPER'
  | 'GRIDPORT_EMPLOYEE'
  | 'GRIDPORT_OPS'
  | 'GRIDPORT_SALES';

export type UserInviteInput = {
  /** 1 to 20 emails. */
  emails: Array<string>;
  organizationHashId: string;
  /** customer.read for a customer organisation, gridport.employee for Gridport, when not given. */
  rights?: Array<Right> | null | undefined;
};

export type InviteUsersMutationVariables = Exact<{
  input: Types.UserInviteInput;
}>;


export type InviteUsersMutation = { inviteUsers: Array<{ hashId: string, email: string }> };


export const InviteUsersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"InviteUsers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UserInviteInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inviteUsers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"email"}}]}}]}}]} as unknown as DocumentNode<InviteUsersMutation, InviteUsersMutationVariables>;