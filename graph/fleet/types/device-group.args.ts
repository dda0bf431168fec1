import { ArgsType, Field, Int } from 'type-graphql';

/** The arguments of `deviceGroups`; their rules are deviceGroupListQuerySchema's (contracts/device-group.ts). */
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
