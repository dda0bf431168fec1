import type { Knex } from 'knex';
import type { BillingChargeView, BillingForecastView, ChargeListQuery, ChargeRefund, ManualChargeCreate } from '../../../contracts/billing';
import { GridportError } from '../../../contracts/errors';
import type { Page } from '../../../contracts/pagination';
import { authorize, type Actor } from '../../common/context';
import { pageRowsById } from '../../common/cursor';
import { diffObjects } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { containsPattern } from '../../common/like';
import { listOrganizationScope } from '../../common/tenancy';
import { write, type Write } from '../../common/write';
import { BillingDeviceModel as DeviceModel } from '../models/billing-device.model';
import { BillingOrganizationModel as OrganizationModel } from '../models/billing-organization.model';
import { BillingChargeModel } from '../models/billing-charge.model';
import { BillingLedger, chargeAuditedFields } from './billing-ledger';
import { discounted, effectivePricing, monthlyPrice, tierDiscount } from './price';
import { unitTotal } from './units';
import { isoTime } from '../../common/timestamps';

const numberOrNull = (value: string | number | null) => (value === null ? null : Number(value));

/**
 * Charges (docs/billing.md, "Charges"): the list and one charge with every filter of
 * console.md section 7, manual charges and credits, their removal while uninvoiced, refunds,
 * and the monthly forecast of an organisation.
 */
export class BillingChargeService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly clock: () => Date,
  ) {}

  private decode(hashId: string): number {
    const id = this.hashIds.decode('billingCharge', hashId);
    if (id === null) {
      throw new GridportError('not_found', { billingChargeHashId: hashId });
    }
    return id;
  }

  private async find(db: Knex, hashId: string, lock = false): Promise<BillingChargeModel> {
    const query = BillingChargeModel.query(db).findById(this.decode(hashId));
    const charge = await (lock ? query.forUpdate() : query);
    if (!charge) {
      throw new GridportError('not_found', { billingChargeHashId: hashId });
    }
    return charge;
  }

  /** Charges as their views, in a fixed number of queries however many there are. */
  async present(charges: readonly BillingChargeModel[], db: Knex = this.db): Promise<BillingChargeView[]> {
    const ids = (values: (number | null)[]) => [...new Set(values.filter((value): value is number => value !== null).map(Number))];
    const organizationIds = ids(charges.map((charge) => charge.organizationId));
    const entityIds = ids(charges.map((charge) => charge.billingLegalEntityId));
    const invoiceIds = ids(charges.map((charge) => charge.invoiceId));
    // A charge keeps its device's name when it is made; one without (written by hand) shows the device's name now.
    const unnamedDeviceIds = ids(charges.map((charge) => (charge.deviceName === null ? charge.deviceId : null)));
    const [organizations, entities, invoices, devices] = await Promise.all([
      organizationIds.length === 0 ? [] : (db('organizations').whereIn('id', organizationIds).select('id', 'name') as Promise<{ id: number; name: string }[]>),
      entityIds.length === 0
        ? []
        : (db('billing_legal_entities').whereIn('id', entityIds).select('id', 'company_name') as Promise<{ id: number; company_name: string }[]>),
      invoiceIds.length === 0
        ? []
        : (db('billing_invoices').whereIn('id', invoiceIds).select('id', 'public_id') as Promise<{ id: number; public_id: string }[]>),
      unnamedDeviceIds.length === 0 ? [] : (db('devices').whereIn('id', unnamedDeviceIds).select('id', 'name') as Promise<{ id: number; name: string }[]>),
    ]);
    const deviceName = new Map(devices.map((row) => [Number(row.id), row.name]));
    const organizationName = new Map(organizations.map((row) => [Number(row.id), row.name]));
    const entityName = new Map(entities.map((row) => [Number(row.id), row.company_name]));
    const invoicePublicId = new Map(invoices.map((row) => [Number(row.id), row.public_id]));
    return charges.map((charge) => ({
      hashId: this.hashIds.encode('billingCharge', charge.id),
      organization: { hashId: this.hashIds.encode('organization', charge.organizationId), name: organizationName.get(Number(charge.organizationId)) ?? '' },
      device:
        charge.deviceId === null
          ? null
          : { hashId: this.hashIds.encode('device', charge.deviceId), name: charge.deviceName ?? deviceName.get(Number(charge.deviceId)) ?? '' },
      source: charge.source,
      reason: charge.reason,
      description: charge.description,
      monthlyPriceBeforeDiscount: numberOrNull(charge.monthlyPriceBeforeDiscount),
      discount: numberOrNull(charge.discount),
      billableAt: isoTime(new Date(charge.billableAt)),
      from: charge.periodFrom ? isoTime(new Date(charge.periodFrom)) : null,
      to: charge.periodTo ? isoTime(new Date(charge.periodTo)) : null,
      charge: Number(charge.chargeCents),
      customerReference: charge.customerReference,
      ledgerAccount: charge.ledgerAccount,
      billingLegalEntity:
        charge.billingLegalEntityId === null
          ? null
          : { hashId: this.hashIds.encode('billingLegalEntity', charge.billingLegalEntityId), name: entityName.get(Number(charge.billingLegalEntityId)) ?? '' },
      invoiceHashId: charge.invoiceId === null ? null : this.hashIds.encode('billingInvoice', charge.invoiceId),
      invoicePublicId: charge.invoiceId === null ? null : (invoicePublicId.get(Number(charge.invoiceId)) ?? null),
      refunded: Number(charge.refundedCents) > 0,
      refundOfHashId: charge.refundOfId === null ? null : this.hashIds.encode('billingCharge', charge.refundOfId),
      createdAt: isoTime(new Date(charge.createdAt)),
    }));
  }

  private async presentOne(charge: BillingChargeModel): Promise<BillingChargeView> {
    const [view] = await this.present([charge]);
    if (!view) {
      throw new Error('present() answered no view for a charge');
    }
    return view;
  }

  async get(actor: Actor, hashId: string): Promise<BillingChargeView> {
    authorize(actor, 'billingCharge.read');
    return this.presentOne(await this.find(this.db, hashId));
  }

  /** Charges newest first, by organisation, device, invoice, invoiced or not, and text (the description or the invoice's public id). */
  async list(actor: Actor, query: ChargeListQuery): Promise<Page<BillingChargeView>> {
    authorize(actor, 'billingCharge.list');
    const builder = BillingChargeModel.query(this.db);
    const organizationId = listOrganizationScope(actor, this.hashIds, query.organizationHashId);
    if (organizationId !== null) {
      void builder.where('billing_charges.organization_id', organizationId);
    }
    // A hash id that names nothing of its kind matches no charge.
    if (query.deviceHashId !== undefined) {
      void builder.where('billing_charges.device_id', this.hashIds.decode('device', query.deviceHashId) ?? -1);
    }
    if (query.invoiceHashId !== undefined) {
      void builder.where('billing_charges.invoice_id', this.hashIds.decode('billingInvoice', query.invoiceHashId) ?? -1);
    }
    if (query.invoiced !== undefined) {
      void (query.invoiced ? builder.whereNotNull('billing_charges.invoice_id') : builder.whereNull('billing_charges.invoice_id'));
    }
    if (query.filter) {
      const pattern = containsPattern(query.filter);
      void builder.where(
        (inner) =>
          void inner
            .whereILike('billing_charges.description', pattern)
            .orWhereExists(
              this.db('billing_invoices').whereRaw('billing_invoices.id = billing_charges.invoice_id').whereILike('billing_invoices.public_id', pattern),
            ),
      );
    }
    const page = await pageRowsById(builder, query, 'billing_charges.id');
    return { rows: await this.present(page.rows), nextPageOffset: page.nextPageOffset };
  }

  private async audit(
    w: Write,
    charge: BillingChargeModel | null,
    before: BillingChargeModel | null,
    changeType: 'controllerCreate' | 'controllerUpdate' | 'controllerDelete',
  ): Promise<void> {
    const subject = (charge ?? before) as BillingChargeModel;
    await w.audit({
      objectType: 'billing_charges',
      objectId: subject.id,
      organizationId: subject.organizationId,
      changeType,
      diff: diffObjects(chargeAuditedFields, before, charge),
    });
  }

  /** POST /billing-charge: a manual charge (or credit, negative) of an organisation, of one of its devices when given. */
  async create(actor: Actor, input: ManualChargeCreate): Promise<{ billingChargeHashId: string }> {
    authorize(actor, 'billingCharge.create');
    const organizationId = this.hashIds.decode('organization', input.organizationHashId);
    if (organizationId === null) {
      throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
    }
    return write(this.db, actor, async (w) => {
      if (!(await OrganizationModel.query(w.trx).findById(organizationId))) {
        throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
      }
      let device: DeviceModel | undefined;
      if (input.deviceHashId !== null) {
        const deviceId = this.hashIds.decode('device', input.deviceHashId);
        device = deviceId === null ? undefined : await DeviceModel.query(w.trx).findById(deviceId);
        // A device of another organisation is as unknown as one that does not exist.
        if (!device || device.organizationId !== organizationId) {
          throw new GridportError('not_found', { deviceHashId: input.deviceHashId });
        }
      }
      const charge = await BillingChargeModel.query(w.trx).insertAndFetch({
        organizationId,
        deviceId: device?.id ?? null,
        deviceName: device?.name ?? null,
        source: input.source,
        reason: 'manuallyAdded',
        description: input.description,
        billableAt: input.billableAt ?? this.clock(),
        chargeCents: input.charge,
        customerReference: device?.invoiceCustomerReference ?? null,
        ledgerAccount: input.ledgerAccount,
        billingLegalEntityId: device?.billingLegalEntityId ?? null,
        createdByUserId: actor.userId,
        createdAt: this.clock(),
      });
      await this.audit(w, charge, null, 'controllerCreate');
      return { billingChargeHashId: this.hashIds.encode('billingCharge', charge.id) };
    });
  }

  /** DELETE /billing-charge/{hashId}: only a manual charge not yet invoiced (not_manual, is_invoiced). */
  async remove(actor: Actor, hashId: string): Promise<void> {
    authorize(actor, 'billingCharge.delete');
    await write(this.db, actor, async (w) => {
      const charge = await this.find(w.trx, hashId, true);
      if (charge.source === 'subscription' || charge.reason !== 'manuallyAdded') {
        throw new GridportError('not_manual', { billingChargeHashId: hashId, source: charge.source, reason: charge.reason });
      }
      if (charge.invoiceId !== null) {
        throw new GridportError('is_invoiced', { billingChargeHashId: hashId, invoiceHashId: this.hashIds.encode('billingInvoice', charge.invoiceId) });
      }
      if (Number(charge.refundedCents) > 0) {
        throw new GridportError('forbidden', { reason: 'the charge has refunds; remove them first' });
      }
      if (charge.refundOfId !== null) {
        // Removing a refund gives the refunded charge back what it took.
        const refunded = await BillingChargeModel.query(w.trx).findById(charge.refundOfId).forUpdate();
        if (refunded) {
          const after = await BillingChargeModel.query(w.trx).patchAndFetchById(refunded.id, {
            refundedCents: Number(refunded.refundedCents) - Math.abs(Number(charge.chargeCents)),
          });
          await this.audit(w, after, refunded, 'controllerUpdate');
        }
      }
      await BillingChargeModel.query(w.trx).deleteById(charge.id);
      await this.audit(w, null, charge, 'controllerDelete');
    });
  }

  /**
   * POST /billing-charge/{hashId}/refund: all of what is left of a charge or part of it, as a
   * charge of the opposite sign on the same ledger account naming it; a refund is not refunded.
   */
  async refund(actor: Actor, hashId: string, input: ChargeRefund): Promise<{ billingChargeHashId: string }> {
    authorize(actor, 'billingCharge.refund');
    return write(this.db, actor, async (w) => {
      const original = await this.find(w.trx, hashId, true);
      if (original.refundOfId !== null) {
        throw new GridportError('payload_invalid', [{ path: 'hashId', message: 'a refund cannot itself be refunded' }]);
      }
      const total = Math.abs(Number(original.chargeCents));
      const left = total - Number(original.refundedCents);
      if (left <= 0) {
        throw new GridportError('payload_invalid', [{ path: 'charge', message: 'the charge is already refunded in full' }]);
      }
      const amount = input.charge ?? left;
      if (amount > left) {
        throw new GridportError('payload_invalid', [{ path: 'charge', message: `charge must be at most ${left}, what is left to refund` }]);
      }
      const sign = Number(original.chargeCents) < 0 ? 1 : -1;
      const refund = await BillingChargeModel.query(w.trx).insertAndFetch({
        organizationId: original.organizationId,
        deviceId: original.deviceId,
        deviceName: original.deviceName,
        source: 'manual',
        reason: 'manuallyAdded',
        description: input.description ?? `Refund: ${original.description}`.slice(0, 255),
        billableAt: this.clock(),
        chargeCents: sign * amount,
        customerReference: original.customerReference,
        ledgerAccount: original.ledgerAccount,
        billingLegalEntityId: original.billingLegalEntityId,
        refundOfId: original.id,
        createdByUserId: actor.userId,
        createdAt: this.clock(),
      });
      const after = await BillingChargeModel.query(w.trx).patchAndFetchById(original.id, { refundedCents: Number(original.refundedCents) + amount });
      await this.audit(w, refund, null, 'controllerCreate');
      await this.audit(w, after, original, 'controllerUpdate');
      return { billingChargeHashId: this.hashIds.encode('billingCharge', refund.id) };
    });
  }

  /** GET /billing-forecast: what an organisation's devices billed by usage cost a month now. */
  async forecast(actor: Actor, organizationHashId: string): Promise<BillingForecastView> {
    authorize(actor, 'billingForecast.read');
    const organizationId = this.hashIds.decode('organization', organizationHashId);
    const organization = organizationId === null ? undefined : await OrganizationModel.query(this.db).findById(organizationId);
    if (!organization) {
      throw new GridportError('not_found', { organizationHashId });
    }
    const pricing = effectivePricing(organization.pricing, this.clock());
    const devices = await DeviceModel.query(this.db)
      .where('organization_id', organization.id)
      .whereRaw("(subscription->>'usage') = 'true'")
      .select('id', 'billing_units');
    const unitCount = devices.reduce((sum, device) => sum + unitTotal(device.billingUnits ?? {}), 0);
    const discount = tierDiscount(unitCount, pricing);
    const before = Math.round(devices.reduce((sum, device) => sum + monthlyPrice(device.billingUnits ?? {}, pricing), 0) * 10_000) / 10_000;
    return {
      organization: { hashId: organizationHashId, name: organization.name },
      pricingType: pricing.type,
      unitCount,
      discount,
      monthlyPriceBeforeDiscount: before,
      monthlyPrice: discounted(before, discount),
      deviceCount: devices.length,
    };
  }

  /** The organisation unit count the ledger reckons discounts from (for tests and the CLI). */
  unitCount(organizationId: number): Promise<number> {
    return BillingLedger.organizationUnitCount(this.db, organizationId);
  }
}
