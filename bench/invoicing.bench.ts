import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { organizationCreateSchema } from '../contracts/organization';
import { validate } from '../contracts/validation';
import { systemActor } from '../graph/common/context';
import { HashIds } from '../graph/common/hash-ids';
import { createServices } from '../graph/services';
import { migrateLatest, openDatabase } from '../server/database';
import { insertCharges, insertLegalEntity, type ChargeColumns } from '../test-support/billing';

export interface InvoicingBenchmark {
  devices: number;
  charges: number;
  seedMs: number;
  /** The first run: lock, gather, group, number, insert the invoices, link every charge. */
  runMs: number;
  invoices: number;
  invoicedCharges: number;
  /** The same run again: nothing left to gather. */
  secondRunMs: number;
  /** GET /billing-invoice/{hashId} of the largest invoice: it and every charge on it, as the service answers it. */
  readMs: number;
  /** The PDF of the largest invoice. */
  pdfMs: number;
  pdfKb: number;
  /** The same PDF again: the same bytes. */
  pdfSameBytes: boolean;
  rssMb: number;
}

const round = (ms: number) => Math.round(ms);

/**
 * Invoicing one organisation of `devices` devices a month of charges (docs/billing.md,
 * "Invoices"): a scheduled charge per device, a pro-rata configChange for one device in ten,
 * one device in a hundred billed to a legal entity of its own, and a few manual charges. The
 * charges are inserted with SQL (the charge engine is not what is measured).
 */
export async function invoicingBenchmark(databaseUrl: string | null, options: { devices: number }): Promise<InvoicingBenchmark> {
  const schema = `bench_invoicing_${randomBytes(4).toString('hex')}`;
  const { db } = openDatabase({ url: databaseUrl, schema, poolMax: 4 });
  try {
    await migrateLatest(db, schema);
    const services = createServices({
      db,
      hashIds: new HashIds(randomBytes(32).toString('hex')),
      sessionSecret: randomBytes(32).toString('hex'),
      encryptionKey: randomBytes(32).toString('hex'),
      log: pino({ level: 'silent' }),
      clock: () => new Date('2026-12-01T02:00:00Z'),
    });
    const seedStart = performance.now();
    const organization = await services.organizations.create(
      systemActor('bench'),
      validate(organizationCreateSchema, { name: 'Invoicing Bench BV', type: 'asset-owner' }, 'payload_invalid'),
    );
    const organizationId = services.hashIds.decode('organization', organization.hashId) ?? 0;
    await insertLegalEntity(db, organizationId, {
      companyName: 'Invoicing Bench B.V.',
      address1: 'Benchweg 1',
      zipcode: '1234 AB',
      city: 'Utrecht',
      isOrganizationDefault: true,
    });
    const ownEntity = await insertLegalEntity(db, organizationId, { companyName: 'Bench Subsidiary GmbH', country: 'DE', taxNumber: 'DE123456789' });
    const deviceIds: number[] = [];
    for (let start = 0; start < options.devices; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, options.devices - start) }, (_, offset) => ({
        organization_id: organizationId,
        name: `Bench device ${start + offset + 1}`,
        billing_legal_entity_id: (start + offset) % 100 === 0 ? ownEntity : null,
      }));
      const inserted = (await db('devices').insert(rows).returning('id')) as { id: string | number }[];
      deviceIds.push(...inserted.map((row) => Number(row.id)));
    }
    const charges: ChargeColumns[] = [];
    deviceIds.forEach((deviceId, index) => {
      const own = index % 100 === 0 ? ownEntity : null;
      charges.push({
        organizationId,
        deviceId,
        deviceName: `Bench device ${index + 1}`,
        description: 'Subscription November 2026',
        billableAt: '2026-11-01T00:00:00Z',
        periodFrom: '2026-11-01T00:00:00Z',
        periodTo: '2026-12-01T00:00:00Z',
        charge: 2_000 + (index % 7) * 350,
        billingLegalEntityId: own,
      });
      if (index % 10 === 0) {
        charges.push({
          organizationId,
          deviceId,
          reason: 'configChange',
          description: 'Added units, pro rata',
          billableAt: '2026-11-17T09:30:00Z',
          periodFrom: '2026-11-01T00:00:00Z',
          periodTo: '2026-12-01T00:00:00Z',
          charge: 467,
          billingLegalEntityId: own,
        });
      }
    });
    for (let n = 0; n < 20; n += 1) {
      charges.push({
        organizationId,
        source: n % 2 === 0 ? 'shipment' : 'manual',
        description: `Manual ${n + 1}`,
        billableAt: '2026-11-20T00:00:00Z',
        charge: 15_000,
      });
    }
    await insertCharges(db, charges);
    await db.raw('analyze');
    const seedMs = round(performance.now() - seedStart);

    let start = performance.now();
    const run = await services.invoicing.runForOrganization(organizationId);
    const runMs = round(performance.now() - start);
    start = performance.now();
    const again = await services.invoicing.runForOrganization(organizationId);
    const secondRunMs = round(performance.now() - start);
    if (again.invoices.length > 0) {
      throw new Error('the second run made invoices');
    }
    const largest = [...run.invoices].sort((a, b) => b.chargeCount - a.chargeCount)[0];
    if (!largest) {
      throw new Error('the run made no invoice');
    }
    const reader = systemActor('bench');
    start = performance.now();
    await services.billingInvoices.get(reader, largest.hashId);
    const readMs = round(performance.now() - start);
    start = performance.now();
    const pdf = await services.billingInvoices.pdf(reader, largest.hashId);
    const pdfMs = round(performance.now() - start);
    const pdfAgain = await services.billingInvoices.pdf(reader, largest.hashId);
    return {
      devices: options.devices,
      charges: charges.length,
      seedMs,
      runMs,
      invoices: run.invoices.length,
      invoicedCharges: run.invoices.reduce((sum, invoice) => sum + invoice.chargeCount, 0),
      secondRunMs,
      readMs,
      pdfMs,
      pdfKb: Math.round(pdf.body.length / 1024),
      pdfSameBytes: pdf.body.equals(pdfAgain.body),
      rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
    };
  } finally {
    await db.raw('drop schema if exists ?? cascade', [schema]);
    await db.destroy();
  }
}
