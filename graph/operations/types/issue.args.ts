import { ArgsType, Field, ID, Int } from 'type-graphql';
import type { IssueOwner, IssueSort, IssueStatus } from '../../../contracts/issue';
import { IssueOwnerEnum, IssueSortEnum, IssueStatusEnum } from './issue.enum';

/**
 * The arguments of `issues`: staff get the admin filters (issueAdminListQuerySchema), customers
 * the status and assignee filters (issueCustomerListQuerySchema), each checked by its schema.
 */
@ArgsType()
export class IssueListArgs {
  @Field(() => IssueSortEnum, { nullable: true })
  sortBy?: IssueSort | null;

  @Field(() => IssueStatusEnum, { nullable: true })
  status?: IssueStatus | null;

  @Field(() => ID, { nullable: true, description: 'Staff only.' })
  deviceHashId?: string | null;

  @Field(() => IssueOwnerEnum, { nullable: true, description: 'Staff only.' })
  owner?: IssueOwner | null;

  @Field(() => String, {
    nullable: true,
    description: 'Staff: a user hash id, me or none. Customers: myOrganization, me, gridport or external.',
  })
  assignee?: string | null;

  @Field(() => String, { nullable: true, description: 'Staff only: a user hash id or me.' })
  subscriber?: string | null;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true })
  rowsPerPage?: number | null;
}

/** The arguments of `issueTimeline`: the issue and a page (issueTimelineQuerySchema). */
@ArgsType()
export class IssueTimelineArgs {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true })
  rowsPerPage?: number | null;
}
