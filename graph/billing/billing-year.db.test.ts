import { chargeRefundSchema, legalEntityCreateSchema, manualChargeCreateSchema, type BillingInvoiceView } from '../../contracts/billing';
import { deviceInvoiceDetailsSchema, deviceShipSchema, deviceUpdateSchema } from '../../contracts/fleet';
import { organizationCreateSchema } from '../../contracts/organization';
import { validate } from '../../contracts/validation';
import { openDatabase, type Database } from '../../server/database';
import { testSecrets } from '../../test-support/app';
import { testDatabase, type TestDatabase } from '../../test-support/database';
import { systemActor } from '../common/context';
import { HashIds } from '../common/hash-ids';
import { createServices, type Services } from '../services';

/**
 * A customer's year of billing, end to end (issue 19, "Done when"; docs/billing.md): one
 * organisation with usage pricing (its own rates for solar and meters, its own tiers), devices
 * shipped and configured mid-period, a config change that adds units, a manual hardware charge,
 * a partial refund, an ICCID, a default legal entity and a device with its own. A fixed clock
 * walks 2026 month by month; at each month start the subscription job and the invoicing job run
 * (the invoicing job twice, from two services instances at once, then once more), and every
 * invoice's total and totals per ledger account are compared with sums worked out by hand below.
 */
describe('a year of billing', () => {
  const actor = systemActor('test');
  const hashIds = new HashIds(testSecrets.hashIdSecret);
  let database: TestDatabase;
  let services: Services;
  /** A second services instance: on PostgreSQL on a pool of its own, as another node; PGlite has one connection, shared. */
  let other: Database | null = null;
  let second: Services;
  let now = new Date('2026-01-01T00:00:00Z');
  const at = (iso: string) => {
    now = new Date(iso);
  };
  const servicesOn = (db: Database) =>
    createServices({ db, hashIds, sessionSecret: testSecrets.sessionSecret, encryptionKey: testSecrets.encryptionKey, clock: () => now });

  beforeAll(async () => {
    database = await testDatabase();
    services = servicesOn(database.db);
    other = database.kind === 'postgres' ? openDatabase({ url: process.env.DATABASE_URL ?? '', schema: database.schema, poolMax: 2 }).db : null;
    second = servicesOn(other ?? database.db);
  });

  afterAll(async () => {
    await other?.destroy();
    await database.close();
  });

  const asset = (type: string, identifier: string) => ({ type, identifier, communication: { type: 'none' } });
  const solar = asset('demo-solar', 'solar');
  const battery = asset('demo-battery', 'battery');
  const meter = asset('demo-meter', 'meter');
  const meter2 = asset('demo-meter', 'meter2');
  const configWith = (...assets: object[]) => ({ network: {}, assets, reportingIntervalInSec: 60 });

  const ship = async (organizationHashId: string, name: string) => {
    const { hashId } = await services.devices.ship(actor, validate(deviceShipSchema, { organizationHashId, name }, 'payload_invalid'));
    return hashId;
  };
  const update = (hashId: string, patch: object) =>
    services.devices.update(actor, hashId, validate(deviceUpdateSchema, structuredClone(patch), 'payload_invalid'));
  const chargesOf = async (deviceHashId: string) =>
    (
      (await database
        .db('billing_charges')
        .where('device_id', hashIds.decode('device', deviceHashId) ?? -1)
        .orderBy('id')
        .select('id', 'reason', 'charge_cents', 'discount')) as {
        id: string | number;
        reason: string;
        charge_cents: string | number;
        discount: string | null;
      }[]
    ).map((row) => ({
      id: Number(row.id),
      reason: row.reason,
      cents: Number(row.charge_cents),
      discount: row.discount === null ? null : Number(row.discount),
    }));

  /** What the run made: each invoice as [public id, legal entity name, total, hardware, saas, consultancy, charge count]. */
  type Made = [string, string | null, number, number, number, number, number];
  const made = (invoices: readonly BillingInvoiceView[]): Made[] =>
    invoices.map((invoice) => [
      invoice.publicId,
      invoice.billingLegalEntity?.name ?? null,
      invoice.charge,
      invoice.totals.hardware,
      invoice.totals.saas,
      invoice.totals.consultancy,
      invoice.chargeCount,
    ]);

  /**
   * A month start: the subscription job (on both instances at once), then the invoicing job on
   * both instances at once (one invoice per group between them), then once more (nothing).
   */
  const monthStart = async (iso: string): Promise<Made[]> => {
    at(iso);
    await Promise.all([services.billingJob.run(), second.billingJob.run()]);
    const runs = await Promise.all([services.invoicing.runAll(), second.invoicing.runAll()]);
    const invoices = runs.flat().flatMap((run) => run.invoices);
    expect((await services.invoicing.runAll()).flatMap((run) => run.invoices)).toEqual([]);
    return made([...invoices].sort((a, b) => (a.publicId < b.publicId ? -1 : 1)));
  };
  /** Between month starts both jobs run and the invoicing job (monthly) finds nothing before the month's start. */
  const midMonth = async (iso: string) => {
    at(iso);
    await services.billingJob.run();
    expect((await services.invoicing.runAll()).flatMap((run) => run.invoices)).toEqual([]);
  };

  it('invoices every month the sums worked out by hand, tier discount included, with public ids without gaps', async () => {
    // 1 January 2026: the organisation, priced by usage: solar 20 € and meters 4 € a month (the
    // other keys at the defaults: battery 58.35 €, cellular 1.75 €); up to 6 units no discount,
    // above 6 units 10 %.
    at('2026-01-01T00:00:00Z');
    const organization = await services.organizations.create(
      actor,
      validate(
        organizationCreateSchema,
        {
          name: 'Year Customer',
          type: 'asset-owner',
          pricing: {
            type: 'usage',
            rates: { 'asset.solar': 20, 'asset.meter': 4 },
            tiers: [
              { volume: 6, discount: 0 },
              { volume: 50, discount: 10 },
            ],
          },
        },
        'payload_invalid',
      ),
    );
    const organizationId = hashIds.decode('organization', organization.hashId) as number;
    const defaultEntity = await services.billingLegalEntities.create(
      actor,
      validate(
        legalEntityCreateSchema,
        { organizationHashId: organization.hashId, companyName: 'Year Customer B.V.', country: 'NL', isOrganizationDefault: true },
        'payload_invalid',
      ),
    );
    const ownEntity = await services.billingLegalEntities.create(
      actor,
      validate(legalEntityCreateSchema, { organizationHashId: organization.hashId, companyName: 'Year Site C B.V.', country: 'NL' }, 'payload_invalid'),
    );
    expect(defaultEntity.isOrganizationDefault).toBe(true);

    // Device A, monthly, and device B, quarterly, shipped without a config; their first periods start empty.
    const a = await ship(organization.hashId, 'Site A');
    const b = await ship(organization.hashId, 'Site B');
    await update(a, { subscription: { usage: true, chargePeriod: 1, runtime: 12, startAt: '2026-01-01T00:00:00Z' } });
    await update(b, { subscription: { usage: true, chargePeriod: 3, runtime: 12, startAt: '2026-01-01T00:00:00Z' } });
    expect(await monthStart('2026-01-01T00:00:00Z')).toEqual([]);
    expect(await chargesOf(a)).toEqual([]);

    // 11 January: A configured (solar, meter): 2 units, no discount, for 21 of January's 31 days.
    at('2026-01-11T00:00:00Z');
    await update(a, { config: configWith(solar, meter) });
    // 16 January: B configured (solar, battery): 4 units in all, for 75 of the quarter's 90 days.
    at('2026-01-16T00:00:00Z');
    await update(b, { config: configWith(solar, battery) });
    // 20 January: a manual charge for hardware shipped, on the organisation.
    at('2026-01-20T00:00:00Z');
    await services.billingCharges.create(
      actor,
      validate(
        manualChargeCreateSchema,
        { organizationHashId: organization.hashId, source: 'shipment', description: 'Gateway hardware', charge: 45_000, ledgerAccount: 'hardware' },
        'payload_invalid',
      ),
    );
    expect((await chargesOf(a)).map((charge) => [charge.reason, charge.cents])).toEqual([
      ['configChange', 1626], // (20 + 4) € × 100 × 21/31 = 1625.81 → 1626
    ]);
    expect((await chargesOf(b)).map((charge) => [charge.reason, charge.cents])).toEqual([
      ['configChange', 19588], // (20 + 58.35) € × 100 × 3 months × 75/90 = 19587.5 → 19588 (half up)
    ]);
    await midMonth('2026-01-25T12:00:00Z');

    // 1 February: A's February charged (4 units: no discount); January's charges invoiced.
    expect(await monthStart('2026-02-01T00:00:00Z')).toEqual([
      // 1626 + 19588 saas; 45000 hardware
      ['GP-2026-000001', 'Year Customer B.V.', 66214, 45000, 21214, 0, 3],
    ]);

    // 10 February: an ICCID on A: a cellular unit (5 units: still no discount) for 19 of February's 28 days.
    at('2026-02-10T00:00:00Z');
    await update(a, { iccid: '8931000000000000042' });
    // 15 February: part of A's February charge refunded.
    at('2026-02-15T00:00:00Z');
    const february = (await chargesOf(a)).find((charge) => charge.reason === 'scheduled');
    await services.billingCharges.refund(
      actor,
      hashIds.encode('billingCharge', february?.id as number),
      validate(chargeRefundSchema, { charge: 500, description: 'Outage in February' }, 'payload_invalid'),
    );
    await midMonth('2026-02-15T00:00:00Z');

    expect(await monthStart('2026-03-01T00:00:00Z')).toEqual([
      // A's February 2400 (24 € × 100) + the ICCID 119 (1.75 € × 100 × 19/28 = 118.75 → 119) − the refund 500
      ['GP-2026-000002', 'Year Customer B.V.', 2019, 0, 2019, 0, 3],
    ]);

    // 11 March: a second meter on A, a config change mid-period: 6 units (still no discount), 21 of March's 31 days.
    at('2026-03-11T00:00:00Z');
    await update(a, { config: configWith(solar, meter, meter2) });
    await midMonth('2026-03-20T00:00:00Z');

    expect(await monthStart('2026-04-01T00:00:00Z')).toEqual([
      // A's March 2575 ((20 + 4 + 1.75) € × 100) + the second meter 271 (4 € × 100 × 21/31 = 270.97 → 271)
      ['GP-2026-000003', 'Year Customer B.V.', 2846, 0, 2846, 0, 2],
    ]);

    // 15 April: device C shipped and configured (a meter), invoiced to its own legal entity, by
    // the month from 1 May: the organisation's unit count grows to 7, past the first tier (10 %).
    at('2026-04-15T00:00:00Z');
    const c = await ship(organization.hashId, 'Site C');
    await update(c, { config: configWith(meter) });
    await services.devices.updateInvoiceDetails(
      actor,
      c,
      validate(
        deviceInvoiceDetailsSchema,
        { billingLegalEntityHashId: ownEntity.hashId, subscription: { usage: true, chargePeriod: 1, runtime: 12, startAt: '2026-05-01T00:00:00Z' } },
        'payload_invalid',
      ),
    );
    expect(await chargesOf(c)).toEqual([]);
    expect(await services.billingCharges.unitCount(organizationId)).toBe(7);

    expect(await monthStart('2026-05-01T00:00:00Z')).toEqual([
      // A's April 2975 ((20 + 4 + 4 + 1.75) € × 100) + B's second quarter 23505 (78.35 € × 100 × 3), both at 6 units (no discount)
      ['GP-2026-000004', 'Year Customer B.V.', 26480, 0, 26480, 0, 2],
    ]);
    expect((await chargesOf(c)).map((charge) => [charge.reason, charge.cents, charge.discount])).toEqual([
      ['scheduled', 360, 10], // 4 € × 100 × 90 % = 360
    ]);

    // From June every month: A's month at 7 units (10 %) to the default entity, C's to its own.
    expect(await monthStart('2026-06-01T00:00:00Z')).toEqual([
      ['GP-2026-000005', 'Year Customer B.V.', 2678, 0, 2678, 0, 1], // A's May: 29.75 € × 100 × 90 % = 2677.5 → 2678
      ['GP-2026-000006', 'Year Site C B.V.', 360, 0, 360, 0, 1], // C's May: 4 € × 100 × 90 % = 360
    ]);
    await midMonth('2026-06-15T00:00:00Z');
    expect(await monthStart('2026-07-01T00:00:00Z')).toEqual([
      ['GP-2026-000007', 'Year Customer B.V.', 2678, 0, 2678, 0, 1], // A's June 2678
      ['GP-2026-000008', 'Year Site C B.V.', 360, 0, 360, 0, 1], // C's June 360
    ]);
    expect(await monthStart('2026-08-01T00:00:00Z')).toEqual([
      // A's July 2678 + B's third quarter 21155 (78.35 € × 100 × 3 × 90 % = 21154.5 → 21155)
      ['GP-2026-000009', 'Year Customer B.V.', 23833, 0, 23833, 0, 2],
      ['GP-2026-000010', 'Year Site C B.V.', 360, 0, 360, 0, 1], // C's July 360
    ]);
    expect(await monthStart('2026-09-01T00:00:00Z')).toEqual([
      ['GP-2026-000011', 'Year Customer B.V.', 2678, 0, 2678, 0, 1], // A's August 2678
      ['GP-2026-000012', 'Year Site C B.V.', 360, 0, 360, 0, 1], // C's August 360
    ]);
    expect(await monthStart('2026-10-01T00:00:00Z')).toEqual([
      ['GP-2026-000013', 'Year Customer B.V.', 2678, 0, 2678, 0, 1], // A's September 2678
      ['GP-2026-000014', 'Year Site C B.V.', 360, 0, 360, 0, 1], // C's September 360
    ]);
    expect(await monthStart('2026-11-01T00:00:00Z')).toEqual([
      // A's October 2678 + B's fourth quarter 21155
      ['GP-2026-000015', 'Year Customer B.V.', 23833, 0, 23833, 0, 2],
      ['GP-2026-000016', 'Year Site C B.V.', 360, 0, 360, 0, 1], // C's October 360
    ]);
    expect(await monthStart('2026-12-01T00:00:00Z')).toEqual([
      ['GP-2026-000017', 'Year Customer B.V.', 2678, 0, 2678, 0, 1], // A's November 2678
      ['GP-2026-000018', 'Year Site C B.V.', 360, 0, 360, 0, 1], // C's November 360
    ]);
    // The new year numbers from 1 again.
    expect(await monthStart('2027-01-01T00:00:00Z')).toEqual([
      ['GP-2027-000001', 'Year Customer B.V.', 2678, 0, 2678, 0, 1], // A's December 2678
      ['GP-2027-000002', 'Year Site C B.V.', 360, 0, 360, 0, 1], // C's December 360
    ]);

    // The year's charges in all: every one invoiced but those billable from 1 January 2027, the
    // refunded charge marked, and the invoices' totals the sums of their charges.
    const rows = (await database.db('billing_invoices').where('organization_id', organizationId).orderBy('id')) as {
      id: string | number;
      public_id: string;
      year: number;
      sequence: number;
      charge_cents: string | number;
    }[];
    expect(rows.filter((row) => row.year === 2026).map((row) => row.sequence)).toEqual(Array.from({ length: 18 }, (_, index) => index + 1));
    for (const row of rows) {
      const sum = (await database.db('billing_charges').where('invoice_id', row.id).sum({ total: 'charge_cents' }).first()) as { total: string | number };
      expect(Number(sum.total)).toBe(Number(row.charge_cents));
    }
    // February to May 66214 + 2019 + 2846 + 26480 = 97559; June, July, September, October and December (2678 + 360) × 5 = 15190;
    // August and November (23833 + 360) × 2 = 48386; in all 161135
    expect(rows.filter((row) => row.year === 2026).reduce((sum, row) => sum + Number(row.charge_cents), 0)).toBe(161_135);
    const uninvoiced = (await database.db('billing_charges').where('organization_id', organizationId).whereNull('invoice_id').orderBy('id')) as {
      billable_at: Date;
    }[];
    // A's, B's and C's periods from 1 January 2027 (the runtime of 12 months renewed), for February's invoices.
    expect(uninvoiced.map((row) => row.billable_at.toISOString())).toEqual(Array.from({ length: 3 }, () => '2027-01-01T00:00:00.000Z'));
    const refunded = await services.billingCharges.get(actor, hashIds.encode('billingCharge', february?.id as number));
    expect(refunded).toMatchObject({ charge: 2400, refunded: true, invoicePublicId: 'GP-2026-000002' });
  });
});
