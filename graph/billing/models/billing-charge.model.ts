import type { BillingUnits, ChargeReason, ChargeSource, LedgerAccount } from '../../../contracts/billing';
import { BaseModel } from '../../common/base.model';

/**
 * A charge (docs/billing.md, "Charges"): a subscription period or its increase, a manual charge,
 * or a refund of another charge; amounts in euro cents, invoiced once invoice_id is set.
 */
export class BillingChargeModel extends BaseModel {
  static override tableName = 'billing_charges';
  static override jsonAttributes = ['units'];

  id!: number;
  organizationId!: number;
  deviceId!: number | null;
  deviceName!: string | null;
  source!: ChargeSource;
  reason!: ChargeReason;
  description!: string;
  /** Euro, four decimals (numeric: read as a string). */
  monthlyPriceBeforeDiscount!: string | number | null;
  /** Percent (numeric: read as a string). */
  discount!: string | number | null;
  units!: BillingUnits | null;
  billableAt!: Date;
  periodFrom!: Date | null;
  periodTo!: Date | null;
  chargeCents!: number;
  customerReference!: string | null;
  ledgerAccount!: LedgerAccount;
  billingLegalEntityId!: number | null;
  invoiceId!: number | null;
  refundOfId!: number | null;
  refundedCents!: number;
  createdByUserId!: number | null;
  createdAt!: Date;
}
