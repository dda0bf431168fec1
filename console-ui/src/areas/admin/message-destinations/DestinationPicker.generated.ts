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

export type DestinationPickerDestinationsQueryVariables = Exact<{
  organizationHashId?: string | null | undefined;
  filter?: string | null | undefined;
}>;


export type DestinationPickerDestinationsQuery = { messageDestinations: { rows: Array<{ hashId: string, name: string, type: Types.DestinationKind }> } };


export const DestinationPickerDestinationsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DestinationPickerDestinations"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationHashId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"messageDestinations"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"organizationHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationHashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"rowsPerPage"},"value":{"kind":"IntValue","value":"8"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}}]}}]}}]}}]} as unknown as DocumentNode<DestinationPickerDestinationsQuery, DestinationPickerDestinationsQueryVariables>;