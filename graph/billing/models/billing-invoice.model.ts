import type { LedgerAccount } from '../../../contracts/billing';
import { BaseModel } from '../../common/base.model';

/**
 * An invoice: one organisation's charges of one legal entity and customer reference, gathered by
 * the invoicing job (graph/billing/services/invoice-job.ts; docs/billing.md, "Invoices").
 */
export class BillingInvoiceModel extends BaseModel {
  static override tableName = 'billing_invoices';
  static override jsonAttributes = ['totals'];

  id!: number;
  /** GP-<year>-<6 digits>. */
  publicId!: string;
  year!: number;
  sequence!: number;
  organizationId!: number;
  billingLegalEntityId!: number | null;
  customerReference!: string | null;
  /** Charges billable before this moment were gathered. */
  periodEnd!: Date;
  /** The total in euro cents (bigint: the driver may hand it over as text). */
  chargeCents!: number | string;
  totals!: Record<LedgerAccount, number>;
  chargeCount!: number;
  createdAt!: Date;
}
