import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { DeviceGroupView } from '../../../contracts/device-group';
import type { PartnershipKind, PartnershipView } from '../../../contracts/partnership';
import { partnershipKinds } from '../../../contracts/partnership';
import type { PartnershipRole } from '../../../contracts/fleet';
import type { Page } from '../../../contracts/pagination';
import { graphqlEnum } from '../../common/graphql-enum';
import { DeviceUser, OrganizationReference, PartnershipRoleEnum } from './device.type';

/* Device groups and partnerships in GraphQL; their rules are those of contracts/device-group.ts and contracts/partnership.ts. */

export const PartnershipKindEnum = graphqlEnum('PartnershipKind', partnershipKinds, "Which side of a partnership the caller's organisation is on.");

@ObjectType('DeviceGroupApiKey', { description: 'An API key linked to a group: it sees only the devices of its linked groups.' })
export class DeviceGroupApiKey {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;
}

@ObjectType('DeviceGroup')
export class DeviceGroup {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => ID)
  organizationHashId!: string;

  @Field(() => OrganizationReference)
  organization!: DeviceGroupView['organization'];

  @Field(() => [String])
  deviceOutageEmails!: string[];

  @Field(() => [DeviceUser])
  deviceOutageUsers!: DeviceUser[];

  @Field(() => Int)
  deviceCount!: number;

  @Field(() => [DeviceGroupApiKey])
  apiKeys!: DeviceGroupApiKey[];
}

@ObjectType('DeviceGroupPage')
export class DeviceGroupPage implements Page<DeviceGroupView> {
  @Field(() => [DeviceGroup])
  rows!: DeviceGroupView[];

  @Field(() => String, { nullable: true })
  nextPageOffset!: string | null;
}

@ObjectType('Partnership', { description: 'An owner organisation shares all or some of its devices with a partner.' })
export class Partnership {
  @Field(() => ID)
  hashId!: string;

  @Field(() => OrganizationReference)
  owner!: PartnershipView['owner'];

  @Field(() => OrganizationReference)
  partner!: PartnershipView['partner'];

  @Field(() => PartnershipRoleEnum)
  role!: PartnershipRole;

  @Field(() => String)
  description!: string;

  @Field(() => Boolean)
  allDevices!: boolean;

  @Field(() => Int)
  deviceCount!: number;

  @Field(() => [ID])
  deviceHashIds!: string[];
}

@ObjectType('PartnershipPage')
export class PartnershipPage implements Page<PartnershipView> {
  @Field(() => [Partnership])
  rows!: PartnershipView[];

  @Field(() => String, { nullable: true })
  nextPageOffset!: string | null;
}

@ArgsType()
export class DeviceGroupListArgs {
  @Field(() => String, { nullable: true })
  filter?: string | null;

  @Field(() => String, { nullable: true })
  organizationHashId?: string | null;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true })
  rowsPerPage?: number | null;
}

@ArgsType()
export class PartnershipListArgs {
  @Field(() => String, { nullable: true, description: 'Staff: part of the description or an organisation name.' })
  filter?: string | null;

  @Field(() => String, { nullable: true, description: 'Staff: partnerships in which this organisation takes part.' })
  organizationHashId?: string | null;

  @Field(() => PartnershipKindEnum, { nullable: true, description: 'Customers: own or accepted; both when not given.' })
  kind?: PartnershipKind | null;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true })
  rowsPerPage?: number | null;
}

@InputType('DeviceGroupCreateInput')
export class DeviceGroupCreateInput {
  @Field(() => String)
  name!: string;

  @Field(() => ID)
  organizationHashId!: string;

  @Field(() => [String], { nullable: true })
  deviceOutageEmails?: string[];

  @Field(() => [ID], { nullable: true })
  deviceOutageUsersHashIds?: string[];
}

@InputType('DeviceGroupUpdateInput')
export class DeviceGroupUpdateInput {
  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => [String], { nullable: true })
  deviceOutageEmails?: string[];

  @Field(() => [ID], { nullable: true })
  deviceOutageUsersHashIds?: string[];
}

@InputType('PartnershipCreateInput')
export class PartnershipCreateInput {
  @Field(() => ID)
  ownerOrganizationHashId!: string;

  @Field(() => ID)
  partnerOrganizationHashId!: string;

  @Field(() => PartnershipRoleEnum)
  role!: PartnershipRole;

  @Field(() => String, { nullable: true })
  description?: string;

  @Field(() => Boolean, { nullable: true })
  allDevices?: boolean;

  @Field(() => [ID], { nullable: true })
  deviceHashIds?: string[];
}

@InputType('PartnershipUpdateInput')
export class PartnershipUpdateInput {
  @Field(() => PartnershipRoleEnum, { nullable: true })
  role?: PartnershipRole;

  @Field(() => String, { nullable: true })
  description?: string;

  @Field(() => Boolean, { nullable: true })
  allDevices?: boolean;

  @Field(() => [ID], { nullable: true })
  deviceHashIds?: string[];
}
