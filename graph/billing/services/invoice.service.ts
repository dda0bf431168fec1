import type { Knex } from 'knex';
import { ledgerAccounts, type BillingChargeView, type BillingInvoiceView, type InvoiceListQuery, type LedgerAccount } from '../../../contracts/billing';
import type { BillingInvoiceWithChargesView } from '../../../contracts/billing-invoice';
import { GridportError } from '../../../contracts/errors';
import type { Page } from '../../../contracts/pagination';
import { authorize, type Actor } from '../../common/context';
import { findByHashId } from '../../common/find-by-hash-id';
import { pageRowsById } from '../../common/cursor';
import type { HashIds } from '../../common/hash-ids';
import { containsPattern } from '../../common/like';
import { listOrganizationScope } from '../../common/tenancy';
import type { IdentityDirectory } from '../../identity/services/directory.service';
import { BillingChargeModel } from '../models/billing-charge.model';
import { BillingInvoiceModel } from '../models/billing-invoice.model';
import type { BillingChargeService } from './charge.service';
import { renderInvoicePdf, type InvoiceLegalEntity } from './invoice-pdf';
import { isoTime } from '../../common/timestamps';

const iso = (value: Date | string) => isoTime(new Date(value));

function distinctIds(values: readonly (string | number | null)[]): number[] {
  return [...new Set(values.filter((value): value is string | number => value !== null).map(Number))];
}

/** Totals with every ledger account present. */
export function emptyTotals(): Record<LedgerAccount, number> {
  return Object.fromEntries(ledgerAccounts.map((account) => [account, 0])) as Record<LedgerAccount, number>;
}

/** The rows of a table by id, only the columns asked for. */
async function rowsById<R extends { id: string | number }>(db: Knex, table: string, columns: string[], ids: readonly number[]): Promise<Map<number, R>> {
  if (ids.length === 0) {
    return new Map();
  }
  const rows = (await db(table)
    .whereIn('id', ids)
    .select(['id', ...columns])) as R[];
  return new Map(rows.map((row) => [Number(row.id), row]));
}

/**
 * Invoices (console.md sections 3 and 7; docs/billing.md, "Invoices"): staff read them, their
 * charges and their PDF; the invoicing job (invoice-job.ts) makes them.
 */
export class BillingInvoiceService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly directory: IdentityDirectory,
    /** Charges leave the server in one shape, the charge service's, on an invoice as in their list. */
    private readonly charges: BillingChargeService,
  ) {}

  private notFound(hashId: string): GridportError {
    return new GridportError('not_found', { billingInvoiceHashId: hashId });
  }

  private find(hashId: string): Promise<BillingInvoiceModel> {
    return findByHashId(BillingInvoiceModel, this.db, this.hashIds, 'billingInvoice', hashId);
  }

  /** Invoices as they leave the server, in a fixed number of queries. */
  async present(invoices: readonly BillingInvoiceModel[], db: Knex = this.db): Promise<BillingInvoiceView[]> {
    const [organizationName, entities] = await Promise.all([
      this.directory.organizationNames(db, distinctIds(invoices.map((invoice) => invoice.organizationId))),
      rowsById<{ id: string; company_name: string }>(
        db,
        'billing_legal_entities',
        ['company_name'],
        distinctIds(invoices.map((invoice) => invoice.billingLegalEntityId)),
      ),
    ]);
    return invoices.map((invoice) => {
      const organizationId = Number(invoice.organizationId);
      const entityId = invoice.billingLegalEntityId === null ? null : Number(invoice.billingLegalEntityId);
      const entity = entityId === null ? undefined : entities.get(entityId);
      return {
        hashId: this.hashIds.encode('billingInvoice', Number(invoice.id)),
        publicId: invoice.publicId,
        createdAt: iso(invoice.createdAt),
        organization: { hashId: this.hashIds.encode('organization', organizationId), name: organizationName.get(organizationId) ?? '' },
        billingLegalEntity: entityId === null ? null : { hashId: this.hashIds.encode('billingLegalEntity', entityId), name: entity?.company_name ?? '' },
        customerReference: invoice.customerReference,
        periodEnd: iso(invoice.periodEnd),
        charge: Number(invoice.chargeCents),
        totals: { ...emptyTotals(), ...invoice.totals },
        chargeCount: invoice.chargeCount,
      };
    });
  }

  /** The charges of one invoice, oldest first. */
  private async chargesOf(invoiceId: number): Promise<BillingChargeView[]> {
    const charges = await BillingChargeModel.query(this.db).where('invoice_id', invoiceId).orderBy('billable_at').orderBy('id');
    return this.charges.present(charges);
  }

  /** Invoices newest first; `filter` matches the public id (console.md section 7). */
  async list(actor: Actor, query: InvoiceListQuery): Promise<Page<BillingInvoiceView>> {
    authorize(actor, 'billingInvoice.list');
    const organizationId = listOrganizationScope(actor, this.hashIds, query.organizationHashId);
    const builder = BillingInvoiceModel.query(this.db);
    if (organizationId !== null) {
      void builder.where('organization_id', organizationId);
    }
    if (query.filter !== '') {
      void builder.where('public_id', 'ilike', containsPattern(query.filter));
    }
    const page = await pageRowsById(builder, query);
    return { rows: await this.present(page.rows), nextPageOffset: page.nextPageOffset };
  }

  /** An invoice and every charge on it. */
  async get(actor: Actor, hashId: string): Promise<BillingInvoiceWithChargesView> {
    authorize(actor, 'billingInvoice.read');
    const invoice = await this.find(hashId);
    const [[view], charges] = await Promise.all([this.present([invoice]), this.chargesOf(Number(invoice.id))]);
    if (!view) {
      throw this.notFound(hashId);
    }
    return { ...view, charges };
  }

  /** The invoice as a PDF (docs/billing.md, "Invoices"): the same bytes for the same invoice. */
  async pdf(actor: Actor, hashId: string): Promise<{ publicId: string; body: Buffer }> {
    authorize(actor, 'billingInvoice.pdf');
    const invoice = await this.find(hashId);
    const [[view], charges, entity] = await Promise.all([
      this.present([invoice]),
      this.chargesOf(Number(invoice.id)),
      invoice.billingLegalEntityId === null ? Promise.resolve(null) : this.legalEntity(Number(invoice.billingLegalEntityId)),
    ]);
    if (!view) {
      throw this.notFound(hashId);
    }
    return { publicId: invoice.publicId, body: await renderInvoicePdf({ invoice: view, charges, legalEntity: entity }) };
  }

  /** A legal entity's details as the PDF prints them (read from its row: the legal-entity service is another part's). */
  private async legalEntity(id: number): Promise<InvoiceLegalEntity | null> {
    const row = (await this.db('billing_legal_entities').where('id', id).first()) as
      | {
          company_name: string;
          address1: string | null;
          address2: string | null;
          zipcode: string | null;
          city: string | null;
          country: string;
          emails: string[] | string;
          chamber_of_commerce: string | null;
          tax_number: string | null;
        }
      | undefined;
    if (!row) {
      return null;
    }
    return {
      companyName: row.company_name,
      address1: row.address1,
      address2: row.address2,
      zipcode: row.zipcode,
      city: row.city,
      country: row.country,
      emails: typeof row.emails === 'string' ? (JSON.parse(row.emails) as string[]) : row.emails,
      chamberOfCommerce: row.chamber_of_commerce,
      taxNumber: row.tax_number,
    };
  }
}
