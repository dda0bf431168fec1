import { GraphQLJSON } from 'graphql-scalars';
import { GraphQLDateTimeISO } from '../../common/graphql-date-time';
import { Field, Float, ID, ObjectType } from 'type-graphql';
import type { AuditChangeType, AuditLogRowView, AuditObjectType, DiffEntry } from '../../../contracts/audit-log';
import type {
  EmailHeadersView,
  IssueFileView,
  IssueMessageSource,
  IssueMessageView,
  IssueTimelineItemKind,
  IssueTimelineItemView,
} from '../../../contracts/issue';
import { pageOf } from '../../common/graphql-page';
import { AuditChangeTypeEnum, AuditObjectTypeEnum } from '../../identity/types/audit-log.enum';
import { IssueMessageSourceEnum, IssueTimelineItemKindEnum } from './issue.enum';
import { IssueReference, IssueUser } from './issue.type';

/* Issue messages and timelines in GraphQL, as contracts/issue.ts views them. */

@ObjectType('EmailHeaders', { description: 'The headers of a mail that became a message.' })
export class EmailHeaders implements EmailHeadersView {
  @Field(() => String)
  from!: string;

  @Field(() => [String])
  to!: string[];

  @Field(() => [String])
  cc!: string[];

  @Field(() => String)
  subject!: string;

  @Field(() => String, { nullable: true })
  messageId!: string | null;

  @Field(() => String, { nullable: true })
  inReplyTo!: string | null;

  @Field(() => [String])
  references!: string[];

  @Field(() => String, { nullable: true })
  date!: string | null;
}

@ObjectType('IssueFile', { description: 'A file attached to a message; url serves it to who may see the issue.' })
export class IssueFile implements IssueFileView {
  @Field(() => String)
  identifier!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  contentType!: string;

  @Field(() => Float, { description: 'Bytes.' })
  size!: number;

  @Field(() => String)
  url!: string;
}

@ObjectType('IssueMessage', { description: 'A message of an issue timeline.' })
export class IssueMessage implements IssueMessageView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => ID)
  issueHashId!: string;

  @Field(() => IssueMessageSourceEnum)
  source!: IssueMessageSource;

  @Field(() => IssueUser, { nullable: true, description: 'Who wrote it; null for Gridport itself or a mail from outside.' })
  user!: IssueUser | null;

  @Field(() => String)
  message!: string;

  @Field(() => Boolean, { description: 'Seen by staff only; only internal messages can be edited.' })
  isInternal!: boolean;

  @Field(() => [String])
  to!: string[];

  @Field(() => [String])
  cc!: string[];

  @Field(() => EmailHeaders, { nullable: true })
  emailHeaders!: EmailHeaders | null;

  @Field(() => [IssueFile])
  files!: IssueFile[];

  @Field(() => GraphQLDateTimeISO)
  createdAt!: string;

  @Field(() => GraphQLDateTimeISO)
  updatedAt!: string;
}

export const IssueMessagePage = pageOf<IssueMessageView>(IssueMessage, 'IssueMessagePage', {
  description: 'A page of messages, oldest first.',
  nextPageOffset: 'The offset of the next page; null on the last page.',
});

@ObjectType('IssueAuditEntry', { description: 'A change to an issue, as the audit log records it.' })
export class IssueAuditEntry implements AuditLogRowView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  transactionIdentifier!: string;

  @Field(() => ID)
  objectHashId!: string;

  @Field(() => AuditObjectTypeEnum)
  objectType!: AuditObjectType;

  @Field(() => AuditChangeTypeEnum)
  changeType!: AuditChangeType;

  @Field(() => [GraphQLJSON], { description: 'The fields that changed, each { type, name, ... } as in the audit log.' })
  diff!: DiffEntry[];

  @Field(() => IssueReference, { nullable: true, description: 'Null when Gridport itself, an API key or the command line made the change.' })
  user!: IssueReference | null;

  @Field(() => String)
  actorName!: string;

  @Field(() => GraphQLDateTimeISO)
  createdAt!: string;
}

@ObjectType('IssueTimelineItem', { description: 'A message or an audit log entry of an issue; the one its kind names is set.' })
export class IssueTimelineItem implements IssueTimelineItemView {
  @Field(() => IssueTimelineItemKindEnum)
  kind!: IssueTimelineItemKind;

  @Field(() => String, { description: 'Where the item stands: pass it as after to the issueTimeline subscription to miss nothing after it.' })
  cursor!: string;

  @Field(() => GraphQLDateTimeISO)
  createdAt!: string;

  @Field(() => IssueMessage, { nullable: true })
  message!: IssueMessage | null;

  @Field(() => IssueAuditEntry, { nullable: true })
  auditEntry!: IssueAuditEntry | null;
}

export const IssueTimelinePage = pageOf<IssueTimelineItemView>(IssueTimelineItem, 'IssueTimelinePage', {
  description: "A page of an issue's timeline, oldest first.",
  nextPageOffset: 'The offset of the next page; null on the last page.',
});
