import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { typeGraphqlPubSub } from '../../graph/common/live';
import type { PubSub } from '../../graph/common/pubsub';
import { DeviceLiveResolver } from './device-live.resolver';
import { IssueTimelineLiveResolver } from '../operations/issue-timeline.resolver';

/** The schema graphql-ws serves: live device data and issue timelines (subscriptions), beside the federated graph. */
export function buildLiveSchema(pubsub: PubSub): Promise<GraphQLSchema> {
  return buildSchema({ resolvers: [DeviceLiveResolver, IssueTimelineLiveResolver], validate: false, pubSub: typeGraphqlPubSub(pubsub) });
}
