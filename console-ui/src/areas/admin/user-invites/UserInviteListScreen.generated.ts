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

export type UserInviteListScreen_InviteFragment = { hashId: string, email: string, expiresAt: string, rights: Array<Types.Right>, organization: { hashId: string, name: string } };

export type AdminUserInviteListQueryVariables = Exact<{
  filter?: string | null | undefined;
  organizationHashId?: string | null | undefined;
  offset?: string | null | undefined;
  rowsPerPage?: number | null | undefined;
}>;


export type AdminUserInviteListQuery = { userInvites: { nextPageOffset: string | null, rows: Array<{ hashId: string, email: string, expiresAt: string, rights: Array<Types.Right>, organization: { hashId: string, name: string } }> } };

export const UserInviteListScreen_InviteFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"UserInviteListScreen_invite"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserInvite"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"rights"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<UserInviteListScreen_InviteFragment, unknown>;
export const AdminUserInviteListDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AdminUserInviteList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationHashId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"rowsPerPage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"userInvites"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"organizationHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationHashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}},{"kind":"Argument","name":{"kind":"Name","value":"rowsPerPage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"rowsPerPage"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"UserInviteListScreen_invite"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextPageOffset"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"UserInviteListScreen_invite"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserInvite"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"rights"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<AdminUserInviteListQuery, AdminUserInviteListQueryVariables>;