import { GraphQLDateTimeISO } from '../../common/graphql-date-time';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type {
  AlarmCustomerMessageView,
  AlarmView,
  IssueCountView,
  IssueStatus,
  IssueView,
  NonUserParticipantView,
  ReplyHeadersView,
} from '../../../contracts/issue';
import type { NamedReference, UserReference } from '../../../contracts/references';
import { pageOf } from '../../common/graphql-page';
import { IssueStatusEnum } from './issue.enum';

/* Issues and alarms in GraphQL, as contracts/issue.ts views them. */

@ObjectType('IssueReference', { description: 'An organisation, device or user as an issue names it.' })
export class IssueReference implements NamedReference {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;
}

@ObjectType('IssueUser', { description: 'A user as an issue names them: a subscriber, the assignee, the author of a message.' })
export class IssueUser implements UserReference {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  email!: string;
}

@ObjectType('AlarmCustomerMessage', { description: "What an alarm's outage contacts are told." })
export class AlarmCustomerMessage implements AlarmCustomerMessageView {
  @Field(() => [String])
  to!: string[];

  @Field(() => String)
  markdown!: string;
}

@ObjectType('Alarm', { description: 'A monitor that fired (device-model.md 3.11).' })
export class Alarm implements AlarmView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String, { description: 'The monitor kind, such as device.disconnect.duration.' })
  monitor!: string;

  @Field(() => ID, { nullable: true })
  deviceHashId!: string | null;

  @Field(() => ID, { nullable: true })
  destinationHashId!: string | null;

  @Field(() => String, { nullable: true })
  assetIdentifier!: string | null;

  @Field(() => AlarmCustomerMessage, { nullable: true })
  customerMessage!: AlarmCustomerMessage | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  customerMessageSentAt!: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'Since when its condition has been clear.' })
  recoveringSince!: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  closedAt!: string | null;

  @Field(() => GraphQLDateTimeISO)
  createdAt!: string;
}

@ObjectType('NonUserParticipant', { description: "Someone outside every user list who takes part (a mail's sender)." })
export class NonUserParticipant implements NonUserParticipantView {
  @Field(() => String)
  email!: string;

  @Field(() => String, { nullable: true })
  name!: string | null;
}

@ObjectType('ReplyHeaders', { description: "The threading headers of the issue's mail." })
export class ReplyHeaders implements ReplyHeadersView {
  @Field(() => String, { nullable: true })
  messageId!: string | null;

  @Field(() => [String])
  references!: string[];
}

@ObjectType('Issue')
export class Issue implements IssueView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  title!: string;

  @Field(() => IssueStatusEnum)
  status!: IssueStatus;

  @Field(() => String, { description: 'How it began: monitoring, user, incoming-email, telephony, cloud.' })
  source!: string;

  @Field(() => Boolean, { description: 'Seen by staff only.' })
  internal!: boolean;

  @Field(() => Boolean, { description: 'Resolves itself when all its alarms have closed.' })
  autoClose!: boolean;

  @Field(() => Boolean, { description: 'Reopened by an alarm within 24 hours after it closed itself.' })
  canReopen!: boolean;

  @Field(() => [IssueUser], { description: 'A customer sees the subscribers of their own organisation.' })
  subscribers!: IssueUser[];

  @Field(() => IssueUser, { nullable: true })
  assignedUser!: IssueUser | null;

  @Field(() => String, { nullable: true })
  assignedEmail!: string | null;

  @Field(() => [NonUserParticipant])
  nonUserParticipants!: NonUserParticipant[];

  @Field(() => Boolean, { description: 'True when the provider handles the issue, false when the customer does.' })
  gridportIssueOwner!: boolean;

  @Field(() => IssueReference, { nullable: true })
  organization!: IssueReference | null;

  @Field(() => IssueReference, { nullable: true })
  device!: IssueReference | null;

  @Field(() => [Alarm])
  alarms!: Alarm[];

  @Field(() => ReplyHeaders)
  replyHeaders!: ReplyHeaders;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  nextActivityDueAt!: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  closedAt!: string | null;

  @Field(() => GraphQLDateTimeISO)
  createdAt!: string;

  @Field(() => GraphQLDateTimeISO)
  updatedAt!: string;

  @Field(() => Int, { description: 'Messages the caller may read (internal ones are not counted for a customer).' })
  messageCount!: number;
}

export const IssuePage = pageOf<IssueView>(Issue, 'IssuePage', {
  description: 'A page of issues in the order asked for.',
  nextPageOffset: 'The offset of the next page; null on the last page.',
});

@ObjectType('IssueCount', { description: 'The open issues the caller sees, those assigned to them, and to their organisation.' })
export class IssueCount implements IssueCountView {
  @Field(() => Int)
  openCount!: number;

  @Field(() => Int)
  assignedToMeCount!: number;

  @Field(() => Int)
  assignedToMyOrganizationCount!: number;
}
