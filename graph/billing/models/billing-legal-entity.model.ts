import { BaseModel } from '../../common/base.model';

/** A company an organisation's invoices are addressed to (console.md section 3; docs/billing.md, "Legal entities"). */
export class BillingLegalEntityModel extends BaseModel {
  static override tableName = 'billing_legal_entities';
  static override jsonAttributes = ['emails'];

  id!: number;
  organizationId!: number;
  companyName!: string;
  address1!: string | null;
  address2!: string | null;
  zipcode!: string | null;
  city!: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  country!: string;
  emails!: string[];
  chamberOfCommerce!: string | null;
  taxNumber!: string | null;
  /** The Moneybird contact it was made from or is linked to. */
  accountingContactId!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
}
