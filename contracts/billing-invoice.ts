/**
 * Invoices (console.md sections 3 and 7; docs/billing.md, "Invoices"): what the invoicing job
 * answers, what an invoice with its charges looks like as it leaves the server, the shapes the
 * OpenAPI document shows, and how the PDF writes money. The list query and BillingInvoiceView
 * are in contracts/billing.ts.
 */
import * as yup from 'yup';
import { ledgerAccounts, type BillingChargeView, type BillingInvoiceView } from './billing';
import { pageSchema } from './pagination';
import { plausibleDate } from './dates';

/** Why a device charge waits for a later run: the organisation requires its own legal entity or customer reference. */
export const heldBackReasons = ['legalEntity', 'customerReference'] as const;
export type HeldBackReason = (typeof heldBackReasons)[number];

/** A charge the run left uninvoiced (requireLegalEntityPerDevice, requireCustomerReferencePerDevice). */
export interface HeldBackChargeView {
  chargeHashId: string;
  deviceHashId: string | null;
  /** What the device lacks. */
  missing: HeldBackReason[];
}

/** What one run of the invoicing job did for one organisation. */
export interface InvoiceRunView {
  organizationHashId: string;
  /** The moment the run invoiced at. */
  at: string;
  /** Charges billable before this moment were gathered: the start of the day (daily) or month (monthly) of `at`. */
  periodEnd: string;
  invoices: BillingInvoiceView[];
  heldBack: HeldBackChargeView[];
}

/** An invoice with every charge on it, oldest first (GET /console-admin/v1/billing-invoice/{hashId}). */
export interface BillingInvoiceWithChargesView extends BillingInvoiceView {
  charges: BillingChargeView[];
}

/** `gridport billing invoice [--organization <hashId>] [--at <ISO>]`: every organisation without one; the clock without `at`. */
export const invoiceRunSchema = yup
  .object({
    organizationHashId: yup.string().trim().max(64).optional(),
    at: plausibleDate().optional(),
  })
  .exact();
export type InvoiceRun = yup.InferType<typeof invoiceRunSchema>;

const named = yup.object({ hashId: yup.string().required(), name: yup.string().required() });
const totals = yup.object(Object.fromEntries(ledgerAccounts.map((account) => [account, yup.number().integer().required()])));

export const billingInvoiceViewSchema = yup.object({
  hashId: yup.string().required(),
  publicId: yup.string().required(),
  createdAt: yup.string().required(),
  organization: named.required(),
  billingLegalEntity: named.nullable().defined(),
  customerReference: yup.string().nullable().defined(),
  periodEnd: yup.string().required(),
  charge: yup.number().integer().required(),
  totals: totals.required(),
  chargeCount: yup.number().integer().required(),
});
export const billingInvoicePageSchema = pageSchema(billingInvoiceViewSchema);

const chargeViewSchema = yup.object({
  hashId: yup.string().required(),
  organization: named.required(),
  device: named.nullable().defined(),
  source: yup.string().required(),
  reason: yup.string().required(),
  description: yup.string().required(),
  monthlyPriceBeforeDiscount: yup.number().nullable().defined(),
  discount: yup.number().nullable().defined(),
  billableAt: yup.string().required(),
  from: yup.string().nullable().defined(),
  to: yup.string().nullable().defined(),
  charge: yup.number().integer().required(),
  customerReference: yup.string().nullable().defined(),
  ledgerAccount: yup.string().oneOf(ledgerAccounts).required(),
  billingLegalEntity: named.nullable().defined(),
  invoiceHashId: yup.string().nullable().defined(),
  invoicePublicId: yup.string().nullable().defined(),
  refunded: yup.boolean().required(),
  refundOfHashId: yup.string().nullable().defined(),
  createdAt: yup.string().required(),
});
export const billingInvoiceWithChargesSchema = billingInvoiceViewSchema.shape({ charges: yup.array(chargeViewSchema).required() });

/**
 * Euro cents as invoices write them, the Dutch way: `€ 1.234,56`, a minus before the digits
 * (`€ -12,50`); thousands by dots, cents after a comma. Integers only: no rounding happens here.
 */
export function formatEuro(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(Math.trunc(cents));
  const euros = Math.floor(absolute / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `€ ${sign}${euros},${String(absolute % 100).padStart(2, '0')}`;
}
