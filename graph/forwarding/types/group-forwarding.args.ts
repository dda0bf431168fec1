import { ArgsType, Field, Int } from 'type-graphql';

/** The arguments of `deviceGroupMessageDestinations`; their rules are groupForwardingListQuerySchema's (contracts/forwarding.ts). */
@ArgsType()
export class DeviceGroupMessageDestinationListArgs {
  @Field(() => String, { nullable: true })
  deviceGroupHashId?: string | null;

  @Field(() => String, { nullable: true })
  messageDestinationHashId?: string | null;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true })
  rowsPerPage?: number | null;
}
