import { ArgsType, Field, ID, Int } from 'type-graphql';

/** The arguments of `users`; their rules are userListQuerySchema's. */
@ArgsType()
export class UserListArgs {
  @Field(() => String, { nullable: true, description: 'Part of the name or email, case-insensitive.' })
  filter?: string | null;

  @Field(() => String, { nullable: true, description: 'Staff only: the users of one organisation.' })
  organizationHashId?: string | null;

  @Field(() => [ID], {
    nullable: true,
    description: 'Only these users (at most 100); a hash id naming no user the caller may see is left out, not an error.',
  })
  hashIds?: string[] | null;

  @Field(() => String, { nullable: true, description: 'The nextPageOffset of the page before.' })
  offset?: string | null;

  @Field(() => Int, { nullable: true, description: '1 to 500; 50 when not given.' })
  rowsPerPage?: number | null;
}
