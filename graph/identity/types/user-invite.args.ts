import { ArgsType, Field, Int } from 'type-graphql';

/** The arguments of `userInvites`; their rules are userInviteListQuerySchema's. */
@ArgsType()
export class UserInviteListArgs {
  @Field(() => String, { nullable: true, description: 'Part of the email, case-insensitive.' })
  filter?: string | null;

  @Field(() => String, { nullable: true, description: 'Staff only: the invites of one organisation.' })
  organizationHashId?: string | null;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true, description: '1 to 500; 50 when not given.' })
  rowsPerPage?: number | null;
}
