// The billing job's scheduled charges (docs/billing.md, "Charges"): each device's subscription
// periods charged in advance when they start, missed periods caught up one charge each. Each
// device is charged in a write of its own with its row locked, and the unique index on
// (device_id, period_from) of scheduled charges makes one charge per period however many nodes
// run the job at once.
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { systemActor } from '../../common/context';
import { write } from '../../common/write';
import { BillingDeviceModel as DeviceModel } from '../models/billing-device.model';
import { BillingOrganizationModel as OrganizationModel } from '../models/billing-organization.model';
import { BillingLedger, describeUnits } from './billing-ledger';
import { periodsStarting, readSubscription } from './periods';
import { chargeCents, effectivePricing, monthlyPrice, tierDiscount } from './price';
import { unitTotal } from './units';

/** What one run did. */
export interface SubscriptionRun {
  /** The moment it charged up to. */
  at: string;
  /** Periods marked charged (with or without a charge). */
  periods: number;
  /** Charges written. */
  charges: number;
  /** Their sum in euro cents. */
  cents: number;
}

const actor = systemActor('billing job');
const day = (date: Date) => date.toISOString().slice(0, 10);

export class SubscriptionJob {
  constructor(
    private readonly db: Knex,
    private readonly ledger: BillingLedger,
    private readonly clock: () => Date,
    private readonly log?: Logger,
  ) {}

  /** Charges every period that has started by `at` (now unless given) and is not yet charged. */
  async run(at: Date = this.clock()): Promise<SubscriptionRun> {
    const result: SubscriptionRun = { at: at.toISOString(), periods: 0, charges: 0, cents: 0 };
    const due = (await this.db('devices')
      .whereNotNull('subscription')
      .whereNotNull('organization_id')
      .where((builder) => void builder.whereNull('subscription_charged_until').orWhere('subscription_charged_until', '<=', at))
      .orderBy('id')
      .select('id')) as { id: string | number }[];
    for (const row of due) {
      try {
        const done = await this.chargeDevice(Number(row.id), at);
        result.periods += done.periods;
        result.charges += done.charges;
        result.cents += done.cents;
      } catch (error) {
        // One device's failure does not hold up the others; the next run tries it again.
        this.log?.error({ err: error, deviceId: Number(row.id) }, 'billing job: charging a device failed');
      }
    }
    if (result.periods > 0) {
      this.log?.info(result, 'billing job: subscription periods charged');
    }
    return result;
  }

  /** One device's periods that have started by `at`, in its own write. */
  private chargeDevice(deviceId: number, at: Date): Promise<Omit<SubscriptionRun, 'at'>> {
    return write(this.db, actor, async (w) => {
      const done = { periods: 0, charges: 0, cents: 0 };
      const device = await DeviceModel.query(w.trx).findById(deviceId).forUpdate();
      const subscription = device ? readSubscription(device.subscription) : null;
      if (!device || !subscription || device.organizationId === null) {
        return done;
      }
      const periods = periodsStarting(subscription, device.subscriptionChargedUntil, at);
      if (periods.length === 0) {
        return done;
      }
      const organization = await OrganizationModel.query(w.trx).findById(device.organizationId);
      const units = device.billingUnits;
      const count = await BillingLedger.organizationUnitCount(w.trx, device.organizationId);
      for (const period of periods) {
        const pricing = effectivePricing(organization?.pricing ?? null, period.from);
        // Legacy pricing and usage: false charge nothing automatically; the period is passed over all the same.
        if (period.usage && pricing.type === 'usage' && unitTotal(units) > 0) {
          const discount = tierDiscount(count, pricing);
          const price = monthlyPrice(units, pricing);
          const cents = chargeCents(price, period.months, discount);
          if (cents > 0) {
            const id = await this.ledger.insertSubscriptionCharge(w, device, {
              reason: 'scheduled',
              description: `Subscription ${day(period.from)} to ${day(period.to)}: ${describeUnits(units)}`,
              units,
              monthlyPrice: price,
              discount,
              billableAt: period.from,
              period,
              cents,
            });
            if (id !== null) {
              done.charges += 1;
              done.cents += cents;
            }
          }
        }
        done.periods += 1;
      }
      const last = periods[periods.length - 1];
      if (last) {
        await w
          .trx('devices')
          .where('id', deviceId)
          .update({ subscription_charged_until: last.to, charged_period_from: last.from, charged_units: JSON.stringify(units) });
      }
      return done;
    });
  }
}

/** Runs the job every `intervalSeconds` (and once at start) until closed; a run never overlaps the one before. */
export function startSubscriptionJob(job: SubscriptionJob, intervalSeconds: number, log: Logger): { close(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let closed = false;
  const tick = () => {
    running = running.then(() => (closed ? null : job.run())).catch((error: unknown) => log.error({ err: error }, 'billing job failed'));
  };
  tick();
  const timer = setInterval(tick, intervalSeconds * 1000);
  timer.unref();
  return {
    close: async () => {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
