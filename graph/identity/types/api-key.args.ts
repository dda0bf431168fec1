import { ArgsType, Field, Int } from 'type-graphql';

/** The arguments of `apiKeys`; their rules are apiKeyListQuerySchema's. */
@ArgsType()
export class ApiKeyListArgs {
  @Field(() => String, { nullable: true, description: 'Part of the name, case-insensitive.' })
  filter?: string | null;

  @Field(() => String, { nullable: true })
  organizationHashId?: string | null;

  @Field(() => String, { nullable: true, description: "gridport (the provider's keys) or customer." })
  organization?: string | null;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true, description: '1 to 500; 50 when not given.' })
  rowsPerPage?: number | null;
}
