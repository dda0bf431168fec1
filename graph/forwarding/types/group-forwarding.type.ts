import { GraphQLDateTimeISO } from '../../common/graphql-date-time';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { DestinationKind, GroupForwardingSettings as GroupForwardingSettingsView, GroupForwardingView, MessageType } from '../../../contracts/forwarding';
import type { NamedReference } from '../../../contracts/references';
import { pageOf } from '../../common/graphql-page';
import { DestinationKindEnum, MessageTypeEnum } from './forwarding.enum';

/* The forwarding of device groups to message destinations in GraphQL, as contracts/forwarding.ts views it. */

@ObjectType('ForwardingDeviceGroup', { description: 'The device group of a forwarding, by name.' })
export class ForwardingDeviceGroup implements NamedReference {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;
}

@ObjectType('ForwardingDestination', { description: 'The message destination of a forwarding, by name and kind.' })
export class ForwardingDestination implements NamedReference {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => DestinationKindEnum)
  type!: DestinationKind;
}

@ObjectType('GroupForwardingSettings')
export class GroupForwardingSettings implements GroupForwardingSettingsView {
  @Field(() => Int, { description: 'At most one message per device, asset and message type in this many seconds (0: every report).' })
  minIntervalSeconds!: number;
}

@ObjectType('DeviceGroupMessageDestination', {
  description: "A device group forwarding reports of some message types to one of its organisation's destinations.",
})
export class DeviceGroupMessageDestination implements GroupForwardingView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => ForwardingDeviceGroup)
  deviceGroup!: ForwardingDeviceGroup;

  @Field(() => ForwardingDestination)
  messageDestination!: ForwardingDestination;

  @Field(() => [MessageTypeEnum])
  messageTypes!: MessageType[];

  @Field(() => GroupForwardingSettings)
  settings!: GroupForwardingSettings;

  @Field(() => GraphQLDateTimeISO)
  createdAt!: string;
}

export const DeviceGroupMessageDestinationPage = pageOf<GroupForwardingView>(DeviceGroupMessageDestination, 'DeviceGroupMessageDestinationPage');
