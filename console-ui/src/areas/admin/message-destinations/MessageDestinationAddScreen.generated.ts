/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type DestinationMonitorSettingsInput = {
  enabled?: boolean | null | undefined;
  maxLagSeconds?: number | null | undefined;
};

export type MessageDestinationCreateInput = {
  /** The kind's settings with `type` ('http', 'azure-service-bus', ...), secrets included. */
  destination: unknown;
  monitorSettings?: DestinationMonitorSettingsInput | null | undefined;
  name: string;
  organizationHashId: string;
  outageEmails?: Array<string> | null | undefined;
  outageUsersHashIds?: Array<string> | null | undefined;
};

export type CreateMessageDestinationMutationVariables = Exact<{
  input: Types.MessageDestinationCreateInput;
}>;


export type CreateMessageDestinationMutation = { createMessageDestination: { hashId: string } };


export const CreateMessageDestinationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateMessageDestination"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MessageDestinationCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createMessageDestination"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}}]}}]}}]} as unknown as DocumentNode<CreateMessageDestinationMutation, CreateMessageDestinationMutationVariables>;