/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Whether the public API may read a device, and also steer it. */
export type CloudApiLevel =
  | 'OFF'
  | 'READ'
  | 'READ_WRITE';

/** Only the fields given change; null clears a field that may be empty. */
export type DeviceUpdateInput = {
  balenaUuid?: string | null | undefined;
  cloudApi?: CloudApiLevel | null | undefined;
  /** A configuration (version 2). */
  config?: unknown;
  deviceGroupHashId?: string | null | undefined;
  exportMessages?: boolean | null | undefined;
  iccid?: string | null | undefined;
  imsi?: string | null | undefined;
  inProduction?: boolean | null | undefined;
  isExposedToCustomer?: boolean | null | undefined;
  monitorConnectivity?: boolean | null | undefined;
  monitorSettings?: unknown;
  name?: string | null | undefined;
  openForProvisioning?: boolean | null | undefined;
  organizationHashId?: string | null | undefined;
  outageEmails?: Array<string> | null | undefined;
  outageUsersHashIds?: Array<string> | null | undefined;
  subscription?: unknown;
};

/** What a partner may do with shared devices. */
export type PartnershipRole =
  | 'OPERATOR'
  | 'VIEWER';

export type UpdateDeviceSettingsMutationVariables = Exact<{
  hashId: string;
  input: Types.DeviceUpdateInput;
}>;


export type UpdateDeviceSettingsMutation = { updateDevice: { hashId: string, name: string, identifier: string, inProduction: boolean, isExposedToCustomer: boolean, monitorConnectivity: boolean, exportMessages: boolean, openForProvisioning: boolean, cloudApi: Types.CloudApiLevel, iccid: string | null, imsi: string | null, balenaUuid: string | null, config: unknown, organizationHashId: string | null, deviceGroupHashId: string | null, outageEmails: Array<string>, assets: Array<{ index: number, type: string, identifier: string | null }>, organization: { hashId: string, name: string } | null, deviceGroup: { hashId: string, name: string } | null, outageUsers: Array<{ hashId: string, name: string, email: string }>, partnerships: Array<{ hashId: string, role: Types.PartnershipRole, description: string, allDevices: boolean, owner: { hashId: string, name: string }, partner: { hashId: string, name: string } }> } };


export const UpdateDeviceSettingsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateDeviceSettings"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DeviceUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateDevice"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SettingsTab_device"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConfigEditor_device"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Device"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"config"}},{"kind":"Field","name":{"kind":"Name","value":"inProduction"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DevicePlacement_device"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Device"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"organizationHashId"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"deviceGroupHashId"}},{"kind":"Field","name":{"kind":"Name","value":"deviceGroup"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DeviceOutageContacts_device"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Device"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"organizationHashId"}},{"kind":"Field","name":{"kind":"Name","value":"outageEmails"}},{"kind":"Field","name":{"kind":"Name","value":"outageUsers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DevicePartnerships_device"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Device"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"partnerships"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"allDevices"}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"partner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SettingsTab_device"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Device"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"identifier"}},{"kind":"Field","name":{"kind":"Name","value":"inProduction"}},{"kind":"Field","name":{"kind":"Name","value":"isExposedToCustomer"}},{"kind":"Field","name":{"kind":"Name","value":"monitorConnectivity"}},{"kind":"Field","name":{"kind":"Name","value":"exportMessages"}},{"kind":"Field","name":{"kind":"Name","value":"openForProvisioning"}},{"kind":"Field","name":{"kind":"Name","value":"cloudApi"}},{"kind":"Field","name":{"kind":"Name","value":"iccid"}},{"kind":"Field","name":{"kind":"Name","value":"imsi"}},{"kind":"Field","name":{"kind":"Name","value":"balenaUuid"}},{"kind":"Field","name":{"kind":"Name","value":"assets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"index"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"identifier"}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConfigEditor_device"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"DevicePlacement_device"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"DeviceOutageContacts_device"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"DevicePartnerships_device"}}]}}]} as unknown as DocumentNode<UpdateDeviceSettingsMutation, UpdateDeviceSettingsMutationVariables>;