import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import {
  issueStateChangeSchema,
  issueSubscribersSchema,
  issueTimelineQuerySchema,
  issueUpdateSchema,
  type IssueCountView,
  type IssueTimelineItemView,
  type IssueView,
} from '../../contracts/issue';
import type { Page } from '../../contracts/pagination';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import { IssueListArgs, IssueTimelineArgs } from '../../graph/operations/types/issue.args';
import { IssueUpdateInput } from '../../graph/operations/types/issue.input';
import { IssueTimelinePage } from '../../graph/operations/types/issue-message.type';
import { Issue, IssueCount, IssuePage } from '../../graph/operations/types/issue.type';
import type { GraphqlContext } from '../graphql-context';
import { Allowed } from '../access';

/**
 * Issues in GraphQL, as /console-admin/v1/issue and /console/v1/issue: staff see and manage every
 * issue, customers the issues of their organisation and of the devices they may see.
 */
@Resolver(() => Issue)
export class IssueResolver {
  @Allowed('issue.list', 'issue.listVisible')
  @Query(() => IssuePage, { description: 'Staff: every issue with the admin filters and sorts. Customers: the issues they may see.' })
  issues(@Args(() => IssueListArgs) args: IssueListArgs, @Ctx() { actor, services }: GraphqlContext): Promise<Page<IssueView>> {
    return services.issues.search(actor, givenArguments(args));
  }

  @Allowed('issue.read', 'issue.readVisible')
  @Query(() => Issue)
  issue(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<IssueView> {
    return services.issues.get(actor, hashId);
  }

  @Allowed('issue.read', 'issue.readVisible')
  @Query(() => IssueTimelinePage, { description: "The issue's messages and audit entries merged, oldest first (a customer never sees internal messages)." })
  issueTimeline(@Args(() => IssueTimelineArgs) args: IssueTimelineArgs, @Ctx() { actor, services }: GraphqlContext): Promise<Page<IssueTimelineItemView>> {
    const { hashId, ...page } = givenArguments(args);
    return services.issues.timeline(actor, hashId ?? '', validate(issueTimelineQuerySchema, page, 'query_invalid'));
  }

  @Allowed('issue.countVisible')
  @Query(() => IssueCount, { description: 'The open issues the caller sees, those assigned to them, and to their organisation.' })
  issueCount(@Ctx() { actor, services }: GraphqlContext): Promise<IssueCountView> {
    return services.issues.count(actor);
  }

  @Allowed('issue.update')
  @Mutation(() => Issue)
  updateIssue(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('input', () => IssueUpdateInput) input: IssueUpdateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<IssueView> {
    return services.issues.update(actor, hashId, validate(issueUpdateSchema, { ...input }, 'payload_invalid'));
  }

  @Allowed('issue.resolve')
  @Mutation(() => Issue, { description: 'Resolves an open issue (already_resolved otherwise); silent leaves no timeline message.' })
  resolveIssue(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('silent', () => Boolean, { nullable: true }) silent: boolean | null,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<IssueView> {
    return services.issues.resolve(actor, hashId, validate(issueStateChangeSchema, givenArguments({ silent }), 'payload_invalid'));
  }

  @Allowed('issue.reopen')
  @Mutation(() => Issue, { description: 'Reopens a resolved issue (already_open otherwise); silent leaves no timeline message.' })
  reopenIssue(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('silent', () => Boolean, { nullable: true }) silent: boolean | null,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<IssueView> {
    return services.issues.reopen(actor, hashId, validate(issueStateChangeSchema, givenArguments({ silent }), 'payload_invalid'));
  }

  @Allowed('issue.subscribe')
  @Mutation(() => Issue, { description: 'The caller follows the issue: its messages are mailed to them.' })
  subscribeToIssue(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<IssueView> {
    return services.issues.subscribe(actor, hashId, true);
  }

  @Allowed('issue.subscribe')
  @Mutation(() => Issue)
  unsubscribeFromIssue(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<IssueView> {
    return services.issues.subscribe(actor, hashId, false);
  }

  @Allowed('issue.manageSubscribers')
  @Mutation(() => Issue, { description: 'Subscribes users to the issue; each must be able to see it.' })
  addIssueSubscribers(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('userHashIds', () => [ID]) userHashIds: string[],
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<IssueView> {
    const input = validate(issueSubscribersSchema, { userHashIds }, 'payload_invalid');
    return services.issues.changeSubscribersOf(actor, hashId, input.userHashIds, true);
  }

  @Allowed('issue.manageSubscribers')
  @Mutation(() => Issue)
  removeIssueSubscribers(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('userHashIds', () => [ID]) userHashIds: string[],
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<IssueView> {
    const input = validate(issueSubscribersSchema, { userHashIds }, 'payload_invalid');
    return services.issues.changeSubscribersOf(actor, hashId, input.userHashIds, false);
  }
}
