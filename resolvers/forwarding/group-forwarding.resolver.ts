import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { groupForwardingCreateSchema, groupForwardingListQuerySchema, groupForwardingUpdateSchema, type GroupForwardingView } from '../../contracts/forwarding';
import type { Page } from '../../contracts/pagination';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import { DeviceGroupMessageDestinationListArgs } from '../../graph/forwarding/types/group-forwarding.args';
import { DeviceGroupMessageDestinationCreateInput, DeviceGroupMessageDestinationUpdateInput } from '../../graph/forwarding/types/group-forwarding.input';
import { DeviceGroupMessageDestination, DeviceGroupMessageDestinationPage } from '../../graph/forwarding/types/group-forwarding.type';
import type { GraphqlContext } from '../graphql-context';
import { Allowed } from '../access';

/** The forwarding of device groups in GraphQL, as /console-admin/v1/device-group/message-destination: employees read, Ops and Developer write. */
@Resolver(() => DeviceGroupMessageDestination)
export class GroupForwardingResolver {
  @Allowed('groupForwarding.read')
  @Query(() => DeviceGroupMessageDestination)
  deviceGroupMessageDestination(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<GroupForwardingView> {
    return services.groupForwarding.get(actor, hashId);
  }

  @Allowed('groupForwarding.list')
  @Query(() => DeviceGroupMessageDestinationPage, { description: "A device group's forwardings, a destination's, or both's, newest first." })
  deviceGroupMessageDestinations(
    @Args(() => DeviceGroupMessageDestinationListArgs) args: DeviceGroupMessageDestinationListArgs,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<Page<GroupForwardingView>> {
    return services.groupForwarding.list(actor, validate(groupForwardingListQuerySchema, givenArguments(args), 'query_invalid'));
  }

  @Allowed('groupForwarding.create')
  @Mutation(() => DeviceGroupMessageDestination, {
    description: 'At most 3 destinations per message type of a group (max_destinations_reached); a pair once (already_configured).',
  })
  addDeviceGroupMessageDestination(
    @Arg('input', () => DeviceGroupMessageDestinationCreateInput) input: DeviceGroupMessageDestinationCreateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<GroupForwardingView> {
    return services.groupForwarding.add(actor, validate(groupForwardingCreateSchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('groupForwarding.update')
  @Mutation(() => DeviceGroupMessageDestination)
  updateDeviceGroupMessageDestination(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('input', () => DeviceGroupMessageDestinationUpdateInput) input: DeviceGroupMessageDestinationUpdateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<GroupForwardingView> {
    return services.groupForwarding.update(actor, hashId, validate(groupForwardingUpdateSchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('groupForwarding.delete')
  @Mutation(() => Boolean, { description: 'Stops forwarding a device group to a destination.' })
  async removeDeviceGroupMessageDestination(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<boolean> {
    await services.groupForwarding.remove(actor, hashId);
    return true;
  }
}
