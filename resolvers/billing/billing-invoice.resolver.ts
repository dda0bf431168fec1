import { Arg, Args, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { invoiceListQuerySchema, type BillingChargeView, type BillingInvoiceView } from '../../contracts/billing';
import type { Page } from '../../contracts/pagination';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import { BillingInvoiceListArgs } from '../../graph/billing/types/billing-invoice.args';
import { BillingCharge } from '../../graph/billing/types/billing-charge.type';
import { BillingInvoice, BillingInvoicePage } from '../../graph/billing/types/billing-invoice.type';
import type { GraphqlContext } from '../graphql-context';
import { Allowed } from '../access';

/** Where an invoice's PDF is served, on the same server as GraphQL (GET, staff session). */
export const invoicePdfPath = (hashId: string) => `/console-admin/v1/billing-invoice/${encodeURIComponent(hashId)}/pdf`;

/** Invoices in GraphQL, as /console-admin/v1/billing-invoice: staff (Employee) read them, their charges and where their PDF is. */
@Resolver(() => BillingInvoice)
export class BillingInvoiceResolver {
  @Allowed('billingInvoice.read')
  @Query(() => BillingInvoice)
  billingInvoice(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<BillingInvoiceView> {
    return services.billingInvoices.get(actor, hashId);
  }

  @Allowed('billingInvoice.list')
  @Query(() => BillingInvoicePage, { description: 'Invoices newest first, by organisation and public id (filter).' })
  billingInvoices(
    @Args(() => BillingInvoiceListArgs) args: BillingInvoiceListArgs,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<Page<BillingInvoiceView>> {
    return services.billingInvoices.list(actor, validate(invoiceListQuerySchema, givenArguments(args), 'query_invalid'));
  }

  /** Every charge on the invoice, oldest first: already there when the invoice was read alone, read for a listed one. */
  @FieldResolver(() => [BillingCharge])
  async charges(
    @Root() invoice: BillingInvoiceView & { charges?: BillingChargeView[] },
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<BillingChargeView[]> {
    return invoice.charges ?? (await services.billingInvoices.get(actor, invoice.hashId)).charges;
  }

  @FieldResolver(() => String, {
    description: 'The path of the PDF on this server (GET with a staff session): /console-admin/v1/billing-invoice/{hashId}/pdf.',
  })
  pdfUrl(@Root() invoice: BillingInvoiceView): string {
    return invoicePdfPath(invoice.hashId);
  }
}
