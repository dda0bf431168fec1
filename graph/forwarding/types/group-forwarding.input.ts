import { Field, ID, InputType, Int } from 'type-graphql';
import type { MessageType } from '../../../contracts/forwarding';
import { MessageTypeEnum } from './forwarding.enum';

/* The bodies of the group forwarding mutations; their rules are those of contracts/forwarding.ts. */

@InputType('GroupForwardingSettingsInput')
export class GroupForwardingSettingsInput {
  @Field(() => Int, { nullable: true })
  minIntervalSeconds?: number;
}

@InputType('DeviceGroupMessageDestinationCreateInput')
export class DeviceGroupMessageDestinationCreateInput {
  @Field(() => ID)
  deviceGroupHashId!: string;

  @Field(() => ID)
  messageDestinationHashId!: string;

  @Field(() => [MessageTypeEnum])
  messageTypes!: MessageType[];

  @Field(() => GroupForwardingSettingsInput, { nullable: true })
  settings?: GroupForwardingSettingsInput;
}

@InputType('DeviceGroupMessageDestinationUpdateInput')
export class DeviceGroupMessageDestinationUpdateInput {
  @Field(() => [MessageTypeEnum], { nullable: true })
  messageTypes?: MessageType[];

  @Field(() => GroupForwardingSettingsInput, { nullable: true })
  settings?: GroupForwardingSettingsInput;
}
