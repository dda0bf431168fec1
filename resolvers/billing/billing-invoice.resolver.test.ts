import { insertCharges, insertLegalEntity } from '../../test-support/billing';
import { buildOrganization, insertDeviceRow } from '../../test-support/factories';
import { customerActor, staffActor, testGraph, type TestGraph } from '../../test-support/graphql';

const invoiceFields = `hashId publicId createdAt organization { hashId } billingLegalEntity { hashId name } customerReference periodEnd charge
  totals { hardware saas consultancy } chargeCount pdfUrl`;

interface InvoiceRow {
  hashId: string;
  publicId: string;
  charge: number;
  totals: { hardware: number; saas: number; consultancy: number };
  pdfUrl: string;
  charges?: { description: string; charge: number; device: { name: string } | null; invoicePublicId: string }[];
}

/** Invoices in GraphQL: the same service, rights and errors as over REST. */
describe('billing invoices in GraphQL', () => {
  let g: TestGraph;
  let organization: { id: number; hashId: string };
  let invoiceHashId = '';

  beforeAll(async () => {
    g = await testGraph();
    organization = await buildOrganization(g.services, { name: 'GraphQL Invoices BV' });
    await insertLegalEntity(g.database.db, organization.id, { companyName: 'GraphQL Legal B.V.', isOrganizationDefault: true });
    const device = await insertDeviceRow(g.database.db, { organization_id: organization.id, name: 'GraphQL-Device' });
    await insertCharges(g.database.db, [
      { organizationId: organization.id, deviceId: device, description: 'Subscription', billableAt: '2026-05-01T00:00:00Z', charge: 2_500 },
      { organizationId: organization.id, source: 'shipment', description: 'Gateway', billableAt: '2026-05-02T00:00:00Z', charge: 30_000 },
    ]);
    const run = await g.services.invoicing.runForOrganization(organization.id, new Date('2026-06-01T08:00:00Z'));
    invoiceHashId = run.invoices[0]?.hashId ?? '';
  });

  afterAll(async () => {
    await g.close();
  });

  it('lists invoices with their totals and PDF path, and reads one with its charges', async () => {
    const list = await g.execute<{ billingInvoices: { rows: InvoiceRow[]; nextPageOffset: string | null } }>(
      staffActor(['gridport.employee']),
      `query($o: String) { billingInvoices(organizationHashId: $o, rowsPerPage: 10) { rows { ${invoiceFields} charges { description } } nextPageOffset } }`,
      { o: organization.hashId },
    );
    expect(list.errors).toBeUndefined();
    expect(list.data?.billingInvoices.nextPageOffset).toBeNull();
    expect(list.data?.billingInvoices.rows).toEqual([
      expect.objectContaining({
        hashId: invoiceHashId,
        publicId: 'GP-2026-000001',
        charge: 32_500,
        totals: { hardware: 30_000, saas: 2_500, consultancy: 0 },
        billingLegalEntity: expect.objectContaining({ name: 'GraphQL Legal B.V.' }),
        pdfUrl: `/console-admin/v1/billing-invoice/${invoiceHashId}/pdf`,
        charges: [{ description: 'Subscription' }, { description: 'Gateway' }],
      }),
    ]);

    const one = await g.execute<{ billingInvoice: InvoiceRow }>(
      staffActor(['gridport.sales']),
      `query($h: ID!) { billingInvoice(hashId: $h) { ${invoiceFields} charges { description charge device { name } invoicePublicId } } }`,
      { h: invoiceHashId },
    );
    expect(one.errors).toBeUndefined();
    expect(one.data?.billingInvoice.charges).toEqual([
      { description: 'Subscription', charge: 2_500, device: { name: 'GraphQL-Device' }, invoicePublicId: 'GP-2026-000001' },
      { description: 'Gateway', charge: 30_000, device: null, invoicePublicId: 'GP-2026-000001' },
    ]);

    const filtered = await g.execute<{ billingInvoices: { rows: InvoiceRow[] } }>(
      staffActor(['gridport.employee']),
      '{ billingInvoices(filter: "GP-2025") { rows { hashId } } }',
    );
    expect(filtered.data?.billingInvoices.rows).toEqual([]);
  });

  it('refuses customers, unknown hash ids and bad arguments with their catalogue keys', async () => {
    const code = async (actor: Parameters<TestGraph['execute']>[0], query: string, variables?: Record<string, unknown>) =>
      (await g.execute(actor, query, variables)).errors?.map((error) => error.extensions?.code);
    const customer = customerActor(organization.id, ['customer.read', 'customer.write']);
    expect(await code(customer, '{ billingInvoices { rows { hashId } } }')).toEqual(['forbidden']);
    expect(await code(customer, 'query($h: ID!) { billingInvoice(hashId: $h) { hashId } }', { h: invoiceHashId })).toEqual(['forbidden']);
    const staff = staffActor(['gridport.employee']);
    expect(await code(staff, '{ billingInvoice(hashId: "nope") { hashId } }')).toEqual(['not_found']);
    expect(await code(staff, `{ billingInvoice(hashId: "${organization.hashId}") { hashId } }`)).toEqual(['not_found']);
    expect(await code(staff, '{ billingInvoices(rowsPerPage: 0) { rows { hashId } } }')).toEqual(['query_invalid']);
    expect(await code(staff, '{ billingInvoices(offset: "{}") { rows { hashId } } }')).toEqual(['invalid_offset']);
    expect(await code(staff, '{ billingInvoices(organizationHashId: "nope") { rows { hashId } } }')).toEqual(['not_found']);
  });
});
