import { Arg, Ctx, ID, Query, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import { liveEvents, type LiveEvent } from '../../graph/common/live';
import { authorize } from '../../graph/common/context';
import { DevicePresenceEvent, DeviceReportEvent } from '../../graph/live/live.type';
import type { GraphqlContext } from '../graphql-context';

interface DeviceArgs {
  hashId: string;
  types?: string[] | null;
}

/** The live events of a device the actor may see (the rule of the device query: a console session), as an async iterator. */
async function eventsOf(
  { args, context }: SubscribeResolverData<unknown, DeviceArgs, GraphqlContext>,
  kind: LiveEvent['kind'],
): Promise<AsyncIterable<LiveEvent>> {
  authorize(context.actor, 'device.read', 'device.readVisible');
  const device = await context.services.devices.find(context.actor, args.hashId);
  const types = args.types && args.types.length > 0 ? new Set(args.types) : null;
  return liveEvents(
    context.services.pubsub,
    device.id,
    (event) => event.kind === kind && (event.kind !== 'report' || types === null || types.has(event.report.type)),
  );
}

/**
 * Live device data over graphql-ws (the gateway of the federated graph does not carry
 * subscriptions, so these are served beside it at the same /graphql path): stored reports and
 * presence, from whichever node holds the gateway's connection.
 */
@Resolver()
export class DeviceLiveResolver {
  @Query(() => Boolean, { description: 'Whether live subscriptions are served here (always true); a query root GraphQL requires.' })
  liveSubscriptions(): boolean {
    return true;
  }

  @Subscription(() => DeviceReportEvent, {
    description: "The device's reports as they are stored, optionally of some types only.",
    subscribe: (data) => eventsOf(data as SubscribeResolverData<unknown, DeviceArgs, GraphqlContext>, 'report'),
  })
  deviceReports(
    @Root() event: LiveEvent,
    @Arg('hashId', () => ID) hashId: string,
    @Arg('types', () => [String], { nullable: true }) _types: string[] | null,
  ): DeviceReportEvent {
    if (event.kind !== 'report') {
      throw new Error('a presence event on the report stream');
    }
    const { deviceId: _deviceId, ...report } = event.report;
    return { deviceHashId: hashId, ...report };
  }

  @Subscription(() => DevicePresenceEvent, {
    description: "The device's gateway connecting and going away.",
    subscribe: (data) => eventsOf(data as SubscribeResolverData<unknown, DeviceArgs, GraphqlContext>, 'presence'),
  })
  devicePresence(@Root() event: LiveEvent, @Arg('hashId', () => ID) hashId: string, @Ctx() _context: GraphqlContext): DevicePresenceEvent {
    if (event.kind !== 'presence') {
      throw new Error('a report event on the presence stream');
    }
    return { deviceHashId: hashId, online: event.online, networkInterface: event.networkInterface };
  }
}
