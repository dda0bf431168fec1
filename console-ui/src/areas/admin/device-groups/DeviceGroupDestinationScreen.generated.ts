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

export type DeviceGroupMessageDestinationUpdateInput = {
  messageTypes?: Array<MessageType> | null | undefined;
  settings?: GroupForwardingSettingsInput | null | undefined;
};

export type GroupForwardingSettingsInput = {
  minIntervalSeconds?: number | null | undefined;
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

export type DeviceGroupDestinationQueryVariables = Exact<{
  hashId: string;
}>;


export type DeviceGroupDestinationQuery = { deviceGroupMessageDestination: { hashId: string, messageTypes: Array<Types.MessageType>, messageDestination: { hashId: string, name: string, type: Types.DestinationKind }, settings: { minIntervalSeconds: number } } };

export type UpdateDeviceGroupDestinationMutationVariables = Exact<{
  hashId: string;
  input: Types.DeviceGroupMessageDestinationUpdateInput;
}>;


export type UpdateDeviceGroupDestinationMutation = { updateDeviceGroupMessageDestination: { hashId: string } };

export type RemoveDeviceGroupDestinationMutationVariables = Exact<{
  hashId: string;
}>;


export type RemoveDeviceGroupDestinationMutation = { removeDeviceGroupMessageDestination: boolean };


export const DeviceGroupDestinationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DeviceGroupDestination"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deviceGroupMessageDestination"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"messageDestination"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}},{"kind":"Field","name":{"kind":"Name","value":"messageTypes"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minIntervalSeconds"}}]}}]}}]}}]} as unknown as DocumentNode<DeviceGroupDestinationQuery, DeviceGroupDestinationQueryVariables>;
export const UpdateDeviceGroupDestinationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateDeviceGroupDestination"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DeviceGroupMessageDestinationUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateDeviceGroupMessageDestination"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}}]}}]}}]} as unknown as DocumentNode<UpdateDeviceGroupDestinationMutation, UpdateDeviceGroupDestinationMutationVariables>;
export const RemoveDeviceGroupDestinationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveDeviceGroupDestination"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeDeviceGroupMessageDestination"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}}]}]}}]} as unknown as DocumentNode<RemoveDeviceGroupDestinationMutation, RemoveDeviceGroupDestinationMutationVariables>;