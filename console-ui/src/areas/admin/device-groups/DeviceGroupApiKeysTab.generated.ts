/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type DeviceGroupApiKeysTab_GroupFragment = { hashId: string, organizationHashId: string, apiKeys: Array<{ hashId: string, name: string }> };

export type DeviceGroupApiKeyChoicesQueryVariables = Exact<{
  organizationHashId: string;
  filter?: string | null | undefined;
}>;


export type DeviceGroupApiKeyChoicesQuery = { apiKeys: { rows: Array<{ hashId: string, name: string }> } };

export type LinkDeviceGroupApiKeyMutationVariables = Exact<{
  deviceGroupHashId: string;
  apiKeyHashId: string;
}>;


export type LinkDeviceGroupApiKeyMutation = { linkDeviceGroupApiKey: boolean };

export type UnlinkDeviceGroupApiKeyMutationVariables = Exact<{
  deviceGroupHashId: string;
  apiKeyHashId: string;
}>;


export type UnlinkDeviceGroupApiKeyMutation = { unlinkDeviceGroupApiKey: boolean };

export const DeviceGroupApiKeysTab_GroupFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DeviceGroupApiKeysTab_group"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DeviceGroup"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"organizationHashId"}},{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<DeviceGroupApiKeysTab_GroupFragment, unknown>;
export const DeviceGroupApiKeyChoicesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DeviceGroupApiKeyChoices"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationHashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"organizationHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationHashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"rowsPerPage"},"value":{"kind":"IntValue","value":"8"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<DeviceGroupApiKeyChoicesQuery, DeviceGroupApiKeyChoicesQueryVariables>;
export const LinkDeviceGroupApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LinkDeviceGroupApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deviceGroupHashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"apiKeyHashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"linkDeviceGroupApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"deviceGroupHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deviceGroupHashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"apiKeyHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"apiKeyHashId"}}}]}]}}]} as unknown as DocumentNode<LinkDeviceGroupApiKeyMutation, LinkDeviceGroupApiKeyMutationVariables>;
export const UnlinkDeviceGroupApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UnlinkDeviceGroupApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deviceGroupHashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"apiKeyHashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"unlinkDeviceGroupApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"deviceGroupHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deviceGroupHashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"apiKeyHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"apiKeyHashId"}}}]}]}}]} as unknown as DocumentNode<UnlinkDeviceGroupApiKeyMutation, UnlinkDeviceGroupApiKeyMutationVariables>;