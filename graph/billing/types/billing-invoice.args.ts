import { ArgsType, Field, Int } from 'type-graphql';

/** The arguments of `billingInvoices`; their rules are invoiceListQuerySchema's (contracts/billing.ts). */
@ArgsType()
export class BillingInvoiceListArgs {
  @Field(() => String, { nullable: true, description: 'Part of the public id.' })
  filter?: string | null;

  @Field(() => String, { nullable: true })
  organizationHashId?: string | null;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true })
  rowsPerPage?: number | null;
}
