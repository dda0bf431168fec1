import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { GridportError } from '../../contracts/errors';
import {
  deviceGroupApiKeySchema,
  deviceGroupCreateSchema,
  deviceGroupListQuerySchema,
  deviceGroupUpdateSchema,
  type DeviceGroupView,
} from '../../contracts/device-group';
import type { Page } from '../../contracts/pagination';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import { DeviceGroupListArgs } from '../../graph/fleet/types/device-group.args';
import { DeviceGroupCreateInput, DeviceGroupUpdateInput } from '../../graph/fleet/types/device-group.input';
import { DeviceGroup, DeviceGroupPage } from '../../graph/fleet/types/device-group.type';
import type { GraphqlContext } from '../graphql-context';
import type { ReferenceResolver } from '../subgraph';
import { Allowed } from '../access';

/** Device groups in GraphQL, as /console-admin/v1/device-group: employees read, Ops and Developer write. */
@Resolver(() => DeviceGroup)
export class DeviceGroupResolver {
  @Allowed('deviceGroup.read')
  @Query(() => DeviceGroup)
  deviceGroup(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<DeviceGroupView> {
    return services.deviceGroups.get(actor, hashId);
  }

  @Allowed('deviceGroup.list')
  @Query(() => DeviceGroupPage)
  deviceGroups(@Args(() => DeviceGroupListArgs) args: DeviceGroupListArgs, @Ctx() { actor, services }: GraphqlContext): Promise<Page<DeviceGroupView>> {
    return services.deviceGroups.list(actor, validate(deviceGroupListQuerySchema, givenArguments(args), 'query_invalid'));
  }

  @Allowed('deviceGroup.create')
  @Mutation(() => DeviceGroup)
  createDeviceGroup(
    @Arg('input', () => DeviceGroupCreateInput) input: DeviceGroupCreateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<DeviceGroupView> {
    return services.deviceGroups.create(actor, validate(deviceGroupCreateSchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('deviceGroup.update')
  @Mutation(() => DeviceGroup)
  updateDeviceGroup(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('input', () => DeviceGroupUpdateInput) input: DeviceGroupUpdateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<DeviceGroupView> {
    return services.deviceGroups.update(actor, hashId, validate(deviceGroupUpdateSchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('deviceGroup.delete')
  @Mutation(() => Boolean, { description: 'Deletes an empty group (not_empty otherwise).' })
  async deleteDeviceGroup(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<boolean> {
    await services.deviceGroups.delete(actor, hashId);
    return true;
  }

  @Allowed('deviceGroup.linkApiKey')
  @Mutation(() => Boolean, { description: 'Links an API key to a group: the key then sees only the devices of its linked groups.' })
  async linkDeviceGroupApiKey(
    @Arg('deviceGroupHashId', () => ID) deviceGroupHashId: string,
    @Arg('apiKeyHashId', () => ID) apiKeyHashId: string,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<boolean> {
    await services.deviceGroups.linkApiKey(actor, validate(deviceGroupApiKeySchema, { deviceGroupHashId, apiKeyHashId }, 'payload_invalid'));
    return true;
  }

  @Allowed('deviceGroup.unlinkApiKey')
  @Mutation(() => Boolean)
  async unlinkDeviceGroupApiKey(
    @Arg('deviceGroupHashId', () => ID) deviceGroupHashId: string,
    @Arg('apiKeyHashId', () => ID) apiKeyHashId: string,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<boolean> {
    await services.deviceGroups.unlinkApiKey(actor, validate(deviceGroupApiKeySchema, { deviceGroupHashId, apiKeyHashId }, 'payload_invalid'));
    return true;
  }
}

/** A DeviceGroup another subgraph refers to by its hash id, as the actor may see it (staff, as over REST). */
export const resolveDeviceGroupReference: ReferenceResolver = (reference, { loaders }) => {
  const { hashId } = reference;
  if (typeof hashId !== 'string') {
    throw new GridportError('not_found', { deviceGroupHashId: null });
  }
  return loaders.deviceGroup.load(hashId);
};
