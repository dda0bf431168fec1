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

export type OrganizationUsersQueryVariables = Exact<{
  organizationHashId: string;
}>;


export type OrganizationUsersQuery = { users: { nextPageOffset: string | null, rows: Array<{ hashId: string, name: string, email: string, rights: Array<string> }> }, userInvites: { nextPageOffset: string | null, rows: Array<{ hashId: string, email: string, expiresAt: string, rights: Array<Types.Right> }> } };


export const OrganizationUsersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrganizationUsers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationHashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"users"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"organizationHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationHashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"rowsPerPage"},"value":{"kind":"IntValue","value":"500"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"rights"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextPageOffset"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userInvites"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"organizationHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationHashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"rowsPerPage"},"value":{"kind":"IntValue","value":"500"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"rights"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextPageOffset"}}]}}]}}]} as unknown as DocumentNode<OrganizationUsersQuery, OrganizationUsersQueryVariables>;