import { ArgsType, Field, ID, Int } from 'type-graphql';

/** The arguments of `billingCharges`; their rules are chargeListQuerySchema's (contracts/billing.ts). */
@ArgsType()
export class BillingChargeListArgs {
  @Field(() => String, { nullable: true })
  filter?: string | null;

  @Field(() => ID, { nullable: true })
  organizationHashId?: string | null;

  @Field(() => ID, { nullable: true })
  deviceHashId?: string | null;

  @Field(() => ID, { nullable: true })
  invoiceHashId?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Only invoiced charges (true) or only those not yet invoiced (false).' })
  invoiced?: boolean | null;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true })
  rowsPerPage?: number | null;
}
