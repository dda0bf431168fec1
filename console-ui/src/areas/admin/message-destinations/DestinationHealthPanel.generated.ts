/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Whether a destination is delivered to, or paused until resumed. */
export type DestinationState =
  | 'ACTIVE'
  | 'PAUSED';

export type MessageDestinationHealthQueryVariables = Exact<{
  hashId: string;
}>;


export type MessageDestinationHealthQuery = { messageDestination: { hashId: string, health: { state: Types.DestinationState, pausedReason: string | null, pausedAt: string | null, position: string, lagReports: number, lagCountCapped: boolean, lagSeconds: number, deliveredCount: number, lastSuccessAt: string | null, lastError: string | null, lastErrorAt: string | null, failingSince: string | null, nextAttemptAt: string | null } } };

export type ResumeMessageDestinationMutationVariables = Exact<{
  hashId: string;
  offset?: number | null | undefined;
}>;


export type ResumeMessageDestinationMutation = { resumeMessageDestination: { hashId: string } };


export const MessageDestinationHealthDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MessageDestinationHealth"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageDestination"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"pausedReason"}},{"kind":"Field","name":{"kind":"Name","value":"pausedAt"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"lagReports"}},{"kind":"Field","name":{"kind":"Name","value":"lagCountCapped"}},{"kind":"Field","name":{"kind":"Name","value":"lagSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"deliveredCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastSuccessAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"lastErrorAt"}},{"kind":"Field","name":{"kind":"Name","value":"failingSince"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}}]}}]}}]}}]} as unknown as DocumentNode<MessageDestinationHealthQuery, MessageDestinationHealthQueryVariables>;
export const ResumeMessageDestinationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ResumeMessageDestination"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resumeMessageDestination"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}}]}}]}}]} as unknown as DocumentNode<ResumeMessageDestinationMutation, ResumeMessageDestinationMutationVariables>;