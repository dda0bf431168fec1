import { Arg, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { IssueTimelineItemView } from '../../contracts/issue';
import { IssueTimelineItem } from '../../graph/operations/types/issue-message.type';
import type { GraphqlContext } from '../graphql-context';

interface IssueTimelineArgs {
  hashId: string;
  after?: string | null;
}

/**
 * An issue's timeline, live, over graphql-ws (served beside the federated graph, as the device's
 * live data is): each message and audit entry the caller may read as it is written, from
 * whichever node wrote it. Who may subscribe is who may read the timeline.
 */
@Resolver()
export class IssueTimelineLiveResolver {
  @Subscription(() => IssueTimelineItem, {
    description:
      "The items added to the issue's timeline: after the item whose cursor is given as after, else from now on (a customer never gets internal messages).",
    subscribe: ({ args, context }: SubscribeResolverData<unknown, IssueTimelineArgs, GraphqlContext>) =>
      context.services.issues.watchTimeline(context.actor, args.hashId, args.after),
  })
  issueTimeline(
    @Root() item: IssueTimelineItemView | Error,
    @Arg('hashId', () => ID) _hashId: string,
    @Arg('after', () => String, { nullable: true, description: "A timeline item's cursor (as the issueTimeline query gives it)." }) _after: string | null,
  ): IssueTimelineItemView {
    if (item instanceof Error) {
      throw item;
    }
    return item;
  }
}
