import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import type { DeviceGroupView } from '../../../contracts/device-group';
import type { NamedReference } from '../../../contracts/references';
import { pageOf } from '../../common/graphql-page';
import { DeviceUser } from './device.type';
import { OrganizationReference } from './organization-reference.type';

/* Device groups in GraphQL, as contracts/device-group.ts views them. */

@ObjectType('DeviceGroupApiKey', { description: 'An API key linked to a group: it sees only the devices of its linked groups.' })
export class DeviceGroupApiKey implements NamedReference {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;
}

/** An entity: the forwarding subgraph adds `messageDestinations` to it. */
@ObjectType('DeviceGroup')
@Directive('@key(fields: "hashId")')
export class DeviceGroup implements DeviceGroupView {
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

export const DeviceGroupPage = pageOf<DeviceGroupView>(DeviceGroup, 'DeviceGroupPage');
