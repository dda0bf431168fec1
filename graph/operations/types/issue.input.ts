import { GraphQLDateTimeISO } from '../../common/graphql-date-time';
import { Field, ID, InputType } from 'type-graphql';

/* The bodies of the issue mutations; their rules are those of contracts/issue.ts. */

@InputType('IssueUpdateInput', { description: 'Only the fields given change; null clears the assignee or the next activity.' })
export class IssueUpdateInput {
  @Field(() => String, { nullable: true })
  title?: string;

  @Field(() => Boolean, { nullable: true })
  internal?: boolean;

  @Field(() => Boolean, { nullable: true })
  autoClose?: boolean;

  @Field(() => Boolean, { nullable: true })
  canReopen?: boolean;

  @Field(() => Boolean, { nullable: true })
  gridportIssueOwner?: boolean;

  @Field(() => ID, { nullable: true })
  assignedUserHashId?: string | null;

  @Field(() => String, { nullable: true })
  assignedEmail?: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  nextActivityDueAt?: Date | null;
}

@InputType('IssueMessageInput', {
  description: 'A message to an issue. Staff may make it internal, mail it (to, cc) and assign the issue; a customer sends the message and files only.',
})
export class IssueMessageInput {
  @Field(() => ID)
  issueHashId!: string;

  @Field(() => String)
  message!: string;

  @Field(() => Boolean, { nullable: true })
  isInternal?: boolean;

  @Field(() => [String], { nullable: true })
  to?: string[];

  @Field(() => [String], { nullable: true })
  cc?: string[];

  @Field(() => ID, { nullable: true })
  assignedUserHashId?: string | null;

  @Field(() => String, { nullable: true })
  assignedEmail?: string | null;

  @Field(() => [String], { nullable: true, description: 'Identifiers of your own uploads (POST /console/v1/file/upload), at most 10.' })
  fileIdentifiers?: string[];
}
