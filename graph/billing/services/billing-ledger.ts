// The billing ledger (docs/billing.md, "Units" and "Charges"): called inside the transaction of
// every change that can move a device's units. It recounts the units, keeps them on the device,
// and when the period already charged gains units it charges them pro rata to the period's end.
import type { Knex } from 'knex';
import type { BillingUnits, ChargeReason, DeviceBillingUsage } from '../../../contracts/billing';
import { diffObjects, sameJson, type FieldTypes } from '../../common/diff';
import type { Write } from '../../common/write';
import { BillingDeviceModel as DeviceModel } from '../models/billing-device.model';
import { BillingOrganizationModel as OrganizationModel } from '../models/billing-organization.model';
import { BillingChargeModel } from '../models/billing-charge.model';
import { periodAt, readSubscription, type Period } from './periods';
import { chargeCents, discounted, effectivePricing, monthlyPrice, tierDiscount } from './price';
import { unitTotal, unitsAbove, unitsMax, unitsOf } from './units';

/** The changes that can add units, each naming the charge it makes when nothing was charged for the period yet. */
export type UnitChange = Extract<ChargeReason, 'configChange' | 'deviceUpdate' | 'deviceGroupUpdate' | 'destinationUpdate'>;

/** What the audit log shows of a charge. */
export const chargeAuditedFields: FieldTypes<BillingChargeModel> = {
  organizationId: 'number',
  deviceId: 'number',
  source: 'string',
  reason: 'string',
  description: 'string',
  units: 'json',
  billableAt: 'date',
  periodFrom: 'date',
  periodTo: 'date',
  chargeCents: 'number',
  customerReference: 'string',
  ledgerAccount: 'string',
  invoiceId: 'number',
  refundOfId: 'number',
  refundedCents: 'number',
};

const day = (date: Date) => date.toISOString().slice(0, 10);

/** `2 asset.solar, 1 cellular` */
export function describeUnits(units: BillingUnits): string {
  return Object.entries(units)
    .map(([key, count]) => `${count} ${key}`)
    .join(', ');
}

export class BillingLedger {
  constructor(private readonly clock: () => Date) {}

  /** The subscription a device is given when it gets an organisation with subscriptionDefaults and has none (docs/billing.md). */
  async defaultSubscription(trx: Knex, organizationId: number | null): Promise<Record<string, unknown> | null> {
    if (organizationId === null) {
      return null;
    }
    const organization = await OrganizationModel.query(trx).findById(organizationId);
    const defaults = organization?.subscriptionDefaults;
    if (!defaults) {
      return null;
    }
    return { usage: true, chargePeriod: defaults.chargePeriod, runtime: defaults.runtime, afterExpiration: null, startAt: this.clock().toISOString() };
  }

  /** The units of the organisation's devices billed by usage: what its tier discount is reckoned from. */
  static async organizationUnitCount(db: Knex, organizationId: number): Promise<number> {
    const row = (await db('devices')
      .where('organization_id', organizationId)
      .whereRaw("(subscription->>'usage') = 'true'")
      .sum({ total: 'billing_unit_count' })
      .first()) as { total: string | number | null } | undefined;
    return Number(row?.total ?? 0);
  }

  /**
   * The billing usage of devices (the device lists' column): their units, their monthly price
   * at their organisation's pricing now, before and after the tier discount the organisation
   * reaches; a fixed number of queries per organisation among them.
   */
  async usageOf(
    db: Knex,
    devices: readonly Pick<DeviceModel, 'id' | 'organizationId' | 'billingUnits' | 'billingUnitCount'>[],
  ): Promise<Map<number, DeviceBillingUsage>> {
    const now = this.clock();
    const organizationIds = [...new Set(devices.flatMap((device) => (device.organizationId === null ? [] : [device.organizationId])))];
    const organizations = organizationIds.length === 0 ? [] : await OrganizationModel.query(db).whereIn('id', organizationIds);
    const terms = new Map<number, { pricing: ReturnType<typeof effectivePricing>; discount: number }>();
    for (const organization of organizations) {
      const pricing = effectivePricing(organization.pricing, now);
      terms.set(Number(organization.id), { pricing, discount: tierDiscount(await BillingLedger.organizationUnitCount(db, organization.id), pricing) });
    }
    const usage = new Map<number, DeviceBillingUsage>();
    for (const device of devices) {
      const units = device.billingUnits ?? {};
      const own = device.organizationId === null ? undefined : terms.get(device.organizationId);
      const pricing = own?.pricing ?? effectivePricing(null, now);
      const price = monthlyPrice(units, pricing);
      usage.set(device.id, {
        units,
        unitCount: device.billingUnitCount ?? unitTotal(units),
        monthlyPriceBeforeDiscount: price,
        monthlyPrice: discounted(price, own?.discount ?? 0),
      });
    }
    return usage;
  }

  /** Recounts the units of one device and charges what the change adds to its charged period. */
  async deviceChanged(w: Write, deviceId: number, change: UnitChange): Promise<void> {
    const device = await DeviceModel.query(w.trx).findById(deviceId).forUpdate();
    if (!device) {
      return;
    }
    const units = unitsOf({ config: device.config, iccid: device.iccid, continuousSupport: await this.continuousSupport(w.trx, device) });
    const count = unitTotal(units);
    if (!sameJson(units, device.billingUnits) || count !== device.billingUnitCount) {
      await w
        .trx('devices')
        .where('id', deviceId)
        .update({ billing_units: JSON.stringify(units), billing_unit_count: count });
    }
    await this.chargeIncrease(w, device, units, change);
  }

  /** Every device of a group (its device outage contacts changed, or what it forwards to). */
  async groupChanged(w: Write, groupId: number, change: UnitChange): Promise<void> {
    const rows = (await w.trx('devices').where('device_group_id', groupId).orderBy('id').select('id')) as { id: string | number }[];
    for (const row of rows) {
      await this.deviceChanged(w, Number(row.id), change);
    }
  }

  /** Every device of every group that forwards to a destination whose outage contacts changed. */
  async destinationChanged(w: Write, destinationId: number): Promise<void> {
    const rows = (await w
      .trx('devices')
      .whereIn('device_group_id', w.trx('device_group_message_destinations').where('message_destination_id', destinationId).select('device_group_id'))
      .orderBy('id')
      .select('id')) as { id: string | number }[];
    for (const row of rows) {
      await this.deviceChanged(w, Number(row.id), 'destinationUpdate');
    }
  }

  /** Every device whose outage contacts may name these emails (a contact's roles or email changed). */
  async contactChanged(w: Write, emails: readonly string[]): Promise<void> {
    if (emails.length === 0) {
      return;
    }
    const lower = [...new Set(emails.map((email) => email.toLowerCase()))];
    const inList = (values: readonly unknown[]) => values.map(() => '?').join(', ');
    const users = (await w
      .trx('users')
      .whereRaw(`lower(email) in (${inList(lower)})`, lower)
      .select('id')) as { id: string | number }[];
    const userIds = users.map((user) => String(user.id));
    const named = (column: string, ids: string) => (builder: Knex.QueryBuilder) => {
      void builder.whereRaw(`exists (select 1 from jsonb_array_elements_text(${column}) e where lower(e) in (${inList(lower)}))`, lower);
      if (userIds.length > 0) {
        void builder.orWhereRaw(`exists (select 1 from jsonb_array_elements_text(${ids}) u where u in (${inList(userIds)}))`, userIds);
      }
    };
    const groups = w.trx('device_groups').where(named('device_outage_emails', 'device_outage_user_ids')).select('id');
    const destinations = w.trx('message_destinations').where(named('outage_emails', 'outage_user_ids')).select('id');
    const rows = (await w
      .trx('devices')
      .where(named('outage_emails', 'outage_user_ids'))
      .orWhereIn('device_group_id', groups)
      .orWhereIn('device_group_id', w.trx('device_group_message_destinations').whereIn('message_destination_id', destinations).select('device_group_id'))
      .orderBy('id')
      .select('id')) as { id: string | number }[];
    for (const row of rows) {
      await this.deviceChanged(w, Number(row.id), 'deviceUpdate');
    }
  }

  /**
   * Whether a contact with the role continuous.support is among the device's outage contacts,
   * its group's device outage contacts, or those of a destination its group forwards to
   * (matched by email; a user is matched by their email).
   */
  private async continuousSupport(trx: Knex, device: DeviceModel): Promise<boolean> {
    const emails = new Set(device.outageEmails.map((email) => email.toLowerCase()));
    const userIds = new Set(device.outageUserIds);
    if (device.deviceGroupId !== null) {
      const group = (await trx('device_groups').where('id', device.deviceGroupId).first('device_outage_emails', 'device_outage_user_ids')) as
        { device_outage_emails: string[]; device_outage_user_ids: number[] } | undefined;
      for (const email of group?.device_outage_emails ?? []) {
        emails.add(email.toLowerCase());
      }
      for (const id of group?.device_outage_user_ids ?? []) {
        userIds.add(Number(id));
      }
      const destinations = (await trx('message_destinations')
        .whereIn('id', trx('device_group_message_destinations').where('device_group_id', device.deviceGroupId).select('message_destination_id'))
        .select('outage_emails', 'outage_user_ids')) as { outage_emails: string[]; outage_user_ids: number[] }[];
      for (const destination of destinations) {
        destination.outage_emails.forEach((email) => emails.add(email.toLowerCase()));
        destination.outage_user_ids.forEach((id) => userIds.add(Number(id)));
      }
    }
    if (userIds.size > 0) {
      const users = (await trx('users')
        .whereIn('id', [...userIds])
        .select('email')) as { email: string }[];
      users.forEach((user) => emails.add(user.email.toLowerCase()));
    }
    if (emails.size === 0) {
      return false;
    }
    const contact = await trx('contacts')
      .whereRaw(`roles @> '["continuous.support"]'::jsonb`)
      .whereRaw(`lower(email) in (${[...emails].map(() => '?').join(', ')})`, [...emails])
      .where((builder) => void builder.whereNull('organization_id').orWhere('organization_id', device.organizationId ?? -1))
      .first('id');
    return contact !== undefined;
  }

  /**
   * A change within a period already charged: the units above those charged for it, priced
   * pro rata to the period's end (docs/billing.md, "Charges"). A period not yet charged is left
   * to the billing job, which charges it whole.
   */
  private async chargeIncrease(w: Write, device: DeviceModel, units: BillingUnits, change: UnitChange): Promise<void> {
    const subscription = readSubscription(device.subscription);
    if (!subscription || device.organizationId === null || device.chargedPeriodFrom === null) {
      return;
    }
    const now = this.clock();
    const period = periodAt(subscription, now);
    if (!period || !period.usage || period.from.getTime() !== new Date(device.chargedPeriodFrom).getTime()) {
      return;
    }
    const added = unitsAbove(units, device.chargedUnits);
    if (unitTotal(added) === 0) {
      return;
    }
    const organization = await OrganizationModel.query(w.trx).findById(device.organizationId);
    const pricing = effectivePricing(organization?.pricing ?? null, now);
    if (pricing.type === 'legacy') {
      return;
    }
    await w
      .trx('devices')
      .where('id', device.id)
      .update({ charged_units: JSON.stringify(unitsMax(device.chargedUnits, units)) });
    const discount = tierDiscount(await BillingLedger.organizationUnitCount(w.trx, device.organizationId), pricing);
    const price = monthlyPrice(added, pricing);
    const fraction = (period.to.getTime() - now.getTime()) / (period.to.getTime() - period.from.getTime());
    const cents = chargeCents(price, period.months, discount, fraction);
    if (cents === 0) {
      return;
    }
    const reason: ChargeReason = unitTotal(device.chargedUnits) > 0 ? 'subscriptionIncrease' : change;
    await this.insertSubscriptionCharge(w, device, {
      reason,
      description: `Subscription increase ${day(now)} to ${day(period.to)}: ${describeUnits(added)}`,
      units: added,
      monthlyPrice: price,
      discount,
      billableAt: now,
      period: { ...period, from: now },
      cents,
    });
  }

  /** Writes and audits a subscription charge of a device, in the caller's write; answers its id. */
  async insertSubscriptionCharge(
    w: Write,
    device: DeviceModel,
    charge: {
      reason: ChargeReason;
      description: string;
      units: BillingUnits;
      monthlyPrice: number;
      discount: number;
      billableAt: Date;
      period: Pick<Period, 'from' | 'to'>;
      cents: number;
    },
  ): Promise<number | null> {
    const columns = {
      organization_id: device.organizationId,
      device_id: device.id,
      device_name: device.name,
      source: 'subscription',
      reason: charge.reason,
      description: charge.description.slice(0, 255),
      monthly_price_before_discount: charge.monthlyPrice,
      discount: charge.discount,
      units: JSON.stringify(charge.units),
      billable_at: charge.billableAt,
      period_from: charge.period.from,
      period_to: charge.period.to,
      charge_cents: charge.cents,
      customer_reference: device.invoiceCustomerReference,
      ledger_account: 'saas',
      billing_legal_entity_id: device.billingLegalEntityId ?? null,
      created_at: this.clock(),
    };
    // One scheduled charge per device and period, whichever node makes it (billing_charges_scheduled_unique).
    const insert = w.trx('billing_charges').insert(columns).toSQL();
    const inserted = (await w.trx.raw(`${insert.sql} on conflict (device_id, period_from) where reason = 'scheduled' do nothing returning id`, [
      ...insert.bindings,
    ])) as { rows: { id: string | number }[] };
    const row = inserted.rows[0];
    if (!row) {
      return null;
    }
    const id = Number(row.id);
    const saved = await BillingChargeModel.query(w.trx).findById(id);
    await w.audit({
      objectType: 'billing_charges',
      objectId: id,
      organizationId: device.organizationId,
      changeType: 'controllerCreate',
      diff: diffObjects(chargeAuditedFields, null, saved ?? null),
    });
    return id;
  }
}
