/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Who is acting: a signed-in user, an API key, or Gridport itself. */
export type ActorKind =
  | 'API_KEY'
  | 'SYSTEM'
  | 'USER';

/** What a customer organisation does. */
export type OrganizationType =
  | 'ASSET_OWNER'
  | 'DATA_RECEIVER'
  | 'ENERGY_TRADER'
  | 'INSTALLER';

/** A right an actor holds. */
export type Right =
  | 'CUSTOMER_READ'
  | 'CUSTOMER_WRITE'
  | 'GRIDPORT_ADMIN'
  | 'GRIDPORT_DEVELOPER'
  | 'GRIDPORT_EMPLOYEE'
  | 'GRIDPORT_OPS'
  | 'GRIDPORT_SALES';

export type MyOrganizationQueryVariables = Exact<{ [key: string]: never; }>;


export type MyOrganizationQuery = { me: { kind: Types.ActorKind, name: string, rights: Array<Types.Right>, organization: { hashId: string, name: string, type: Types.OrganizationType | null } | null } | null };

export type MyOrganizationMembersQueryVariables = Exact<{ [key: string]: never; }>;


export type MyOrganizationMembersQuery = { users: { nextPageOffset: string | null, rows: Array<{ hashId: string, name: string, email: string, rights: Array<string> }> }, userInvites: { nextPageOffset: string | null, rows: Array<{ hashId: string, email: string, expiresAt: string }> } };


export const MyOrganizationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MyOrganization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"rights"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}}]}}]}}]} as unknown as DocumentNode<MyOrganizationQuery, MyOrganizationQueryVariables>;
export const MyOrganizationMembersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MyOrganizationMembers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"users"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"rowsPerPage"},"value":{"kind":"IntValue","value":"500"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"rights"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextPageOffset"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userInvites"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"rowsPerPage"},"value":{"kind":"IntValue","value":"500"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextPageOffset"}}]}}]}}]} as unknown as DocumentNode<MyOrganizationMembersQuery, MyOrganizationMembersQueryVariables>;