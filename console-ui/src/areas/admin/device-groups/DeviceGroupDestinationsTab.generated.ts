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

export type DeviceGroupDestinationsQueryVariables = Exact<{
  deviceGroupHashId?: string | null | undefined;
}>;


export type DeviceGroupDestinationsQuery = { deviceGroupMessageDestinations: { nextPageOffset: string | null, rows: Array<{ hashId: string, messageTypes: Array<Types.MessageType>, messageDestination: { hashId: string, name: string, type: Types.DestinationKind }, settings: { minIntervalSeconds: number } }> } };


export const DeviceGroupDestinationsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DeviceGroupDestinations"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deviceGroupHashId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deviceGroupMessageDestinations"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"deviceGroupHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deviceGroupHashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"rowsPerPage"},"value":{"kind":"IntValue","value":"500"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"messageDestination"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}},{"kind":"Field","name":{"kind":"Name","value":"messageTypes"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minIntervalSeconds"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextPageOffset"}}]}}]}}]} as unknown as DocumentNode<DeviceGroupDestinationsQuery, DeviceGroupDestinationsQueryVariables>;