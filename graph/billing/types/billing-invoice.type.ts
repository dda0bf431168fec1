import { GraphQLDateTimeISO } from '../../common/graphql-date-time';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { BillingChargeView, BillingInvoiceView, LedgerAccount } from '../../../contracts/billing';
import type { NamedReference } from '../../../contracts/references';
import { pageOf } from '../../common/graphql-page';
import { OrganizationReference } from '../../fleet/types/organization-reference.type';
import { BillingReference } from './billing-charge.type';

/* Invoices in GraphQL, as contracts/billing.ts and contracts/billing-invoice.ts view them; their charges are BillingCharge (billing-charge.type.ts). */

@ObjectType('BillingInvoiceTotals', { description: 'Totals per ledger account in euro cents.' })
export class BillingInvoiceTotals implements Record<LedgerAccount, number> {
  @Field(() => Float)
  hardware!: number;

  @Field(() => Float)
  saas!: number;

  @Field(() => Float)
  consultancy!: number;
}

@ObjectType('BillingInvoice', { description: "An organisation's charges of one legal entity and customer reference, gathered by the invoicing job." })
export class BillingInvoice implements BillingInvoiceView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String, { description: 'GP-<year>-<6 digits>, without gaps within a year.' })
  publicId!: string;

  @Field(() => GraphQLDateTimeISO)
  createdAt!: string;

  @Field(() => OrganizationReference)
  organization!: NamedReference;

  @Field(() => BillingReference, { nullable: true })
  billingLegalEntity!: NamedReference | null;

  @Field(() => String, { nullable: true })
  customerReference!: string | null;

  @Field(() => GraphQLDateTimeISO, { description: 'Charges billable before this moment were invoiced.' })
  periodEnd!: string;

  @Field(() => Float, { description: 'The total in euro cents.' })
  charge!: number;

  @Field(() => BillingInvoiceTotals)
  totals!: BillingInvoiceTotals;

  @Field(() => Int)
  chargeCount!: number;

  /** Present when the invoice was read alone; the field resolver reads them otherwise. */
  charges?: BillingChargeView[];
}

export const BillingInvoicePage = pageOf<BillingInvoiceView>(BillingInvoice, 'BillingInvoicePage');
