import { deviceUpdateSchema } from '../../../contracts/fleet';
import { validate } from '../../../contracts/validation';
import { systemActor } from '../../common/context';
import { HashIds } from '../../common/hash-ids';
import { createServices, type Services } from '../../services';
import { testSecrets } from '../../../test-support/app';
import { testDatabase, type TestDatabase } from '../../../test-support/database';
import { buildDevice } from '../../../test-support/factories';

const actor = systemActor('test');
const meter = { type: 'demo-meter', identifier: 'meter', communication: { type: 'none' } };
const solar = { type: 'demo-solar', identifier: 'solar', communication: { type: 'none' } };
const configWith = (...assets: object[]) => ({ network: {}, assets, reportingIntervalInSec: 60 });

describe('the billing ledger and job on the database, by a fixed clock (docs/billing.md, "Charges")', () => {
  let database: TestDatabase;
  let services: Services;
  let now = new Date('2026-01-01T00:00:00Z');
  const at = (iso: string) => {
    now = new Date(iso);
  };

  beforeAll(async () => {
    database = await testDatabase();
    services = createServices({
      db: database.db,
      hashIds: new HashIds(testSecrets.hashIdSecret),
      sessionSecret: testSecrets.sessionSecret,
      encryptionKey: testSecrets.encryptionKey,
      clock: () => now,
    });
  });

  afterAll(async () => {
    await database.close();
  });

  const update = (hashId: string, patch: object) =>
    services.devices.update(actor, hashId, validate(deviceUpdateSchema, structuredClone(patch), 'payload_invalid'));
  const chargesOf = async (deviceId: number) =>
    (await database.db('billing_charges').where('device_id', deviceId).orderBy('id')) as {
      reason: string;
      charge_cents: string | number;
      billable_at: Date;
      period_from: Date;
      period_to: Date;
      units: Record<string, number>;
      discount: string;
    }[];
  const row = async (deviceId: number) =>
    (await database.db('devices').where('id', deviceId).first()) as {
      billing_units: Record<string, number>;
      billing_unit_count: number;
      charged_units: Record<string, number>;
      charged_period_from: Date | null;
      subscription_charged_until: Date | null;
    };

  it('walks a device through a subscription: set, config mid-period, solar added, removed and re-added, the next period with a tier discount, two nodes', async () => {
    at('2026-01-01T00:00:00Z');
    const device = await buildDevice(services);
    await update(device.hashId, { subscription: { usage: true, chargePeriod: 1, runtime: 12, startAt: '2026-01-01T00:00:00Z' } });

    // The period starts without units: marked charged, no charge written.
    expect(await services.billingJob.run()).toMatchObject({ periods: 1, charges: 0 });
    expect(await chargesOf(device.id)).toEqual([]);
    expect((await row(device.id)).charged_period_from).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect((await row(device.id)).subscription_charged_until).toEqual(new Date('2026-02-01T00:00:00Z'));

    // A config arrives ten days in: the meter for the 21 of 31 days left, named after the change.
    at('2026-01-11T00:00:00Z');
    const view = await update(device.hashId, { config: configWith(meter) });
    expect(view.billingUsage).toEqual({ units: { 'asset.meter': 1 }, unitCount: 1, monthlyPriceBeforeDiscount: 5.25, monthlyPrice: 5.25 });
    let charges = await chargesOf(device.id);
    expect(charges.map((charge) => [charge.reason, Number(charge.charge_cents)])).toEqual([
      // 5.25 € × 100 × 21/31 = 355.645… → 356
      ['configChange', 356],
    ]);
    expect(charges[0]?.billable_at).toEqual(now);
    expect(charges[0]?.period_to).toEqual(new Date('2026-02-01T00:00:00Z'));

    // Solar added with 11 of 31 days left: an increase over what the period was charged for.
    at('2026-01-21T00:00:00Z');
    await update(device.hashId, { config: configWith(meter, solar) });
    charges = await chargesOf(device.id);
    // 29.18 € × 100 × 11/31 = 1035.419… → 1035
    expect(charges.map((charge) => [charge.reason, Number(charge.charge_cents)])).toEqual([
      ['configChange', 356],
      ['subscriptionIncrease', 1035],
    ]);
    expect(charges[1]?.units).toEqual({ 'asset.solar': 1 });

    // Solar removed and given back in the same period: nothing refunded, nothing charged twice.
    at('2026-01-22T00:00:00Z');
    await update(device.hashId, { config: configWith(meter) });
    expect((await row(device.id)).billing_units).toEqual({ 'asset.meter': 1 });
    at('2026-01-23T00:00:00Z');
    await update(device.hashId, { config: configWith(meter, solar) });
    expect(await chargesOf(device.id)).toHaveLength(2);
    expect((await row(device.id)).charged_units).toEqual({ 'asset.meter': 1, 'asset.solar': 1 });

    // The next period, scheduled, with the organisation's own tiers: 2 units pass the first tier (10 %).
    await database
      .db('organizations')
      .where('id', services.hashIds.decode('organization', device.organizationHashId))
      .update({
        pricing: JSON.stringify({
          type: 'usage',
          tiers: [
            { volume: 1, discount: 0 },
            { volume: 100, discount: 10 },
          ],
        }),
      });
    at('2026-02-01T00:00:00Z');
    expect(await services.billingJob.run()).toMatchObject({ charges: 1, cents: 3099 });
    charges = await chargesOf(device.id);
    // (29.18 + 5.25) € × 100 × 90 % = 3098.7 → 3099
    expect(charges[2]).toMatchObject({ reason: 'scheduled', charge_cents: 3099, discount: '10.0000' });
    expect(charges[2]?.billable_at).toEqual(new Date('2026-02-01T00:00:00Z'));
    expect(charges[2]?.period_to).toEqual(new Date('2026-03-01T00:00:00Z'));

    // The same run again finds nothing; two nodes catching up March and April make one charge each.
    expect(await services.billingJob.run()).toMatchObject({ periods: 0, charges: 0 });
    at('2026-04-01T00:00:00Z');
    const runs = await Promise.all([services.billingJob.run(), services.billingJob.run()]);
    expect(runs.reduce((sum, run) => sum + run.charges, 0)).toBe(2);
    charges = await chargesOf(device.id);
    expect(charges.filter((charge) => charge.reason === 'scheduled').map((charge) => charge.period_from.toISOString())).toEqual([
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
      '2026-04-01T00:00:00.000Z',
    ]);
  });

  it('a device that gets an organisation with subscription defaults is given a subscription by usage from then', async () => {
    at('2026-05-10T12:00:00Z');
    const device = await buildDevice(services);
    const organizationId = services.hashIds.decode('organization', device.organizationHashId);
    await database
      .db('organizations')
      .where('id', organizationId)
      .update({ subscription_defaults: JSON.stringify({ chargePeriod: 3, runtime: 12 }) });
    const other = await buildDevice(services, { organizationHashId: device.organizationHashId });
    const shipped = await services.devices.get(actor, other.hashId);
    expect(shipped.subscription).toEqual({ usage: true, chargePeriod: 3, runtime: 12, afterExpiration: null, startAt: '2026-05-10T12:00:00.000Z' });
    const moved = await buildDevice(services);
    const view = await update(moved.hashId, { organizationHashId: device.organizationHashId });
    expect(view.subscription).toMatchObject({ usage: true, chargePeriod: 3, runtime: 12 });
  });

  it('an ICCID and a continuous-support contact among the outage contacts count units', async () => {
    at('2026-06-01T00:00:00Z');
    const device = await buildDevice(services);
    await database.db('contacts').insert({ name: 'Support', email: 'support@example.com', roles: JSON.stringify(['continuous.support']) });
    await update(device.hashId, { iccid: '8931000000000000001', outageEmails: ['Support@example.com'] });
    expect((await row(device.id)).billing_units).toEqual({ cellular: 1, 'support.continuous': 1 });
    expect((await row(device.id)).billing_unit_count).toBe(2);
  });
});
