import { GraphQLJSON } from 'graphql-scalars';
import { ArgsType, Directive, Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import {
  cloudApiLevels,
  deviceStatuses,
  partnershipRoles,
  type CloudApiLevel,
  type DeviceAssetView,
  type DeviceControllerView,
  type DevicePartnershipView,
  type DeviceStatus,
  type DeviceView,
  type PartnershipRole,
  type SteeringResult as SteeringResultView,
} from '../../../contracts/fleet';
import type { Page } from '../../../contracts/pagination';
import { graphqlEnum } from '../../common/graphql-enum';

/*
 * The fleet's GraphQL shapes. The rules of every argument and input are the yup schemas of
 * contracts/fleet.ts and contracts/device, the same as over REST.
 */

export const CloudApiLevelEnum = graphqlEnum('CloudApiLevel', cloudApiLevels, 'Whether the public API may read a device, and also steer it.');
export const PartnershipRoleEnum = graphqlEnum('PartnershipRole', partnershipRoles, 'What a partner may do with shared devices.');
export const DeviceStatusEnum = graphqlEnum('DeviceStatus', deviceStatuses, 'The customer device list status filter.');

/** An organisation as the fleet refers to it; the identity subgraph resolves its fields. */
@ObjectType('Organization')
@Directive('@key(fields: "hashId", resolvable: false)')
export class OrganizationReference {
  @Field(() => ID)
  hashId!: string;
}

@ObjectType('DeviceUser', { description: 'A user told of outages.' })
export class DeviceUser {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  email!: string;
}

@ObjectType('DeviceAsset', { description: 'An asset of a device config, with its schedule.' })
export class DeviceAsset implements DeviceAssetView {
  @Field(() => Int)
  index!: number;

  @Field(() => String, { nullable: true })
  category!: string | null;

  @Field(() => String)
  type!: string;

  @Field(() => String, { nullable: true })
  identifier!: string | null;

  @Field(() => Float, { nullable: true, description: 'W.' })
  nominalActivePower!: number | null;

  @Field(() => [GraphQLJSON], { description: 'Schedule items: startAt, endAt, command.' })
  schedule!: unknown[];
}

@ObjectType('DeviceController', { description: 'An active-control loop of a device config, with its schedule.' })
export class DeviceController implements DeviceControllerView {
  @Field(() => Int)
  index!: number;

  @Field(() => String)
  type!: string;

  @Field(() => String, { nullable: true })
  identifier!: string | null;

  @Field(() => [GraphQLJSON])
  schedule!: unknown[];
}

@ObjectType('DevicePartnership', { description: 'A partnership through which a device is shared.' })
export class DevicePartnership {
  @Field(() => ID)
  hashId!: string;

  @Field(() => PartnershipRoleEnum)
  role!: PartnershipRole;

  @Field(() => String)
  description!: string;

  @Field(() => Boolean)
  allDevices!: boolean;

  @Field(() => OrganizationReference)
  owner!: DevicePartnershipView['owner'];

  @Field(() => OrganizationReference)
  partner!: DevicePartnershipView['partner'];
}

@ObjectType('DeviceSession')
export class DeviceSession {
  @Field(() => String, { nullable: true, description: 'eth0, eth1 or cellular.' })
  networkInterface!: string | null;
}

@ObjectType('Device', { description: 'A gateway on site and the assets it runs.' })
@Directive('@key(fields: "hashId")')
export class Device {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { description: 'The placeholder text until the device first connects.' })
  identifier!: string;

  @Field(() => ID, { nullable: true })
  organizationHashId!: string | null;

  @Field(() => OrganizationReference, { nullable: true })
  organization?: OrganizationReference | null;

  @Field(() => ID, { nullable: true })
  deviceGroupHashId!: string | null;

  @Field(() => String, { nullable: true })
  balenaUuid!: string | null;

  @Field(() => String, { nullable: true })
  balenaOsVersion!: string | null;

  @Field(() => String, { nullable: true })
  version!: string | null;

  @Field(() => String, { nullable: true })
  iccid!: string | null;

  @Field(() => String, { nullable: true })
  imsi!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'The configuration (version 2); VPN credentials are withheld from customers.' })
  config!: Record<string, unknown> | null;

  @Field(() => Float, { description: 'W.' })
  nominalActivePowerSum!: number;

  @Field(() => GraphQLJSON)
  monitorSettings!: Record<string, unknown>;

  @Field(() => GraphQLJSON, { nullable: true })
  subscription!: Record<string, unknown> | null;

  @Field(() => String, { nullable: true })
  subscriptionChargedUntil!: string | null;

  @Field(() => String, { nullable: true })
  invoiceCustomerReference!: string | null;

  @Field(() => Boolean)
  monitorConnectivity!: boolean;

  @Field(() => Boolean)
  exportMessages!: boolean;

  @Field(() => CloudApiLevelEnum)
  cloudApi!: CloudApiLevel;

  @Field(() => Boolean)
  openForProvisioning!: boolean;

  @Field(() => [String])
  outageEmails!: string[];

  @Field(() => [DeviceUser])
  outageUsers!: DeviceUser[];

  @Field(() => Int, { nullable: true, description: 'Seconds.' })
  reportingInterval!: number | null;

  @Field(() => DeviceSession, { nullable: true, description: 'Null while the device is offline.' })
  activeSession!: DeviceSession | null;

  @Field(() => Boolean)
  isOnline!: boolean;

  @Field(() => Boolean)
  isExposedToCustomer!: boolean;

  @Field(() => Boolean)
  inProduction!: boolean;

  @Field(() => [DeviceAsset])
  assets!: DeviceAssetView[];

  @Field(() => [DeviceController])
  controllers!: DeviceControllerView[];

  @Field(() => [DevicePartnership])
  partnerships!: DevicePartnershipView[];
}

@ObjectType('DevicePage')
export class DevicePage implements Page<DeviceView> {
  @Field(() => [Device])
  rows!: DeviceView[];

  @Field(() => String, { nullable: true, description: 'Pass as offset for the next page; null on the last.' })
  nextPageOffset!: string | null;

  @Field(() => Int, { nullable: true, description: 'How many devices match, for customers (the admin list does not count).' })
  count?: number | null;
}

@ObjectType('DeviceCount')
export class DeviceCount {
  @Field(() => Int)
  totalCount!: number;

  @Field(() => Int)
  operationalCount!: number;

  @Field(() => Int)
  inactiveCount!: number;
}

@ObjectType('SteeringResult', { description: 'What a schedule or parameter write did.' })
export class SteeringResult implements SteeringResultView {
  @Field(() => [ID])
  deviceHashIds!: string[];

  @Field(() => Int, { description: 'Commands that had ended within the last 24 hours, left out.' })
  droppedCommands!: number;

  @Field(() => Float, { nullable: true, description: 'W of dangerous-action allowance left, when the write touched devices in production.' })
  remainingAllowance!: number | null;
}

/** The arguments of `devices`: staff get the admin filters, customers the status filter. */
@ArgsType()
export class DeviceListArgs {
  @Field(() => String, { nullable: true, description: 'Part of the name or identifier.' })
  filter?: string | null;

  @Field(() => ID, { nullable: true })
  hashId?: string | null;

  @Field(() => String, { nullable: true, description: 'A group hash id, or any, or none (staff).' })
  deviceGroupHashId?: string | null;

  @Field(() => String, { nullable: true })
  organizationHashId?: string | null;

  @Field(() => String, { nullable: true })
  assetType?: string | null;

  @Field(() => String, { nullable: true })
  assetIdentifier?: string | null;

  @Field(() => String, { nullable: true })
  iccid?: string | null;

  @Field(() => String, { nullable: true })
  imsi?: string | null;

  @Field(() => String, { nullable: true })
  activeControlType?: string | null;

  @Field(() => String, { nullable: true })
  activeControlIdentifier?: string | null;

  @Field(() => DeviceStatusEnum, { nullable: true, description: 'Customers only.' })
  status?: DeviceStatus | null;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true, description: '1 to 500; 50 when not given.' })
  rowsPerPage?: number | null;
}

@InputType('DeviceUpdateInput', { description: 'Only the fields given change; null clears a field that may be empty.' })
export class DeviceUpdateInput {
  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => ID, { nullable: true })
  organizationHashId?: string | null;

  @Field(() => ID, { nullable: true })
  deviceGroupHashId?: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'A configuration (version 2).' })
  config?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true })
  balenaUuid?: string | null;

  @Field(() => String, { nullable: true })
  iccid?: string | null;

  @Field(() => String, { nullable: true })
  imsi?: string | null;

  @Field(() => GraphQLJSON, { nullable: true })
  monitorSettings?: Record<string, unknown>;

  @Field(() => GraphQLJSON, { nullable: true })
  subscription?: Record<string, unknown> | null;

  @Field(() => Boolean, { nullable: true })
  monitorConnectivity?: boolean;

  @Field(() => Boolean, { nullable: true })
  exportMessages?: boolean;

  @Field(() => CloudApiLevelEnum, { nullable: true })
  cloudApi?: CloudApiLevel;

  @Field(() => Boolean, { nullable: true })
  openForProvisioning?: boolean;

  @Field(() => [String], { nullable: true })
  outageEmails?: string[];

  @Field(() => [ID], { nullable: true })
  outageUsersHashIds?: string[];

  @Field(() => Boolean, { nullable: true })
  isExposedToCustomer?: boolean;

  @Field(() => Boolean, { nullable: true })
  inProduction?: boolean;
}

@InputType('ScheduleInput', { description: 'As the body of PUT /v2/schedule.' })
export class ScheduleInput {
  @Field(() => [GraphQLJSON], { description: 'At most 192 items: { startAt, endAt, command: { type, ... } }.' })
  schedule!: unknown[];

  @Field(() => [String], { nullable: true })
  assetIdentifiers?: string[];

  @Field(() => [String], { nullable: true })
  controllerIdentifiers?: string[];
}

@InputType('ParametersInput', { description: 'As the body of PUT /v1/parameters.' })
export class ParametersInput {
  @Field(() => GraphQLJSON, { description: '{ type: sagerFurnace | demoBattery | hedno, ... }' })
  parameters!: Record<string, unknown>;

  @Field(() => [String])
  assetIdentifiers!: string[];
}

@InputType('DeviceOutageContactsInput', { description: 'Outage emails and users to add and to remove; each user must be able to see the device.' })
export class DeviceOutageContactsInput {
  @Field(() => [String], { nullable: true })
  outageEmails?: string[];

  @Field(() => [String], { nullable: true })
  removedOutageEmails?: string[];

  @Field(() => [ID], { nullable: true })
  outageUsersHashIds?: string[];

  @Field(() => [ID], { nullable: true })
  removedOutageUsersHashIds?: string[];
}
