import { Field, ID, InputType } from 'type-graphql';

/* The bodies of the device group mutations; their rules are those of contracts/device-group.ts. */

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
