/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../graphql/schema-types';

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

export type AuditEntry_EntryFragment = { hashId: string, changeType: Types.AuditChangeType, diff: Array<unknown>, actorName: string, createdAt: string, user: { hashId: string, name: string } | null };

export type AuditEntry_IssueEntryFragment = { hashId: string, changeType: Types.AuditChangeType, diff: Array<unknown>, actorName: string, createdAt: string, user: { hashId: string, name: string } | null };

export const AuditEntry_EntryFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AuditEntry_entry"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AuditLogRow"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"changeType"}},{"kind":"Field","name":{"kind":"Name","value":"diff"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"actorName"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<AuditEntry_EntryFragment, unknown>;
export const AuditEntry_IssueEntryFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AuditEntry_issueEntry"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"IssueAuditEntry"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"changeType"}},{"kind":"Field","name":{"kind":"Name","value":"diff"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"actorName"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<AuditEntry_IssueEntryFragment, unknown>;