import { testSecrets } from '../../../test-support/app';
import { insertCharge, insertCharges, insertLegalEntity } from '../../../test-support/billing';
import { openDatabase, type Database } from '../../../server/database';
import { testDatabase, type TestDatabase } from '../../../test-support/database';
import { buildOrganization, insertDeviceRow } from '../../../test-support/factories';
import { systemActor } from '../../common/context';
import { HashIds } from '../../common/hash-ids';
import { createServices, type Services } from '../../services';
import { invoicePeriodEnd } from './invoice-job';

/**
 * The invoicing job on the database (docs/billing.md, "Invoices"): grouping, held-back device
 * charges, public ids without gaps, idempotence, and two runs at once (two connections, two
 * services instances) making one invoice.
 */
describe('invoicing job', () => {
  let database: TestDatabase;
  let services: Services;
  const hashIds = new HashIds(testSecrets.hashIdSecret);
  let now = new Date('2026-03-15T10:00:00Z');
  const servicesOn = (db: Database) =>
    createServices({ db, hashIds, sessionSecret: testSecrets.sessionSecret, encryptionKey: testSecrets.encryptionKey, clock: () => now });

  beforeAll(async () => {
    database = await testDatabase();
    services = servicesOn(database.db);
  });

  afterAll(async () => {
    await database.close();
  });

  beforeEach(() => {
    now = new Date('2026-03-15T10:00:00Z');
  });

  /** What the run wrote on a charge, ids as numbers whatever the driver hands over. */
  const chargeRow = async (id: number) => {
    const row = (await database.db('billing_charges').where('id', id).first('invoice_id', 'billing_legal_entity_id', 'customer_reference')) as {
      invoice_id: string | number | null;
      billing_legal_entity_id: string | number | null;
      customer_reference: string | null;
    };
    const number = (value: string | number | null) => (value === null ? null : Number(value));
    return { invoice_id: number(row.invoice_id), billing_legal_entity_id: number(row.billing_legal_entity_id), customer_reference: row.customer_reference };
  };

  it('reckons the end of the period from the start of the day or month, UTC', () => {
    const at = new Date('2026-03-15T23:30:00-02:00');
    expect(invoicePeriodEnd(at, 'daily').toISOString()).toBe('2026-03-16T00:00:00.000Z');
    expect(invoicePeriodEnd(at, 'monthly').toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });

  it('gathers the charges billable before the month by legal entity and customer reference, totals them per ledger account, and links them', async () => {
    const organization = await buildOrganization(services);
    const defaultEntity = await insertLegalEntity(database.db, organization.id, { companyName: 'Default B.V.', isOrganizationDefault: true });
    const ownEntity = await insertLegalEntity(database.db, organization.id, { companyName: 'Own B.V.' });
    await database.db('organizations').where('id', organization.id).update({ invoice_customer_reference: 'PO-ORG' });
    const device = await insertDeviceRow(database.db, { organization_id: organization.id });
    const [a, b, c, d, later] = await insertCharges(database.db, [
      { organizationId: organization.id, deviceId: device, billableAt: '2026-02-01T00:00:00Z', charge: 12_345, ledgerAccount: 'saas' },
      { organizationId: organization.id, source: 'shipment', billableAt: '2026-02-10T00:00:00Z', charge: 50_000, ledgerAccount: 'hardware' },
      { organizationId: organization.id, source: 'manual', billableAt: '2026-02-28T23:59:59Z', charge: -1_000, ledgerAccount: 'saas' },
      {
        organizationId: organization.id,
        deviceId: device,
        billableAt: '2026-02-01T00:00:00Z',
        charge: 700,
        billingLegalEntityId: ownEntity,
        customerReference: 'PO-7',
      },
      { organizationId: organization.id, billableAt: '2026-03-01T00:00:00Z', charge: 999 },
    ]);

    const run = await services.invoicing.runForOrganization(organization.id);
    expect(run.periodEnd).toBe('2026-03-01T00:00:00.000Z');
    expect(run.heldBack).toEqual([]);
    expect(run.invoices).toHaveLength(2);
    const [first, second] = run.invoices;
    expect(first).toMatchObject({
      organization: { hashId: organization.hashId, name: organization.name },
      billingLegalEntity: { hashId: hashIds.encode('billingLegalEntity', defaultEntity), name: 'Default B.V.' },
      customerReference: 'PO-ORG',
      periodEnd: '2026-03-01T00:00:00.000Z',
      createdAt: now.toISOString(),
      charge: 61_345,
      totals: { hardware: 50_000, saas: 11_345, consultancy: 0 },
      chargeCount: 3,
    });
    expect(second).toMatchObject({
      billingLegalEntity: { hashId: hashIds.encode('billingLegalEntity', ownEntity), name: 'Own B.V.' },
      customerReference: 'PO-7',
      charge: 700,
      totals: { hardware: 0, saas: 700, consultancy: 0 },
      chargeCount: 1,
    });
    const sequences = [first, second].map((invoice) => Number(invoice?.publicId.slice('GP-2026-'.length)));
    expect(first?.publicId).toMatch(/^GP-2026-\d{6}$/);
    expect(sequences[1]).toBe((sequences[0] as number) + 1);

    const firstId = hashIds.decode('billingInvoice', first?.hashId ?? '');
    for (const id of [a, b, c] as number[]) {
      expect(await chargeRow(id)).toEqual({ invoice_id: firstId, billing_legal_entity_id: defaultEntity, customer_reference: 'PO-ORG' });
    }
    expect((await chargeRow(d as number)).customer_reference).toBe('PO-7');
    expect((await chargeRow(later as number)).invoice_id).toBeNull();

    // The invoice read back, with its charges.
    const read = await services.billingInvoices.get(systemActor('test'), first?.hashId ?? '');
    expect(read.charges.map((charge) => charge.charge)).toEqual([12_345, 50_000, -1_000]);
    expect(read.charges[0]).toMatchObject({
      invoicePublicId: first?.publicId,
      invoiceHashId: first?.hashId,
      device: { hashId: hashIds.encode('device', device) },
    });

    // Each invoice made is in the audit log, made by the job.
    const audited = (await database
      .db('audit_log')
      .where({ object_type: 'billing_invoices', change_type: 'controllerCreate' })
      .whereIn('object_id', [firstId, hashIds.decode('billingInvoice', second?.hashId ?? '')] as number[])
      .orderBy('object_id')
      .select('actor_name', 'diff', 'transaction_identifier')) as {
      actor_name: string;
      diff: { name: string; newValue: unknown }[];
      transaction_identifier: string;
    }[];
    expect(audited).toHaveLength(2);
    expect(audited[0]?.actor_name).toBe('invoicing job');
    expect(audited[0]?.diff).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'publicId', newValue: first?.publicId })]));
    expect(audited[0]?.transaction_identifier).toBe(audited[1]?.transaction_identifier);

    // A second run finds nothing; next month the later charge goes on its own invoice.
    expect((await services.invoicing.runForOrganization(organization.id)).invoices).toEqual([]);
    now = new Date('2026-04-01T00:00:00Z');
    const april = await services.invoicing.runForOrganization(organization.id);
    expect(april.invoices.map((invoice) => invoice.charge)).toEqual([999]);
  });

  it('invoices daily organisations up to the start of the day', async () => {
    const organization = await buildOrganization(services);
    await database.db('organizations').where('id', organization.id).update({ invoice_frequency: 'daily' });
    await insertCharges(database.db, [
      { organizationId: organization.id, source: 'manual', billableAt: '2026-03-14T23:00:00Z', charge: 100 },
      { organizationId: organization.id, source: 'manual', billableAt: '2026-03-15T00:00:00Z', charge: 200 },
    ]);
    const run = await services.invoicing.runForOrganization(organization.id);
    expect(run.periodEnd).toBe('2026-03-15T00:00:00.000Z');
    expect(run.invoices.map((invoice) => [invoice.charge, invoice.billingLegalEntity, invoice.customerReference])).toEqual([[100, null, null]]);
  });

  it('holds back device charges without their own legal entity or customer reference when the organisation requires them', async () => {
    const organization = await buildOrganization(services);
    await insertLegalEntity(database.db, organization.id, { isOrganizationDefault: true });
    await database.db('organizations').where('id', organization.id).update({
      require_legal_entity_per_device: true,
      require_customer_reference_per_device: true,
      invoice_customer_reference: 'PO-ORG',
    });
    const bare = await insertDeviceRow(database.db, { organization_id: organization.id });
    const entity = await insertLegalEntity(database.db, organization.id);
    const [waiting, manual, complete] = await insertCharges(database.db, [
      { organizationId: organization.id, deviceId: bare, billableAt: '2026-02-01T00:00:00Z', charge: 1_000 },
      { organizationId: organization.id, source: 'manual', billableAt: '2026-02-01T00:00:00Z', charge: 2_000 },
      {
        organizationId: organization.id,
        deviceId: bare,
        billableAt: '2026-02-01T00:00:00Z',
        charge: 3_000,
        billingLegalEntityId: entity,
        customerReference: 'PO-D',
      },
    ]);
    const run = await services.invoicing.runForOrganization(organization.id);
    expect(run.heldBack).toEqual([
      {
        chargeHashId: hashIds.encode('billingCharge', waiting as number),
        deviceHashId: hashIds.encode('device', bare),
        missing: ['legalEntity', 'customerReference'],
      },
    ]);
    expect(run.invoices.map((invoice) => invoice.charge).sort()).toEqual([2_000, 3_000]);
    expect((await chargeRow(manual as number)).customer_reference).toBe('PO-ORG');
    expect((await chargeRow(complete as number)).billing_legal_entity_id).toBe(entity);
    expect((await chargeRow(waiting as number)).invoice_id).toBeNull();

    // Once the device has its own details, the waiting charge takes them at the next run.
    await database.db('devices').where('id', bare).update({ billing_legal_entity_id: entity, invoice_customer_reference: 'PO-D' });
    const next = await services.invoicing.runForOrganization(organization.id);
    expect(next.heldBack).toEqual([]);
    expect(next.invoices).toHaveLength(1);
    expect(next.invoices[0]).toMatchObject({
      charge: 1_000,
      customerReference: 'PO-D',
      billingLegalEntity: { hashId: hashIds.encode('billingLegalEntity', entity) },
    });
  });

  it('makes one invoice when two services instances on two connections run at once', async () => {
    const organization = await buildOrganization(services);
    await insertCharges(
      database.db,
      Array.from({ length: 200 }, (_, index) => ({
        organizationId: organization.id,
        source: 'manual' as const,
        billableAt: '2026-02-02T00:00:00Z',
        charge: index + 1,
      })),
    );
    // On PostgreSQL the second instance has a pool of its own; PGlite has one connection, shared.
    const other = database.kind === 'postgres' ? openDatabase({ url: process.env.DATABASE_URL ?? '', schema: database.schema, poolMax: 2 }) : null;
    try {
      const second = servicesOn(other?.db ?? database.db);
      const runs = await Promise.all([
        services.invoicing.runForOrganization(organization.id),
        second.invoicing.runForOrganization(organization.id),
        services.invoicing.runForOrganization(organization.id),
        second.invoicing.runAll(),
      ]);
      const made = runs.flatMap((run) => (Array.isArray(run) ? run.flatMap((entry) => entry.invoices) : run.invoices));
      expect(made).toHaveLength(1);
      expect(made[0]).toMatchObject({ chargeCount: 200, charge: 20_100 });
      const count = (await database.db('billing_invoices').where('organization_id', organization.id).count({ n: '*' })) as { n: string | number }[];
      expect(Number(count[0]?.n)).toBe(1);
    } finally {
      await other?.db.destroy();
    }
  });

  it('runs over every organisation, each invoice numbered after the last without gaps', async () => {
    const organizations = await Promise.all([1, 2, 3].map(() => buildOrganization(services)));
    for (const organization of organizations) {
      await insertCharge(database.db, { organizationId: organization.id, source: 'manual', billableAt: '2026-01-05T00:00:00Z', charge: 10 });
    }
    // Runs at once over every organisation, from two instances, as two nodes would.
    const other = database.kind === 'postgres' ? openDatabase({ url: process.env.DATABASE_URL ?? '', schema: database.schema, poolMax: 2 }) : null;
    try {
      const second = servicesOn(other?.db ?? database.db);
      const runs = (await Promise.all([services.invoicing.runAll(), second.invoicing.runAll()])).flat();
      const ours = runs.filter((run) => organizations.some((organization) => organization.hashId === run.organizationHashId));
      expect(ours.flatMap((run) => run.invoices)).toHaveLength(3);
    } finally {
      await other?.db.destroy();
    }
    expect((await services.invoicing.runAll()).flatMap((run) => run.invoices)).toEqual([]);
    const rows = (await database.db('billing_invoices').where('year', 2026).orderBy('sequence').select('sequence', 'public_id')) as {
      sequence: number;
      public_id: string;
    }[];
    expect(rows.map((row) => row.sequence)).toEqual(rows.map((_, index) => index + 1));
    expect(rows.map((row) => row.public_id)).toEqual(rows.map((_, index) => `GP-2026-${String(index + 1).padStart(6, '0')}`));
    const last = (await database.db('billing_invoice_sequences').where('year', 2026).first('last')) as { last: number };
    expect(last.last).toBe(rows.length);
  });

  it('gives back the number of an invoice whose transaction rolls back', async () => {
    const before = (await database.db('billing_invoice_sequences').where('year', 2026).first('last')) as { last: number } | undefined;
    const organization = await buildOrganization(services);
    await insertCharge(database.db, { organizationId: organization.id, source: 'manual', billableAt: '2026-02-01T00:00:00Z', charge: 5 });
    // A legal entity that goes away under the run: the link to it fails after the number was taken.
    const doomed = await insertLegalEntity(database.db, organization.id);
    await database.db('organizations').where('id', organization.id).update({ default_billing_legal_entity_id: doomed });
    await database.db.raw(
      `alter table billing_invoices add constraint billing_invoices_test_refusal check (billing_legal_entity_id is distinct from ${doomed})`,
    );
    try {
      await expect(services.invoicing.runForOrganization(organization.id)).rejects.toThrow();
    } finally {
      await database.db.raw('alter table billing_invoices drop constraint billing_invoices_test_refusal');
    }
    const after = (await database.db('billing_invoice_sequences').where('year', 2026).first('last')) as { last: number } | undefined;
    expect(after?.last).toBe(before?.last);
    const run = await services.invoicing.runForOrganization(organization.id);
    expect(run.invoices[0]?.publicId).toBe(`GP-2026-${String((before?.last ?? 0) + 1).padStart(6, '0')}`);
  });

  it('answers not_found for an organisation hash id that does not decode', async () => {
    await expect(services.invoicing.runForOrganizationHashId('nope')).rejects.toMatchObject({ key: 'not_found' });
  });
});
