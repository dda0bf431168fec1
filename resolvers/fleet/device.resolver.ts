import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { parametersBodySchema, scheduleBodySchema } from '../../contracts/device';
import type { DeviceGroupView } from '../../contracts/device-group';
import { GridportError } from '../../contracts/errors';
import {
  adminDeviceListQuerySchema,
  customerDeviceListQuerySchema,
  customerDeviceUpdateSchema,
  deviceInvoiceDetailsSchema,
  deviceUpdateSchema,
  type DeviceCountView,
  type DeviceView,
  type SteeringResult as SteeringResultView,
} from '../../contracts/fleet';
import type { Page } from '../../contracts/pagination';
import { validate } from '../../contracts/validation';
import { isStaff } from '../../graph/common/context';
import { givenArguments } from '../../graph/common/graphql-args';
import { DeviceGroup } from '../../graph/fleet/types/device-group.type';
import { DeviceListArgs } from '../../graph/fleet/types/device.args';
import { DeviceInvoiceDetailsInput, DeviceOutageContactsInput, DeviceUpdateInput } from '../../graph/fleet/types/device.input';
import { Device, DeviceCount, DevicePage } from '../../graph/fleet/types/device.type';
import { OrganizationReference } from '../../graph/fleet/types/organization-reference.type';
import { ParametersInput, ScheduleInput } from '../../graph/fleet/types/steering.input';
import { SteeringResult } from '../../graph/fleet/types/steering.type';
import type { GraphqlContext } from '../graphql-context';
import type { ReferenceResolver } from '../subgraph';
import { Allowed } from '../access';

/** The input of a mutation as its yup schema expects it: members left out stay out; null stays null. */
function given<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * Devices in GraphQL, with the rules of the REST routes (enforced by the services): staff read
 * every device with the admin filters, customers the devices they may see with the status
 * filter; Ops and Developer update; steering as PUT /v2/schedule and PUT /v1/parameters.
 */
@Resolver(() => Device)
export class DeviceResolver {
  @Allowed('device.read', 'device.readVisible')
  @Query(() => Device)
  device(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<DeviceView> {
    return services.devices.get(actor, hashId);
  }

  @Allowed('device.list', 'device.listVisible')
  @Query(() => DevicePage, {
    description: 'Staff: every device, newest first, with the admin filters. Customers: the devices they may see, with status and a count.',
  })
  devices(@Args(() => DeviceListArgs) args: DeviceListArgs, @Ctx() { actor, services }: GraphqlContext): Promise<Page<DeviceView> & { count?: number }> {
    if (isStaff(actor)) {
      return services.devices.list(actor, validate(adminDeviceListQuerySchema, givenArguments(args), 'query_invalid'));
    }
    return services.devices.customerList(actor, validate(customerDeviceListQuerySchema, givenArguments(args), 'query_invalid'));
  }

  @Allowed('device.count')
  @Query(() => DeviceCount, { description: 'How many devices the actor may see: in all, operational and inactive.' })
  deviceCount(@Ctx() { actor, services }: GraphqlContext): Promise<DeviceCountView> {
    return services.devices.count(actor);
  }

  @FieldResolver(() => OrganizationReference, { nullable: true })
  organization(@Root() device: DeviceView): OrganizationReference | null {
    return device.organizationHashId === null ? null : { hashId: device.organizationHashId };
  }

  @FieldResolver(() => DeviceGroup, { nullable: true, description: 'Staff only, as over REST.' })
  deviceGroup(@Root() device: DeviceView, @Ctx() { loaders }: GraphqlContext): Promise<DeviceGroupView> | null {
    return device.deviceGroupHashId === null ? null : loaders.deviceGroup.load(device.deviceGroupHashId);
  }

  @Allowed('device.update')
  @Mutation(() => Device, { description: 'As PUT /console-admin/v1/device/{hashId} (Ops and Developer).' })
  updateDevice(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('input', () => DeviceUpdateInput) input: DeviceUpdateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<DeviceView> {
    return services.devices.update(actor, hashId, validate(deviceUpdateSchema, given(input), 'payload_invalid'));
  }

  @Allowed('device.updateInvoiceDetails')
  @Mutation(() => Device, { description: 'As PUT /console-admin/v1/device/{hashId}/invoice-details (Ops and Sales).' })
  updateDeviceInvoiceDetails(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('input', () => DeviceInvoiceDetailsInput) input: DeviceInvoiceDetailsInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<DeviceView> {
    return services.devices.updateInvoiceDetails(actor, hashId, validate(deviceInvoiceDetailsSchema, given(input), 'payload_invalid'));
  }

  @Allowed('device.updateOutageContacts')
  @Mutation(() => Device, { description: 'As PUT /console/v1/device/{hashId}.' })
  updateDeviceOutageContacts(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('input', () => DeviceOutageContactsInput) input: DeviceOutageContactsInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<DeviceView> {
    return services.devices.updateOutageContacts(actor, hashId, validate(customerDeviceUpdateSchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('steering.setSchedule')
  @Mutation(() => SteeringResult, { description: 'As PUT /v2/schedule: replaces the schedule of the assets or controllers with these identifiers.' })
  setSchedule(@Arg('input', () => ScheduleInput) input: ScheduleInput, @Ctx() { actor, services }: GraphqlContext): Promise<SteeringResultView> {
    return services.steering.setSchedule(actor, validate(scheduleBodySchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('steering.setParameters')
  @Mutation(() => SteeringResult, { description: 'As PUT /v1/parameters.' })
  setParameters(@Arg('input', () => ParametersInput) input: ParametersInput, @Ctx() { actor, services }: GraphqlContext): Promise<SteeringResultView> {
    return services.steering.setParameters(actor, validate(parametersBodySchema, givenArguments(input), 'payload_invalid'));
  }
}

/** A Device another subgraph refers to by its hash id, as the actor may see it. */
export const resolveDeviceReference: ReferenceResolver = (reference, { actor, services }) => {
  const { hashId } = reference;
  if (typeof hashId !== 'string') {
    throw new GridportError('not_found', { deviceHashId: null });
  }
  return services.devices.get(actor, hashId);
};
