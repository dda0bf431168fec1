import { ArgsType, Field, Int } from 'type-graphql';

/** The arguments of `users`; their rules are userListQuerySchema's. */
@ArgsType()
export class UserListArgs {
  @Field(() => String, { nullable: true, description: 'Part of the name or email, case-insensitive.' })
  filter?: string | null;

  @Field(() => String, { nullable: true, description: 'Staff only: the users of one organisation.' })
  organizationHashId?: string | null;

  @Field(() => String, { nullable: true, description: 'The nextPageOffset of the page before.' })
  offset?: string | null;

  @Field(() => Int, { nullable: true, description: '1 to 500; 50 when not given.' })
  rowsPerPage?: number | null;
}
