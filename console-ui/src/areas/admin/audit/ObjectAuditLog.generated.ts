/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** What kind of change an audit log row records. */
export type AuditChangeType =
  | 'CONTROLLER_2FA_CHANGES'
  | 'CONTROLLER_CREATE'
  | 'CONTROLLER_DELETE'
  | 'CONTROLLER_DEVICE_SHIPPED'
  | 'CONTROLLER_MESSAGE_TO_DEVICE'
  | 'CONTROLLER_UPDATE'
  | 'CONTROLLER_USER_PASSWORD_RESET'
  | 'DEVICE_GATEWAY_MESSAGE_TO_DEVICE'
  | 'DEVICE_GATEWAY_MONITORING'
  | 'MESSAGE_FROM_DEVICE';

/** The kinds of objects whose changes the audit log records. */
export type AuditObjectType =
  | 'API_KEYS'
  | 'BILLING_CHARGES'
  | 'BILLING_INVOICES'
  | 'BILLING_LEGAL_ENTITIES'
  | 'CONTACTS'
  | 'DEVICES'
  | 'DEVICE_GROUPS'
  | 'ISSUES'
  | 'MESSAGE_DESTINATIONS'
  | 'ORGANIZATIONS'
  | 'PARTNERSHIPS'
  | 'USERS';

export type ObjectAuditLogQueryVariables = Exact<{
  objectType: Types.AuditObjectType;
  hashId: string;
  offset?: string | null | undefined;
  rowsPerPage?: number | null | undefined;
}>;


export type ObjectAuditLogQuery = { auditLog: { nextPageOffset: string | null, rows: Array<{ hashId: string, changeType: Types.AuditChangeType, diff: Array<unknown>, actorName: string, createdAt: string, user: { hashId: string, name: string } | null }> } };


export const ObjectAuditLogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ObjectAuditLog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"objectType"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AuditObjectType"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"rowsPerPage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"auditLog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"objectType"},"value":{"kind":"Variable","name":{"kind":"Name","value":"objectType"}}},{"kind":"Argument","name":{"kind":"Name","value":"objectHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}},{"kind":"Argument","name":{"kind":"Name","value":"rowsPerPage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"rowsPerPage"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AuditEntry_entry"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextPageOffset"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AuditEntry_entry"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AuditLogRow"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"changeType"}},{"kind":"Field","name":{"kind":"Name","value":"diff"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"actorName"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<ObjectAuditLogQuery, ObjectAuditLogQueryVariables>;