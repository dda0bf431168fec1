import { Arg, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { IssueTimelineItemView } from '../../contracts/issue';
import { IssueTimelineItem } from '../../graph/operations/types/issue-message.type';
import type { GraphqlContext } from '../graphql-context';

/**
 * An issue's timeline, live, over graphql-ws (served beside the federated graph, as the device's
 * live data is): each message and audit entry the caller may read as it is written, from
 * whichever node wrote it. Who may subscribe is who may read the timeline.
 */
@Resolver()
export class IssueTimelineLiveResolver {
  @Subscription(() => IssueTimelineItem, {
    description: "The items added to the issue's timeline from now on (a customer never gets internal messages).",
    subscribe: ({ args, context }: SubscribeResolverData<unknown, { hashId: string }, GraphqlContext>) =>
      context.services.issues.watchTimeline(context.actor, args.hashId),
  })
  issueTimeline(@Root() item: IssueTimelineItemView, @Arg('hashId', () => ID) _hashId: string): IssueTimelineItemView {
    return item;
  }
}
