import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { invoicePublicId, type LedgerAccount } from '../../../contracts/billing';
import type { HeldBackChargeView, HeldBackReason, InvoiceRunView } from '../../../contracts/billing-invoice';
import { GridportError } from '../../../contracts/errors';
import type { InvoiceFrequency } from '../../../contracts/organization';
import { systemActor, type Actor } from '../../common/context';
import { diffObjects, type FieldTypes } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { write } from '../../common/write';
import { BillingInvoiceModel } from '../models/billing-invoice.model';
import { emptyTotals, type BillingInvoiceService } from './invoice.service';

/** How often each node runs the invoicing job by default (BILLING_INVOICE_INTERVAL_SECONDS). */
export const defaultInvoiceIntervalSeconds = 3600;

/** Ids a statement names at most at once. */
const chunkSize = 1000;

/** Before which moment a run at `at` gathers charges: the start of its day (daily) or month (monthly), UTC. */
export function invoicePeriodEnd(at: Date, frequency: InvoiceFrequency): Date {
  return frequency === 'daily'
    ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()))
    : new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

interface OrganizationRow {
  id: string | number;
  invoice_frequency: InvoiceFrequency;
  invoice_customer_reference: string | null;
  require_legal_entity_per_device: boolean;
  require_customer_reference_per_device: boolean;
  default_billing_legal_entity_id: string | number | null;
}

interface GatheredCharge {
  id: string | number;
  device_id: string | number | null;
  charge_cents: string | number;
  ledger_account: LedgerAccount;
  customer_reference: string | null;
  billing_legal_entity_id: string | number | null;
}

interface DeviceDetails {
  id: string | number;
  organization_id: string | number | null;
  billing_legal_entity_id: string | number | null;
  invoice_customer_reference: string | null;
}

interface Group {
  legalEntityId: number | null;
  customerReference: string | null;
  chargeIds: number[];
  totals: Record<LedgerAccount, number>;
  total: number;
}

function chunks<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += chunkSize) {
    out.push(values.slice(start, start + chunkSize));
  }
  return out;
}

/**
 * The invoicing job (docs/billing.md, "Invoices"). Per organisation, in one transaction: the
 * organisation's row is locked, its uninvoiced charges billable before the start of the day
 * (daily) or month (monthly) are gathered and grouped by legal entity and customer reference,
 * and each group becomes an invoice whose public id is taken from the year's counter in the same
 * transaction (so ids have no gaps: a rolled-back run gives its numbers back). A second run finds
 * nothing; runs on several nodes take the organisation in turn, and the later one finds nothing.
 */
export class InvoiceJob {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly invoices: BillingInvoiceService,
    private readonly clock: () => Date,
  ) {}

  /** Invoices one organisation, by hash id (not_found when unknown). */
  async runForOrganizationHashId(organizationHashId: string, at: Date = this.clock()): Promise<InvoiceRunView> {
    const organizationId = this.hashIds.decode('organization', organizationHashId);
    if (organizationId === null) {
      throw new GridportError('not_found', { organizationHashId });
    }
    return this.runForOrganization(organizationId, at);
  }

  /**
   * Invoices every organisation with uninvoiced charges billable before the start of the day of
   * `at`, each in its own transaction; one organisation failing does not stop the others (its
   * error is logged and it is tried again at the next run).
   */
  async runAll(at: Date = this.clock(), log?: Logger): Promise<InvoiceRunView[]> {
    const latest = invoicePeriodEnd(at, 'daily');
    const rows = (await this.db('billing_charges')
      .whereNull('invoice_id')
      .where('billable_at', '<', latest)
      .distinct('organization_id')
      .orderBy('organization_id')) as { organization_id: string | number }[];
    const runs: InvoiceRunView[] = [];
    for (const row of rows) {
      try {
        runs.push(await this.runForOrganization(Number(row.organization_id), at));
      } catch (error) {
        if (!log) {
          throw error;
        }
        log.error({ err: error, organizationId: Number(row.organization_id) }, 'invoicing an organisation failed');
      }
    }
    return runs;
  }

  /** Invoices one organisation at `at`. */
  async runForOrganization(organizationId: number, at: Date = this.clock(), actor: Actor = systemActor('invoicing job')): Promise<InvoiceRunView> {
    const organizationHashId = this.hashIds.encode('organization', organizationId);
    const { made, heldBack, periodEnd } = await write(this.db, actor, async (w) => {
      const { trx } = w;
      // The lock every run of this organisation takes first: a second run waits here, then finds the charges invoiced.
      const organization = (await trx('organizations')
        .where('id', organizationId)
        .forUpdate()
        .first(
          'id',
          'invoice_frequency',
          'invoice_customer_reference',
          'require_legal_entity_per_device',
          'require_customer_reference_per_device',
          'default_billing_legal_entity_id',
        )) as OrganizationRow | undefined;
      if (!organization) {
        throw new GridportError('not_found', { organizationHashId });
      }
      const end = invoicePeriodEnd(at, organization.invoice_frequency);
      const charges = (await trx('billing_charges')
        .where('organization_id', organizationId)
        .whereNull('invoice_id')
        .where('billable_at', '<', end)
        .orderBy('billable_at')
        .orderBy('id')
        .forUpdate()
        .select('id', 'device_id', 'charge_cents', 'ledger_account', 'customer_reference', 'billing_legal_entity_id')) as GatheredCharge[];
      const { groups, heldBack } = await this.group(trx, organization, charges);
      const made: BillingInvoiceModel[] = [];
      for (const group of groups) {
        const invoice = await this.makeInvoice(trx, organizationId, group, end, at);
        await w.audit({
          objectType: 'billing_invoices',
          objectId: invoice.id,
          organizationId,
          changeType: 'controllerCreate',
          diff: diffObjects(invoiceAuditedFields, null, invoice),
        });
        made.push(invoice);
      }
      return { made, heldBack, periodEnd: end };
    });
    return {
      organizationHashId,
      at: at.toISOString(),
      periodEnd: periodEnd.toISOString(),
      invoices: await this.invoices.present(made),
      heldBack,
    };
  }

  /**
   * The groups of the charges, each by the legal entity and customer reference it is invoiced
   * to: the charge's own, else (a device charge) its device's now, else the organisation's; and
   * the device charges that wait because the organisation requires the device's own.
   */
  private async group(
    trx: Knex.Transaction,
    organization: OrganizationRow,
    charges: readonly GatheredCharge[],
  ): Promise<{ groups: Group[]; heldBack: HeldBackChargeView[] }> {
    const deviceIds = [...new Set(charges.flatMap((charge) => (charge.device_id === null ? [] : [Number(charge.device_id)])))];
    const devices = new Map<number, DeviceDetails>();
    for (const ids of chunks(deviceIds)) {
      const rows = (await trx('devices')
        .whereIn('id', ids)
        .select('id', 'organization_id', 'billing_legal_entity_id', 'invoice_customer_reference')) as DeviceDetails[];
      rows.forEach((row) => devices.set(Number(row.id), row));
    }
    const organizationId = Number(organization.id);
    const byKey = new Map<string, Group>();
    const heldBack: HeldBackChargeView[] = [];
    for (const charge of charges) {
      const deviceId = charge.device_id === null ? null : Number(charge.device_id);
      // A device now in another organisation does not lend its details to this one's charges.
      const device = deviceId === null ? undefined : devices.get(deviceId);
      const ownDevice = device && device.organization_id !== null && Number(device.organization_id) === organizationId ? device : undefined;
      const deviceLegalEntity = charge.billing_legal_entity_id ?? ownDevice?.billing_legal_entity_id ?? null;
      const deviceReference = charge.customer_reference ?? ownDevice?.invoice_customer_reference ?? null;
      const missing: HeldBackReason[] = [];
      if (deviceId !== null && organization.require_legal_entity_per_device && deviceLegalEntity === null) {
        missing.push('legalEntity');
      }
      if (deviceId !== null && organization.require_customer_reference_per_device && deviceReference === null) {
        missing.push('customerReference');
      }
      if (missing.length > 0) {
        heldBack.push({
          chargeHashId: this.hashIds.encode('billingCharge', Number(charge.id)),
          deviceHashId: this.hashIds.encode('device', deviceId as number),
          missing,
        });
        continue;
      }
      const legalEntity = deviceLegalEntity ?? organization.default_billing_legal_entity_id;
      const legalEntityId = legalEntity === null ? null : Number(legalEntity);
      const customerReference = deviceReference ?? organization.invoice_customer_reference;
      const key = JSON.stringify([legalEntityId, customerReference]);
      let group = byKey.get(key);
      if (!group) {
        group = { legalEntityId, customerReference, chargeIds: [], totals: emptyTotals(), total: 0 };
        byKey.set(key, group);
      }
      const cents = Number(charge.charge_cents);
      group.chargeIds.push(Number(charge.id));
      group.totals[charge.ledger_account] += cents;
      group.total += cents;
    }
    // A fixed order, so the same charges get the same public ids: by legal entity (none first), then reference (none first).
    const groups = [...byKey.values()].sort(
      (a, b) =>
        (a.legalEntityId ?? -1) - (b.legalEntityId ?? -1) ||
        (a.customerReference === b.customerReference
          ? 0
          : a.customerReference === null
            ? -1
            : b.customerReference === null
              ? 1
              : a.customerReference < b.customerReference
                ? -1
                : 1),
    );
    return { groups, heldBack };
  }

  /** One invoice: the year's next number (taken in this transaction), the invoice row, its charges linked with what they were invoiced to. */
  private async makeInvoice(trx: Knex.Transaction, organizationId: number, group: Group, periodEnd: Date, at: Date): Promise<BillingInvoiceModel> {
    const year = at.getUTCFullYear();
    const counted = (await trx.raw(
      'insert into billing_invoice_sequences (year, last) values (?, 1) on conflict (year) do update set last = billing_invoice_sequences.last + 1 returning last',
      [year],
    )) as { rows: { last: number }[] };
    const sequence = Number(counted.rows[0]?.last);
    const invoice = await BillingInvoiceModel.query(trx).insertAndFetch({
      publicId: invoicePublicId(year, sequence),
      year,
      sequence,
      organizationId,
      billingLegalEntityId: group.legalEntityId,
      customerReference: group.customerReference,
      periodEnd,
      chargeCents: group.total,
      totals: group.totals,
      chargeCount: group.chargeIds.length,
      createdAt: at,
    });
    for (const ids of chunks(group.chargeIds)) {
      await trx('billing_charges')
        .whereIn('id', ids)
        .update({ invoice_id: invoice.id, billing_legal_entity_id: group.legalEntityId, customer_reference: group.customerReference });
    }
    return invoice;
  }
}

/** What the audit log records of a new invoice. */
const invoiceAuditedFields: FieldTypes<BillingInvoiceModel> = {
  publicId: 'string',
  organizationId: 'number',
  billingLegalEntityId: 'number',
  customerReference: 'string',
  periodEnd: 'date',
  chargeCents: 'number',
  totals: 'json',
  chargeCount: 'number',
};

/**
 * Runs the invoicing job on this node every `intervalSeconds` (BILLING_INVOICE_INTERVAL_SECONDS)
 * and once soon after start. Every node may run it: the organisation lock makes the runs take
 * turns, and a later run finds nothing left to invoice.
 */
export function startInvoicing(job: InvoiceJob, log: Logger, intervalSeconds: number = defaultInvoiceIntervalSeconds): { close(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const run = () => {
    if (busy) {
      return;
    }
    busy = true;
    running = job
      .runAll(undefined, log)
      .then((runs) => {
        const invoices = runs.flatMap((entry) => entry.invoices.map((invoice) => invoice.publicId));
        const heldBack = runs.reduce((sum, entry) => sum + entry.heldBack.length, 0);
        if (invoices.length > 0 || heldBack > 0) {
          log.info({ invoices, heldBack }, 'invoiced the charges due');
        }
      })
      .catch((error: unknown) => log.error({ err: error }, 'the invoicing job failed'))
      .finally(() => {
        busy = false;
      });
  };
  const first = setTimeout(run, 0);
  const timer = setInterval(run, intervalSeconds * 1000);
  first.unref();
  timer.unref();
  return {
    close: async () => {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
