/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** A message to an issue. Staff may make it internal, mail it (to, cc) and assign the issue; a customer sends the message and files only. */
export type IssueMessageInput = {
  assignedEmail?: string | null | undefined;
  assignedUserHashId?: string | null | undefined;
  cc?: Array<string> | null | undefined;
  /** Identifiers of your own uploads (POST /console/v1/file/upload), at most 10. */
  fileIdentifiers?: Array<string> | null | undefined;
  isInternal?: boolean | null | undefined;
  issueHashId: string;
  message: string;
  to?: Array<string> | null | undefined;
};

export type AddIssueMessageMutationVariables = Exact<{
  input: Types.IssueMessageInput;
}>;


export type AddIssueMessageMutation = { addIssueMessage: { hashId: string } };


export const AddIssueMessageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddIssueMessage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IssueMessageInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addIssueMessage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}}]}}]}}]} as unknown as DocumentNode<AddIssueMessageMutation, AddIssueMessageMutationVariables>;