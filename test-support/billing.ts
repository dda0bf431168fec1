import type { Knex } from 'knex';
import type { LedgerAccount } from '../contracts/billing';

let counter = 0;

export interface ChargeColumns {
  organizationId: number;
  deviceId?: number | null;
  deviceName?: string | null;
  source?: 'subscription' | 'manual' | 'shipment';
  reason?: string;
  description?: string;
  billableAt: Date | string;
  periodFrom?: Date | string | null;
  periodTo?: Date | string | null;
  /** Euro cents. */
  charge: number;
  customerReference?: string | null;
  ledgerAccount?: LedgerAccount;
  billingLegalEntityId?: number | null;
  refundOfId?: number | null;
  createdAt?: Date | string;
}

function row(columns: ChargeColumns): Record<string, unknown> {
  counter += 1;
  const subscription = (columns.source ?? 'subscription') === 'subscription';
  return {
    organization_id: columns.organizationId,
    device_id: columns.deviceId ?? null,
    device_name: columns.deviceName ?? null,
    source: columns.source ?? 'subscription',
    reason: columns.reason ?? (subscription ? 'scheduled' : 'manuallyAdded'),
    description: columns.description ?? `Charge ${counter}`,
    billable_at: new Date(columns.billableAt),
    period_from: columns.periodFrom ? new Date(columns.periodFrom) : null,
    period_to: columns.periodTo ? new Date(columns.periodTo) : null,
    charge_cents: columns.charge,
    customer_reference: columns.customerReference ?? null,
    ledger_account: columns.ledgerAccount ?? (subscription ? 'saas' : 'hardware'),
    billing_legal_entity_id: columns.billingLegalEntityId ?? null,
    refund_of_id: columns.refundOfId ?? null,
    created_at: new Date(columns.createdAt ?? columns.billableAt),
  };
}

/**
 * Rows of billing_charges inserted with SQL, for the invoicing tests and bench (the charge engine
 * makes them in production): answers their ids in order.
 */
export async function insertCharges(db: Knex, charges: readonly ChargeColumns[]): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < charges.length; start += 1000) {
    const inserted = (await db('billing_charges')
      .insert(charges.slice(start, start + 1000).map(row))
      .returning('id')) as { id: string | number }[];
    ids.push(...inserted.map((entry) => Number(entry.id)));
  }
  return ids;
}

export async function insertCharge(db: Knex, charge: ChargeColumns): Promise<number> {
  const [id] = await insertCharges(db, [charge]);
  return id as number;
}

/** A billing_legal_entities row with SQL (the legal-entity service makes them in production); answers its id. */
export async function insertLegalEntity(
  db: Knex,
  organizationId: number,
  columns: Partial<{
    companyName: string;
    address1: string | null;
    address2: string | null;
    zipcode: string | null;
    city: string | null;
    country: string;
    emails: string[];
    chamberOfCommerce: string | null;
    taxNumber: string | null;
    isOrganizationDefault: boolean;
  }> = {},
): Promise<number> {
  counter += 1;
  const [inserted] = (await db('billing_legal_entities')
    .insert({
      organization_id: organizationId,
      company_name: columns.companyName ?? `Company ${counter} B.V.`,
      address1: columns.address1 ?? null,
      address2: columns.address2 ?? null,
      zipcode: columns.zipcode ?? null,
      city: columns.city ?? null,
      country: columns.country ?? 'NL',
      emails: JSON.stringify(columns.emails ?? []),
      chamber_of_commerce: columns.chamberOfCommerce ?? null,
      tax_number: columns.taxNumber ?? null,
    })
    .returning('id')) as { id: string | number }[];
  const id = Number(inserted?.id);
  if (columns.isOrganizationDefault) {
    await db('organizations').where('id', organizationId).update({ default_billing_legal_entity_id: id });
  }
  return id;
}
