import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { BillingChargeView, BillingInvoiceView, ChargeReason, ChargeSource, LedgerAccount } from '../../../contracts/billing';
import type { NamedReference } from '../../../contracts/references';
import { pageOf } from '../../common/graphql-page';
import { OrganizationReference } from '../../fleet/types/organization-reference.type';

/* Invoices in GraphQL, as contracts/billing.ts and contracts/billing-invoice.ts view them. */

@ObjectType('BillingInvoiceReference', { description: 'A legal entity or device as an invoice names it.' })
export class BillingInvoiceReference implements NamedReference {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;
}

@ObjectType('BillingInvoiceTotals', { description: 'Totals per ledger account in euro cents.' })
export class BillingInvoiceTotals implements Record<LedgerAccount, number> {
  @Field(() => Float)
  hardware!: number;

  @Field(() => Float)
  saas!: number;

  @Field(() => Float)
  consultancy!: number;
}

@ObjectType('BillingInvoiceCharge', { description: 'A charge on an invoice; amounts in euro cents, the monthly price in euro.' })
export class BillingInvoiceCharge implements BillingChargeView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => OrganizationReference)
  organization!: NamedReference;

  @Field(() => BillingInvoiceReference, { nullable: true })
  device!: NamedReference | null;

  @Field(() => String, { description: 'subscription, manual or shipment.' })
  source!: ChargeSource;

  @Field(() => String, { description: 'deviceUpdate, scheduled, configChange, destinationUpdate, subscriptionIncrease, deviceGroupUpdate or manuallyAdded.' })
  reason!: ChargeReason;

  @Field(() => String)
  description!: string;

  @Field(() => Float, { nullable: true })
  monthlyPriceBeforeDiscount!: number | null;

  @Field(() => Float, { nullable: true, description: 'The tier discount, in percent.' })
  discount!: number | null;

  @Field(() => GraphQLDateTimeISO)
  billableAt!: string;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  from!: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  to!: string | null;

  @Field(() => Float, { description: 'Euro cents; negative credits.' })
  charge!: number;

  @Field(() => String, { nullable: true })
  customerReference!: string | null;

  @Field(() => String, { description: 'hardware, saas or consultancy.' })
  ledgerAccount!: LedgerAccount;

  @Field(() => BillingInvoiceReference, { nullable: true })
  billingLegalEntity!: NamedReference | null;

  @Field(() => ID, { nullable: true })
  invoiceHashId!: string | null;

  @Field(() => String, { nullable: true })
  invoicePublicId!: string | null;

  @Field(() => Boolean)
  refunded!: boolean;

  @Field(() => ID, { nullable: true })
  refundOfHashId!: string | null;

  @Field(() => GraphQLDateTimeISO)
  createdAt!: string;
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

  @Field(() => BillingInvoiceReference, { nullable: true })
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
