import { spawnSync } from 'node:child_process';
import type { BillingInvoiceView } from '../../contracts/billing';
import type { BillingInvoiceWithChargesView } from '../../contracts/billing-invoice';
import { formatEuro } from '../../contracts/billing-invoice';
import { testApp, type TestApp } from '../../test-support/app';
import { insertCharges, insertLegalEntity } from '../../test-support/billing';
import { anOrganization, insertDeviceRow } from '../../test-support/factories';

const base = '/console-admin/v1/billing-invoice';

/** The text of a PDF as Debian's pdftotext reads it (poppler-utils). */
function pdfText(pdf: Buffer): string {
  const result = spawnSync('pdftotext', ['-layout', '-', '-'], { input: pdf });
  if (result.status !== 0) {
    throw new Error(`pdftotext failed: ${result.stderr.toString()}`);
  }
  return result.stdout.toString('utf8');
}

describe('billing invoices', () => {
  let t: TestApp;
  let employee: string;
  let ops: string;
  let customer: string;
  let ownerHashId: string;
  let otherHashId: string;
  let invoice: BillingInvoiceView;
  let otherInvoice: BillingInvoiceView;
  let deviceId: number;

  beforeAll(async () => {
    t = await testApp();
    const owner = await anOrganization(t.services, { name: 'Invoice Owner BV' });
    const other = await anOrganization(t.services, { name: 'Invoice Other BV' });
    ownerHashId = owner.hashId;
    otherHashId = other.hashId;
    [employee, ops, customer] = await Promise.all([
      t.signIn(['gridport.employee']),
      t.signIn(['gridport.ops']),
      t.signIn(['customer.read', 'customer.write'], ownerHashId),
    ]);
    await insertLegalEntity(t.database.db, owner.id, {
      companyName: 'Zonnepark Noord B.V.',
      address1: 'Stationsweg 12',
      zipcode: '9711 AB',
      city: 'Groningen',
      country: 'NL',
      chamberOfCommerce: '12345678',
      taxNumber: 'NL001234567B01',
      emails: ['facturen@zonnepark.example'],
      isOrganizationDefault: true,
    });
    await t.database.db('organizations').where('id', owner.id).update({ invoice_customer_reference: 'PO-2026-17' });
    deviceId = await insertDeviceRow(t.database.db, { organization_id: owner.id, name: 'Noord-Inverter-1' });
    await insertCharges(t.database.db, [
      {
        organizationId: owner.id,
        deviceId,
        description: 'Subscription February 2026',
        billableAt: '2026-02-01T00:00:00Z',
        periodFrom: '2026-02-01T00:00:00Z',
        periodTo: '2026-03-01T00:00:00Z',
        charge: 123_456,
      },
      { organizationId: owner.id, source: 'shipment', description: 'Gateway hardware', billableAt: '2026-02-03T00:00:00Z', charge: 45_000 },
      {
        organizationId: owner.id,
        source: 'manual',
        description: 'Installation support',
        billableAt: '2026-02-04T00:00:00Z',
        charge: 9_999,
        ledgerAccount: 'consultancy',
      },
      { organizationId: owner.id, source: 'manual', description: 'Goodwill credit', billableAt: '2026-02-05T00:00:00Z', charge: -1_250, ledgerAccount: 'saas' },
    ]);
    await insertCharges(t.database.db, [
      { organizationId: other.id, source: 'manual', description: 'Other work', billableAt: '2026-02-01T00:00:00Z', charge: 100 },
    ]);
    const at = new Date('2026-03-02T06:00:00Z');
    [invoice] = (await t.services.invoicing.runForOrganization(owner.id, at)).invoices as [BillingInvoiceView];
    [otherInvoice] = (await t.services.invoicing.runForOrganization(other.id, at)).invoices as [BillingInvoiceView];
  });

  afterAll(async () => {
    await t.close();
  });

  it('lists invoices newest first to staff, by organisation, by public id, a page at a time', async () => {
    const all = await t.call('GET', base, employee);
    expect(all.statusCode).toBe(200);
    expect((all.json() as { rows: BillingInvoiceView[] }).rows.map((row) => row.publicId)).toEqual([otherInvoice.publicId, invoice.publicId]);

    const owned = await t.call('GET', `${base}?organizationHashId=${ownerHashId}`, ops);
    expect(owned.json()).toEqual({ rows: [invoice], nextPageOffset: null });
    expect(invoice).toMatchObject({
      organization: { hashId: ownerHashId, name: 'Invoice Owner BV' },
      billingLegalEntity: { name: 'Zonnepark Noord B.V.' },
      customerReference: 'PO-2026-17',
      charge: 177_205,
      totals: { saas: 122_206, hardware: 45_000, consultancy: 9_999 },
      chargeCount: 4,
    });

    const filtered = await t.call('GET', `${base}?filter=${encodeURIComponent(otherInvoice.publicId.slice(-3))}`, employee);
    expect((filtered.json() as { rows: BillingInvoiceView[] }).rows.map((row) => row.hashId)).toEqual([otherInvoice.hashId]);
    expect((await t.call('GET', `${base}?filter=GP-1999`, employee)).json()).toEqual({ rows: [], nextPageOffset: null });

    const first = (await t.call('GET', `${base}?rowsPerPage=1`, employee)).json() as { rows: BillingInvoiceView[]; nextPageOffset: string };
    expect(first.rows.map((row) => row.hashId)).toEqual([otherInvoice.hashId]);
    const second = (await t.call('GET', `${base}?rowsPerPage=1&offset=${first.nextPageOffset}`, employee)).json() as { rows: BillingInvoiceView[] };
    expect(second.rows.map((row) => row.hashId)).toEqual([invoice.hashId]);
  });

  it('answers an invoice with every charge on it, oldest first', async () => {
    const response = await t.call('GET', `${base}/${invoice.hashId}`, employee);
    expect(response.statusCode).toBe(200);
    const view = response.json() as BillingInvoiceWithChargesView;
    expect(view).toMatchObject(invoice);
    expect(view.charges.map((charge) => [charge.description, charge.charge, charge.ledgerAccount])).toEqual([
      ['Subscription February 2026', 123_456, 'saas'],
      ['Gateway hardware', 45_000, 'hardware'],
      ['Installation support', 9_999, 'consultancy'],
      ['Goodwill credit', -1_250, 'saas'],
    ]);
    expect(view.charges[0]).toMatchObject({
      device: { hashId: t.hashIds.encode('device', deviceId), name: 'Noord-Inverter-1' },
      from: '2026-02-01T00:00:00.000Z',
      to: '2026-03-01T00:00:00.000Z',
      invoiceHashId: invoice.hashId,
      invoicePublicId: invoice.publicId,
      customerReference: 'PO-2026-17',
      billingLegalEntity: invoice.billingLegalEntity,
      refunded: false,
    });
  });

  it('answers the PDF: the legal entity, public id, dates, every charge and the totals, the same bytes each time', async () => {
    const response = await t.call('GET', `${base}/${invoice.hashId}/pdf`, employee);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="${invoice.publicId}.pdf"; filename*=UTF-8''${invoice.publicId}.pdf`);
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const expected of [
      `Invoice ${invoice.publicId}`,
      'Invoice date: 2026-03-02',
      'Charges billable before: 2026-03-01',
      'Customer reference: PO-2026-17',
      'Zonnepark Noord B.V.',
      'Stationsweg 12',
      '9711 AB Groningen',
      'Chamber of commerce: 12345678',
      'Tax number: NL001234567B01',
      'facturen@zonnepark.example',
      'Subscription February 2026',
      'Noord-Inverter-1',
      '2026-02-01 – 2026-03-01',
      '€ 1.234,56',
      'Gateway hardware',
      '€ 450,00',
      '€ 99,99',
      'Goodwill credit',
      '€ -12,50',
    ]) {
      expect({ expected, found: text.includes(expected) }).toEqual({ expected, found: true });
    }
    expect(text).toMatch(/Total Hardware\s+€ 450,00/);
    expect(text).toMatch(/Total SaaS\s+€ 1\.222,06/);
    expect(text).toMatch(/Total Consultancy\s+€ 99,99/);
    expect(text).toMatch(/Total\s+€ 1\.772,05/);
    const again = await t.call('GET', `${base}/${invoice.hashId}/pdf`, ops);
    expect(Buffer.compare(again.rawPayload, pdf)).toBe(0);
  });

  it('writes euro cents the Dutch way', () => {
    expect([0, 5, -5, 99, 100, 123_456, -123_456, 100_000_000_00].map(formatEuro)).toEqual([
      '€ 0,00',
      '€ 0,05',
      '€ -0,05',
      '€ 0,99',
      '€ 1,00',
      '€ 1.234,56',
      '€ -1.234,56',
      '€ 100.000.000,00',
    ]);
  });

  it('lets in staff only: customers are forbidden, nobody is unauthorized', async () => {
    for (const url of [base, `${base}/${invoice.hashId}`, `${base}/${invoice.hashId}/pdf`, `${base}?organizationHashId=${ownerHashId}`]) {
      expect({ url, status: (await t.call('GET', url, customer)).statusCode }).toEqual({ url, status: 403 });
      expect({ url, status: (await t.call('GET', url)).statusCode }).toEqual({ url, status: 401 });
    }
  });

  it('refuses hostile input with its catalogue key', async () => {
    const key = async (url: string) => {
      const response = await t.call('GET', url, employee);
      return { url, status: response.statusCode, key: (response.json() as { key?: string }).key };
    };
    expect(await key(`${base}?filter=a&filter=b`)).toEqual({ url: `${base}?filter=a&filter=b`, status: 400, key: 'query_invalid' });
    expect(await key(`${base}?organizationHashId=${ownerHashId}&organizationHashId=${otherHashId}`)).toMatchObject({ status: 400, key: 'query_invalid' });
    expect(await key(`${base}?__proto__=x`)).toMatchObject({ status: 400, key: 'query_invalid' });
    expect(await key(`${base}?constructor=x`)).toMatchObject({ status: 400, key: 'query_invalid' });
    expect(await key(`${base}?__proto__[rowsPerPage]=1`)).toMatchObject({ status: 400, key: 'query_invalid' });
    expect(await key(`${base}?rowsPerPage=0`)).toMatchObject({ status: 400, key: 'query_invalid' });
    expect(await key(`${base}?offset=%7B%7D`)).toMatchObject({ status: 400, key: 'invalid_offset' });
    expect(await key(`${base}?organizationHashId=nope`)).toMatchObject({ status: 404, key: 'not_found' });
    // Other kinds' hash ids never decode as invoices.
    const organizationId = t.hashIds.decode('organization', ownerHashId) ?? 0;
    const wrongKind = t.hashIds.encode('billingCharge', t.hashIds.decode('billingInvoice', invoice.hashId) ?? 0);
    for (const hashId of ['nope', wrongKind, t.hashIds.encode('organization', organizationId), 'a'.repeat(65)]) {
      for (const suffix of ['', '/pdf']) {
        const answer = await key(`${base}/${hashId}${suffix}`);
        expect([answer.status, answer.key]).toEqual(hashId.length > 64 ? [400, 'params_invalid'] : [404, 'not_found']);
      }
    }
  });
});
