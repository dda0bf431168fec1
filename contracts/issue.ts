import * as yup from 'yup';
import type { AuditLogRowView } from './audit-log';
import { plausibleDate } from './dates';
import { pageSchema, paginationQuery } from './pagination';
import type { NamedReference, UserReference } from './references';
import { emailSchema } from './user';

/** Issue limits (console.md sections 5 and 9; spec README "Operations"). */
export const issueLimits = {
  titleLength: 256,
  /** Longest message text, in characters (not in the spec; a long mail fits). */
  messageLength: 100_000,
  /** Most `to` and most `cc` addresses of one message. */
  recipients: 50,
  /** Most file identifiers a request may name at all: beyond fileLimits.filesPerMessage the answer is too_many_files, beyond this payload_invalid. */
  fileIdentifiersMax: 1000,
  /** Most users added or removed as subscribers in one request. */
  subscribersPerRequest: 100,
} as const;

/** Issue states (console.md section 4): open, or resolved (closedAt set). */
export const issueStatuses = ['open', 'resolved'] as const;
export type IssueStatus = (typeof issueStatuses)[number];

/** Sorts of the admin issue list (console.md section 7). createdAt sorts follow creation order. */
export const issueSorts = ['createdAtDesc', 'createdAtAsc', 'nextActivityDueAt'] as const;
export type IssueSort = (typeof issueSorts)[number];

/** Who handles an issue, as the admin owner filter names it: the provider (gridportIssueOwner true) or the customer. */
export const issueOwners = ['gridport', 'customer'] as const;
export type IssueOwner = (typeof issueOwners)[number];

/**
 * The customer assignee filter (console.md section 7, spec README "Issue owner"): assigned to a
 * user of the caller's organisation, to the caller, owned by the provider, or assigned to an
 * email outside every organisation.
 */
export const customerIssueAssignees = ['myOrganization', 'me', 'gridport', 'external'] as const;
export type CustomerIssueAssignee = (typeof customerIssueAssignees)[number];

/** Message sources (console.md section 3). */
export const issueMessageSources = ['monitoring', 'cloud', 'user', 'incoming-email', 'github'] as const;
export type IssueMessageSource = (typeof issueMessageSources)[number];

const hashId = yup.string().trim().min(1).max(64);
const title = yup.string().trim().min(1).max(issueLimits.titleLength);
const message = yup.string().trim().min(1).max(issueLimits.messageLength);
const recipients = yup.array(emailSchema.required()).max(issueLimits.recipients);
const fileIdentifiers = yup.array(yup.string().trim().min(1).max(64).required()).max(issueLimits.fileIdentifiersMax);

/**
 * GET /console-admin/v1/issue. `assignee` is a user's hash id, `me` or `none`; `subscriber` a
 * user's hash id or `me`; `deviceHashId` the device the issue is about.
 */
export const issueAdminListQuerySchema = yup
  .object({
    ...paginationQuery,
    sortBy: yup.string().oneOf(issueSorts).default('createdAtDesc'),
    status: yup.string().oneOf(issueStatuses).optional(),
    deviceHashId: hashId.optional(),
    owner: yup.string().oneOf(issueOwners).optional(),
    assignee: hashId.optional(),
    subscriber: hashId.optional(),
  })
  .exact();

/** GET /console/v1/issue: the issues the caller may see, newest first unless sorted otherwise. */
export const issueCustomerListQuerySchema = yup
  .object({
    ...paginationQuery,
    sortBy: yup.string().oneOf(issueSorts).default('createdAtDesc'),
    status: yup.string().oneOf(issueStatuses).optional(),
    assignee: yup.string().oneOf(customerIssueAssignees).optional(),
  })
  .exact();

/** GET .../issue/{hashId}/timeline and GET /console/v1/issue/{issueHashId}/message: oldest first, a page at a time. */
export const issueTimelineQuerySchema = yup.object({ ...paginationQuery }).exact();

/** Path of the customer message and subscription routes. */
export const issueHashIdParams = yup.object({ issueHashId: hashId.required() }).exact();

/**
 * PUT /console-admin/v1/issue/{hashId}: only the fields given change. An internal issue takes
 * only assignees of the provider (internal_issue_external_assignee).
 */
export const issueUpdateSchema = yup
  .object({
    title: title.optional(),
    internal: yup.boolean().optional(),
    autoClose: yup.boolean().optional(),
    canReopen: yup.boolean().optional(),
    gridportIssueOwner: yup.boolean().optional(),
    assignedUserHashId: hashId.nullable().optional(),
    assignedEmail: emailSchema.nullable().optional(),
    nextActivityDueAt: plausibleDate().nullable().optional(),
  })
  .exact();

/** PUT .../resolve and .../reopen: a silent change writes no timeline message and tells nobody. */
export const issueStateChangeSchema = yup.object({ silent: yup.boolean().default(false) }).exact();

/** POST and DELETE /console-admin/v1/issue/{hashId}/subscriber. */
export const issueSubscribersSchema = yup
  .object({ userHashIds: yup.array(hashId.required()).min(1).max(issueLimits.subscribersPerRequest).required() })
  .exact();

/**
 * POST /console-admin/v1/issue-messages (console.md section 3, "Issue message (add)"): a message
 * mailed to `to` and `cc` when given; it may assign the issue as it goes, and attach uploads.
 */
export const issueMessageCreateSchema = yup
  .object({
    issueHashId: hashId.required(),
    message: message.required(),
    isInternal: yup.boolean().default(false),
    to: recipients.default([]),
    cc: recipients.default([]),
    assignedUserHashId: hashId.nullable().optional(),
    assignedEmail: emailSchema.nullable().optional(),
    fileIdentifiers: fileIdentifiers.default([]),
  })
  .exact()
  .test('internal-not-mailed', function internalNotMailed(value) {
    if (value.isInternal && value.to.length + value.cc.length > 0) {
      return this.createError({ path: 'to', message: 'An internal message is not mailed: leave to and cc empty' });
    }
    return true;
  });

/** POST /console/v1/issue/{issueHashId}/message: a customer's message (never internal, never mailed by the customer). */
export const issueCustomerMessageCreateSchema = yup
  .object({
    message: message.required(),
    fileIdentifiers: fileIdentifiers.default([]),
  })
  .exact();

/** PUT /console-admin/v1/issue-messages/{hashId}: only internal messages (only_internal_message_updates). */
export const issueMessageUpdateSchema = yup.object({ message: message.required() }).exact();

export type IssueAdminListQuery = yup.InferType<typeof issueAdminListQuerySchema>;
export type IssueCustomerListQuery = yup.InferType<typeof issueCustomerListQuerySchema>;
export type IssueTimelineQuery = yup.InferType<typeof issueTimelineQuerySchema>;
export type IssueUpdate = yup.InferType<typeof issueUpdateSchema>;
export type IssueStateChange = yup.InferType<typeof issueStateChangeSchema>;
export type IssueSubscribers = yup.InferType<typeof issueSubscribersSchema>;
export type IssueMessageCreate = yup.InferType<typeof issueMessageCreateSchema>;
export type IssueCustomerMessageCreate = yup.InferType<typeof issueCustomerMessageCreateSchema>;
export type IssueMessageUpdate = yup.InferType<typeof issueMessageUpdateSchema>;

/** What an outage contact is told of an alarm. */
export interface AlarmCustomerMessageView {
  to: string[];
  markdown: string;
}

/** An alarm (console.md section 3). */
export interface AlarmView {
  hashId: string;
  monitor: string;
  deviceHashId: string | null;
  destinationHashId: string | null;
  assetIdentifier: string | null;
  customerMessage: AlarmCustomerMessageView | null;
  customerMessageSentAt: string | null;
  recoveringSince: string | null;
  closedAt: string | null;
  createdAt: string;
}

/** Someone outside every user list who takes part in an issue (a mail's sender). */
export interface NonUserParticipantView {
  email: string;
  name: string | null;
}

/** The threading headers of an issue's mail. */
export interface ReplyHeadersView {
  messageId: string | null;
  references: string[];
}

/** An issue with every field of console.md section 3, and its status, source and organisation. */
export interface IssueView {
  hashId: string;
  title: string;
  status: IssueStatus;
  /** How it began: monitoring, user, incoming-email, telephony, cloud. */
  source: string;
  internal: boolean;
  autoClose: boolean;
  canReopen: boolean;
  /** Users told of the issue's messages (a customer sees those of their own organisation). */
  subscribers: UserReference[];
  assignedUser: UserReference | null;
  assignedEmail: string | null;
  nonUserParticipants: NonUserParticipantView[];
  gridportIssueOwner: boolean;
  organization: NamedReference | null;
  device: NamedReference | null;
  alarms: AlarmView[];
  replyHeaders: ReplyHeadersView;
  nextActivityDueAt: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Messages the caller may read (a customer's count leaves internal messages out). */
  messageCount: number;
}

/** The headers of a mail that became a message. */
export interface EmailHeadersView {
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  date: string | null;
}

/** A file attached to a message; `url` serves it (GET /console/v1/file/{fileIdentifier}). */
export interface IssueFileView {
  identifier: string;
  name: string;
  contentType: string;
  size: number;
  url: string;
}

/** A timeline message (console.md section 3). */
export interface IssueMessageView {
  hashId: string;
  issueHashId: string;
  source: IssueMessageSource;
  user: UserReference | null;
  message: string;
  isInternal: boolean;
  to: string[];
  cc: string[];
  emailHeaders: EmailHeadersView | null;
  files: IssueFileView[];
  createdAt: string;
  updatedAt: string;
}

export const issueTimelineItemKinds = ['message', 'audit'] as const;
export type IssueTimelineItemKind = (typeof issueTimelineItemKinds)[number];

/** One item of an issue's timeline: a message or an audit log entry of the issue. */
export interface IssueTimelineItemView {
  kind: IssueTimelineItemKind;
  /** Where the item stands in the timeline: pass it as `after` to the issueTimeline subscription to miss nothing after it. */
  cursor: string;
  createdAt: string;
  message: IssueMessageView | null;
  auditEntry: AuditLogRowView | null;
}

/** GET /console/v1/issue/count. */
export interface IssueCountView {
  openCount: number;
  assignedToMeCount: number;
  assignedToMyOrganizationCount: number;
}

const named = yup.object({ hashId: yup.string().required(), name: yup.string().required() });
const userReference = named.shape({ email: yup.string().required() });
const isoDate = yup.string().nullable().defined();

export const alarmViewSchema = yup.object({
  hashId: yup.string().required(),
  monitor: yup.string().required(),
  deviceHashId: yup.string().nullable().defined(),
  destinationHashId: yup.string().nullable().defined(),
  assetIdentifier: yup.string().nullable().defined(),
  customerMessage: yup
    .object({ to: yup.array(yup.string().required()).required(), markdown: yup.string().required() })
    .nullable()
    .default(null),
  customerMessageSentAt: isoDate,
  recoveringSince: isoDate,
  closedAt: isoDate,
  createdAt: yup.string().required(),
});

export const issueViewSchema = yup.object({
  hashId: yup.string().required(),
  title: yup.string().required(),
  status: yup.string().oneOf(issueStatuses).required(),
  source: yup.string().required(),
  internal: yup.boolean().required(),
  autoClose: yup.boolean().required(),
  canReopen: yup.boolean().required(),
  subscribers: yup.array(userReference).required(),
  assignedUser: userReference.nullable().default(null),
  assignedEmail: yup.string().nullable().defined(),
  nonUserParticipants: yup.array(yup.object({ email: yup.string().required(), name: yup.string().nullable().defined() })).required(),
  gridportIssueOwner: yup.boolean().required(),
  organization: named.nullable().default(null),
  device: named.nullable().default(null),
  alarms: yup.array(alarmViewSchema).required(),
  replyHeaders: yup.object({ messageId: yup.string().nullable().defined(), references: yup.array(yup.string().required()).required() }).required(),
  nextActivityDueAt: isoDate,
  closedAt: isoDate,
  createdAt: yup.string().required(),
  updatedAt: yup.string().required(),
  messageCount: yup.number().integer().required(),
});

export const issuePageSchema = pageSchema(issueViewSchema);

export const issueMessageViewSchema = yup.object({
  hashId: yup.string().required(),
  issueHashId: yup.string().required(),
  source: yup.string().oneOf(issueMessageSources).required(),
  user: userReference.nullable().default(null),
  message: yup.string().required(),
  isInternal: yup.boolean().required(),
  to: yup.array(yup.string().required()).required(),
  cc: yup.array(yup.string().required()).required(),
  emailHeaders: yup.object().nullable().default(null),
  files: yup
    .array(
      yup.object({
        identifier: yup.string().required(),
        name: yup.string().required(),
        contentType: yup.string().required(),
        size: yup.number().required(),
        url: yup.string().required(),
      }),
    )
    .required(),
  createdAt: yup.string().required(),
  updatedAt: yup.string().required(),
});

export const issueMessagePageSchema = pageSchema(issueMessageViewSchema);

export const issueTimelineItemViewSchema = yup.object({
  kind: yup.string().oneOf(issueTimelineItemKinds).required(),
  cursor: yup.string().required(),
  createdAt: yup.string().required(),
  message: issueMessageViewSchema.nullable().default(null),
  auditEntry: yup.object().nullable().default(null),
});

export const issueTimelinePageSchema = pageSchema(issueTimelineItemViewSchema);

export const issueCountViewSchema = yup.object({
  openCount: yup.number().integer().required(),
  assignedToMeCount: yup.number().integer().required(),
  assignedToMyOrganizationCount: yup.number().integer().required(),
});
