import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { typeGraphqlPubSub } from '../../device-hub/live';
import type { PubSub } from '../../device-hub/pubsub';
import { DeviceLiveResolver } from '../../resolvers/live/device-live.resolver';

/** The schema graphql-ws serves: live device data (subscriptions), beside the federated graph. */
export function buildLiveSchema(pubsub: PubSub): Promise<GraphQLSchema> {
  return buildSchema({ resolvers: [DeviceLiveResolver], validate: false, pubSub: typeGraphqlPubSub(pubsub) });
}
