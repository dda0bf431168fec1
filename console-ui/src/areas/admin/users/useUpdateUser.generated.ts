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

/** Only the fields given change; rights, when given, replace the user’s rights. */
export type UserUpdateInput = {
  email?: string | null | undefined;
  /** 1 to 255 characters. */
  name?: string | null | undefined;
  /** Moving a user to another organisation signs them out everywhere. */
  organizationHashId?: string | null | undefined;
  /** Staff rights in the provider organisation, customer rights elsewhere. */
  rights?: Array<Right> | null | undefined;
};

export type UpdateUserMutationVariables = Exact<{
  hashId: string;
  input: Types.UserUpdateInput;
}>;


export type UpdateUserMutation = { updateUser: { hashId: string, name: string, email: string, rights: Array<string>, organization: { hashId: string, name: string, isProvider: boolean } } };


export const UpdateUserDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateUser"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UserUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateUser"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"UserScreen_user"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"UserScreen_user"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"User"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"rights"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"isProvider"}}]}}]}}]} as unknown as DocumentNode<UpdateUserMutation, UpdateUserMutationVariables>;