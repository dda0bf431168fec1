/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type DeviceGroupMessageDestinationCreateInput = {
  deviceGroupHashId: string;
  messageDestinationHashId: string;
  messageTypes: Array<MessageType>;
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

export type AddDeviceGroupDestinationMutationVariables = Exact<{
  input: Types.DeviceGroupMessageDestinationCreateInput;
}>;


export type AddDeviceGroupDestinationMutation = { addDeviceGroupMessageDestination: { hashId: string } };


export const AddDeviceGroupDestinationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddDeviceGroupDestination"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DeviceGroupMessageDestinationCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addDeviceGroupMessageDestination"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}}]}}]}}]} as unknown as DocumentNode<AddDeviceGroupDestinationMutation, AddDeviceGroupDestinationMutationVariables>;