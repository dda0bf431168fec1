import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { GridportError } from '../../contracts/errors';
import type { GroupForwardingView } from '../../contracts/forwarding';
import { DeviceGroupReference } from '../../graph/forwarding/types/device-group-reference.type';
import { DeviceGroupMessageDestination } from '../../graph/forwarding/types/group-forwarding.type';
import type { GraphqlContext } from '../graphql-context';
import { Allowed } from '../access';
import type { ReferenceResolver } from '../subgraph';

/** What forwarding adds to the fleet's DeviceGroup: its forwardings, as GET /console-admin/v1/device-group/message-destination lists them. */
@Resolver(() => DeviceGroupReference)
export class DeviceGroupReferenceResolver {
  @Allowed('groupForwarding.list')
  @FieldResolver(() => [DeviceGroupMessageDestination], {
    description: "The group's forwardings to message destinations (destination, message types, settings), newest first; employees read, as over REST.",
  })
  messageDestinations(@Root() group: DeviceGroupReference, @Ctx() { loaders }: GraphqlContext): Promise<GroupForwardingView[]> {
    return loaders.groupForwardings.load(group.hashId);
  }
}

/** A DeviceGroup the fleet subgraph hands over by its hash id: the fleet has already checked that the actor may see it. */
export const resolveDeviceGroupReference: ReferenceResolver = (reference) => {
  const { hashId } = reference;
  if (typeof hashId !== 'string') {
    throw new GridportError('not_found', { deviceGroupHashId: null });
  }
  return Promise.resolve({ hashId });
};
