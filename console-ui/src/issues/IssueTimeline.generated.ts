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

/** Where a timeline message came from. */
export type IssueMessageSource =
  | 'CLOUD'
  | 'GITHUB'
  | 'INCOMING_EMAIL'
  | 'MONITORING'
  | 'USER';

/** A message, or an audit log entry of the issue. */
export type IssueTimelineItemKind =
  | 'AUDIT'
  | 'MESSAGE';

export type IssueTimeline_ItemFragment = { kind: Types.IssueTimelineItemKind, cursor: string, createdAt: string, message: { hashId: string, source: Types.IssueMessageSource, message: string, isInternal: boolean, to: Array<string>, cc: Array<string>, createdAt: string, updatedAt: string, user: { hashId: string, name: string } | null, emailHeaders: { from: string, subject: string } | null, files: Array<{ identifier: string, name: string, url: string }> } | null, auditEntry: { hashId: string, changeType: Types.AuditChangeType, diff: Array<unknown>, actorName: string, createdAt: string, user: { hashId: string, name: string } | null } | null };

export const IssueTimeline_ItemFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"IssueTimeline_item"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"IssueTimelineItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"message"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"isInternal"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"cc"}},{"kind":"Field","name":{"kind":"Name","value":"emailHeaders"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"subject"}}]}},{"kind":"Field","name":{"kind":"Name","value":"files"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"identifier"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"auditEntry"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AuditEntry_issueEntry"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AuditEntry_issueEntry"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"IssueAuditEntry"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"changeType"}},{"kind":"Field","name":{"kind":"Name","value":"diff"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"actorName"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<IssueTimeline_ItemFragment, unknown>;