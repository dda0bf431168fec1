import type { DeviceBillingUsage as DeviceBillingUsageView } from '../../../contracts/billing';
import { DeviceBillingUsage } from '../../billing/types/billing-charge.type';
import { GraphQLJSON } from 'graphql-scalars';
import { Directive, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type {
  CloudApiLevel,
  DeviceAssetView,
  DeviceControllerView,
  DeviceCountView,
  DevicePartnershipView,
  DeviceSessionView,
  DeviceView,
  PartnershipRole,
} from '../../../contracts/fleet';
import type { UserReference } from '../../../contracts/references';
import { abstractPageOf, nextPageOffsetDescription } from '../../common/graphql-page';
import { CloudApiLevelEnum } from './device.enum';
import { OrganizationReference } from './organization-reference.type';
import { BillingLegalEntityReference } from '../../billing/types/billing-legal-entity-reference.type';
import { PartnershipRoleEnum } from './partnership.enum';

/* A device in GraphQL, as contracts/fleet.ts views it. */

@ObjectType('DeviceUser', { description: 'A user told of outages.' })
export class DeviceUser implements UserReference {
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
export class DevicePartnership implements DevicePartnershipView {
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
export class DeviceSession implements DeviceSessionView {
  @Field(() => String, { nullable: true, description: 'eth0, eth1 or cellular.' })
  networkInterface!: string | null;
}

/** The GraphQL device; the organisation's name is the identity subgraph's to give, through `organization`. */
@ObjectType('Device', { description: 'A gateway on site and the assets it runs.' })
@Directive('@key(fields: "hashId")')
export class Device implements Omit<DeviceView, 'organizationName'> {
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

  @Field(() => DeviceBillingUsage, { nullable: true, description: 'The billing usage column (docs/billing.md): staff only, null for customers.' })
  billingUsage!: DeviceBillingUsageView | null;

  @Field(() => String, { nullable: true })
  invoiceCustomerReference!: string | null;

  @Field(() => BillingLegalEntityReference, {
    nullable: true,
    description: "The legal entity the device's charges are invoiced to; null: its organisation's default. Staff only.",
  })
  billingLegalEntity!: DeviceView['billingLegalEntity'];

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
export class DevicePage extends abstractPageOf<DeviceView>(Device, { nextPageOffset: nextPageOffsetDescription }) {
  @Field(() => Int, { nullable: true, description: 'How many devices match, for customers (the admin list does not count).' })
  count?: number | null;
}

@ObjectType('DeviceCount')
export class DeviceCount implements DeviceCountView {
  @Field(() => Int)
  totalCount!: number;

  @Field(() => Int, { description: 'Online, without an open issue.' })
  operationalCount!: number;

  @Field(() => Int, { description: 'Online, with an open issue that is not internal.' })
  operationalWithIssuesCount!: number;

  @Field(() => Int, { description: 'Offline.' })
  inactiveCount!: number;
}
