/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** The kind of a message destination; its `destination` settings carry the same kind in `type` as contracts/forwarding.ts spells it ('azure-service-bus'). */
export type DestinationKind =
  | 'AMQP'
  | 'AWS_SIMPLE_NOTIFICATION_SERVICE'
  | 'AZURE_SERVICE_BUS'
  | 'FTPS'
  | 'GRAFANA_LOKI'
  | 'HTTP'
  | 'INFLUXDB'
  | 'KAFKA'
  | 'MSSQL'
  | 'MYSQL'
  | 'POSTGRES'
  | 'SFTP';

/** Whether a destination is delivered to, or paused until resumed. */
export type DestinationState =
  | 'ACTIVE'
  | 'PAUSED';

export type MessageDestinationListScreen_DestinationFragment = { hashId: string, name: string, type: Types.DestinationKind, organization: { hashId: string, name: string }, health: { state: Types.DestinationState, pausedReason: string | null, lagReports: number, lagCountCapped: boolean, lagSeconds: number, deliveredCount: number, lastSuccessAt: string | null, failingSince: string | null } };

export type MessageDestinationListQueryVariables = Exact<{
  filter?: string | null | undefined;
  organizationHashId?: string | null | undefined;
  type?: Types.DestinationKind | null | undefined;
  state?: Types.DestinationState | null | undefined;
  offset?: string | null | undefined;
  rowsPerPage?: number | null | undefined;
}>;


export type MessageDestinationListQuery = { messageDestinations: { nextPageOffset: string | null, rows: Array<{ hashId: string, name: string, type: Types.DestinationKind, organization: { hashId: string, name: string }, health: { state: Types.DestinationState, pausedReason: string | null, lagReports: number, lagCountCapped: boolean, lagSeconds: number, deliveredCount: number, lastSuccessAt: string | null, failingSince: string | null } }> } };

export const MessageDestinationListScreen_DestinationFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MessageDestinationListScreen_destination"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageDestination"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"pausedReason"}},{"kind":"Field","name":{"kind":"Name","value":"lagReports"}},{"kind":"Field","name":{"kind":"Name","value":"lagCountCapped"}},{"kind":"Field","name":{"kind":"Name","value":"lagSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"deliveredCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastSuccessAt"}},{"kind":"Field","name":{"kind":"Name","value":"failingSince"}}]}}]}}]} as unknown as DocumentNode<MessageDestinationListScreen_DestinationFragment, unknown>;
export const MessageDestinationListDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MessageDestinationList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationHashId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"type"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DestinationKind"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"state"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DestinationState"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"rowsPerPage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageDestinations"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"organizationHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationHashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"type"},"value":{"kind":"Variable","name":{"kind":"Name","value":"type"}}},{"kind":"Argument","name":{"kind":"Name","value":"state"},"value":{"kind":"Variable","name":{"kind":"Name","value":"state"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}},{"kind":"Argument","name":{"kind":"Name","value":"rowsPerPage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"rowsPerPage"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"MessageDestinationListScreen_destination"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextPageOffset"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"MessageDestinationListScreen_destination"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageDestination"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"health"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"pausedReason"}},{"kind":"Field","name":{"kind":"Name","value":"lagReports"}},{"kind":"Field","name":{"kind":"Name","value":"lagCountCapped"}},{"kind":"Field","name":{"kind":"Name","value":"lagSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"deliveredCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastSuccessAt"}},{"kind":"Field","name":{"kind":"Name","value":"failingSince"}}]}}]}}]} as unknown as DocumentNode<MessageDestinationListQuery, MessageDestinationListQueryVariables>;