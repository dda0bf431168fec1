import { ArgsType, Field, ID, Int } from 'type-graphql';

/** The arguments of `billingLegalEntities`; their rules are legalEntityListQuerySchema's (contracts/billing.ts). */
@ArgsType()
export class BillingLegalEntityListArgs {
  @Field(() => String, { nullable: true, description: 'Part of the company name, case-insensitive.' })
  filter?: string | null;

  @Field(() => ID, { nullable: true })
  organizationHashId?: string | null;

  @Field(() => String, { nullable: true, description: 'The nextPageOffset of the page before.' })
  offset?: string | null;

  @Field(() => Int, { nullable: true, description: '1 to 500; 50 when not given.' })
  rowsPerPage?: number | null;
}
