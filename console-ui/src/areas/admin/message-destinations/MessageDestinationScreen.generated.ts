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

export type DestinationMonitorSettingsInput = {
  enabled?: boolean | null | undefined;
  maxLagSeconds?: number | null | undefined;
};

export type MessageDestinationUpdateInput = {
  /** The kind's settings as a whole with the stored `type` (changing_type otherwise); a secret left out keeps its stored value. */
  destination?: unknown;
  monitorSettings?: DestinationMonitorSettingsInput | null | undefined;
  name?: string | null | undefined;
  outageEmails?: Array<string> | null | undefined;
  outageUsersHashIds?: Array<string> | null | undefined;
};

/** What a device group may forward, each in its version of device-model.md 3.12. */
export type MessageType =
  | 'ALARM'
  | 'BATTERY_POWER'
  | 'BATTERY_POWER_FILTERED'
  | 'BATTERY_POWER_FLASH'
  | 'EV_POWER'
  | 'GENERATOR_POWER'
  | 'METER_POWER'
  | 'METER_POWER_FLASH'
  | 'SOLAR_POWER'
  | 'SOLAR_POWER_FLASH'
  | 'WIND_POWER'
  | 'WIND_POWER_FLASH';

export type MessageDestinationQueryVariables = Exact<{
  hashId: string;
}>;


export type MessageDestinationQuery = { messageDestination: { hashId: string, name: string, type: Types.DestinationKind, organizationHashId: string, destination: unknown, secretsSet: Array<string>, outageEmails: Array<string>, organization: { hashId: string, name: string }, outageUsers: Array<{ hashId: string, name: string, email: string }>, monitorSettings: { enabled: boolean, maxLagSeconds: number | null } } };

export type UpdateMessageDestinationMutationVariables = Exact<{
  hashId: string;
  input: Types.MessageDestinationUpdateInput;
}>;


export type UpdateMessageDestinationMutation = { updateMessageDestination: { hashId: string } };

export type MessageDestinationGroupsQueryVariables = Exact<{
  messageDestinationHashId?: string | null | undefined;
}>;


export type MessageDestinationGroupsQuery = { deviceGroupMessageDestinations: { nextPageOffset: string | null, rows: Array<{ hashId: string, messageTypes: Array<Types.MessageType>, deviceGroup: { hashId: string, name: string } }> } };


export const MessageDestinationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MessageDestination"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageDestination"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"organizationHashId"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"destination"}},{"kind":"Field","name":{"kind":"Name","value":"secretsSet"}},{"kind":"Field","name":{"kind":"Name","value":"outageEmails"}},{"kind":"Field","name":{"kind":"Name","value":"outageUsers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}}]}},{"kind":"Field","name":{"kind":"Name","value":"monitorSettings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"maxLagSeconds"}}]}}]}}]}}]} as unknown as DocumentNode<MessageDestinationQuery, MessageDestinationQueryVariables>;
export const UpdateMessageDestinationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateMessageDestination"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MessageDestinationUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateMessageDestination"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}}]}}]}}]} as unknown as DocumentNode<UpdateMessageDestinationMutation, UpdateMessageDestinationMutationVariables>;
export const MessageDestinationGroupsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MessageDestinationGroups"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"messageDestinationHashId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deviceGroupMessageDestinations"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"messageDestinationHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"messageDestinationHashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"rowsPerPage"},"value":{"kind":"IntValue","value":"500"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"deviceGroup"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"messageTypes"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextPageOffset"}}]}}]}}]} as unknown as DocumentNode<MessageDestinationGroupsQuery, MessageDestinationGroupsQueryVariables>;