import { testApp, type TestApp } from '../../test-support/app';
import { buildDevice, buildOrganization } from '../../test-support/factories';

const base = '/console-admin/v1/billing-charge';

describe('billing charges', () => {
  let t: TestApp;
  let ops: string;
  let employee: string;
  let sales: string;
  let customer: string;
  let organizationHashId: string;
  let otherOrganizationHashId: string;
  let deviceHashId: string;
  let otherDeviceHashId: string;
  const now = new Date('2026-03-10T12:00:00Z');

  beforeAll(async () => {
    t = await testApp({}, { clock: () => now });
    ops = await t.signIn(['gridport.ops']);
    employee = await t.signIn(['gridport.employee']);
    sales = await t.signIn(['gridport.sales']);
    const organization = await buildOrganization(t.services);
    organizationHashId = organization.hashId;
    customer = await t.signIn(['customer.write'], organizationHashId);
    otherOrganizationHashId = (await buildOrganization(t.services)).hashId;
    deviceHashId = (await buildDevice(t.services, { organizationHashId })).hashId;
    otherDeviceHashId = (await buildDevice(t.services, { organizationHashId: otherOrganizationHashId })).hashId;
  });

  afterAll(async () => {
    await t.close();
  });

  const add = async (body: object, caller = ops) => t.call('POST', base, caller, body);
  const addOk = async (body: object = {}) => {
    const response = await add({ organizationHashId, description: 'Gateway hardware', charge: 45000, ledgerAccount: 'hardware', ...body });
    expect(response.statusCode).toBe(201);
    return (response.json() as { billingChargeHashId: string }).billingChargeHashId;
  };

  it('adds a manual charge of a device, shows it and lists it', async () => {
    const hashId = await addOk({ deviceHashId, source: 'shipment' });
    const one = await t.call('GET', `${base}/${hashId}`, employee);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({
      hashId,
      organization: { hashId: organizationHashId },
      device: { hashId: deviceHashId },
      source: 'shipment',
      reason: 'manuallyAdded',
      description: 'Gateway hardware',
      charge: 45000,
      ledgerAccount: 'hardware',
      billableAt: now.toISOString(),
      invoiceHashId: null,
      refunded: false,
      refundOfHashId: null,
    });
    const list = await t.call('GET', `${base}?organizationHashId=${organizationHashId}&deviceHashId=${deviceHashId}`, employee);
    expect(list.statusCode).toBe(200);
    expect((list.json() as { rows: { hashId: string }[] }).rows.map((row) => row.hashId)).toContain(hashId);
  });

  it('a negative amount credits; billableAt may be given', async () => {
    const hashId = await addOk({ charge: -1500, ledgerAccount: 'consultancy', billableAt: '2026-02-01T00:00:00Z' });
    expect((await t.call('GET', `${base}/${hashId}`, ops)).json()).toMatchObject({ charge: -1500, billableAt: '2026-02-01T00:00:00.000Z', device: null });
  });

  it('filters by text, invoiced, and pages with a cursor', async () => {
    await addOk({ description: 'Consultancy day alpha' });
    await addOk({ description: 'Consultancy day beta' });
    const filtered = (await t.call('GET', `${base}?filter=consultancy%20day&rowsPerPage=1`, employee)).json() as {
      rows: { description: string }[];
      nextPageOffset: string;
    };
    expect(filtered.rows.map((row) => row.description)).toEqual(['Consultancy day beta']);
    const next = (await t.call('GET', `${base}?filter=consultancy%20day&rowsPerPage=1&offset=${filtered.nextPageOffset}`, employee)).json() as {
      rows: { description: string }[];
    };
    expect(next.rows.map((row) => row.description)).toEqual(['Consultancy day alpha']);
    const invoiced = (await t.call('GET', `${base}?invoiced=true`, employee)).json() as { rows: unknown[] };
    expect(invoiced.rows).toEqual([]);
    const otherDevice = (await t.call('GET', `${base}?deviceHashId=${otherDeviceHashId}`, employee)).json() as { rows: unknown[] };
    expect(otherDevice.rows).toEqual([]);
    expect((await t.call('GET', `${base}?deviceHashId=nonsense`, employee)).json()).toEqual({ rows: [], nextPageOffset: null });
    expect((await t.call('GET', `${base}?offset=%%%`, employee)).json()).toMatchObject({ key: 'invalid_offset' });
  });

  it('refunds all or part of a charge, at most what is left; a refund is not refunded', async () => {
    const hashId = await addOk({ charge: 10000 });
    const part = await t.call('POST', `${base}/${hashId}/refund`, ops, { charge: 2500 });
    expect(part.statusCode).toBe(201);
    const refundHashId = (part.json() as { billingChargeHashId: string }).billingChargeHashId;
    expect((await t.call('GET', `${base}/${refundHashId}`, ops)).json()).toMatchObject({ charge: -2500, ledgerAccount: 'hardware', refundOfHashId: hashId });
    expect((await t.call('GET', `${base}/${hashId}`, ops)).json()).toMatchObject({ refunded: true });
    const tooMuch = await t.call('POST', `${base}/${hashId}/refund`, ops, { charge: 7501 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toMatchObject({ key: 'payload_invalid' });
    const rest = await t.call('POST', `${base}/${hashId}/refund`, ops, {});
    expect(rest.statusCode).toBe(201);
    expect((await t.call('GET', `${base}/${(rest.json() as { billingChargeHashId: string }).billingChargeHashId}`, ops)).json()).toMatchObject({
      charge: -7500,
    });
    expect((await t.call('POST', `${base}/${hashId}/refund`, ops, {})).json()).toMatchObject({ key: 'payload_invalid' });
    expect((await t.call('POST', `${base}/${refundHashId}/refund`, ops, {})).json()).toMatchObject({ key: 'payload_invalid' });
    // A charge with refunds is removed only after them.
    expect((await t.call('DELETE', `${base}/${hashId}`, ops)).statusCode).toBe(403);
  });

  it('removes a manual charge not yet invoiced; not a subscription charge (not_manual) nor an invoiced one (is_invoiced)', async () => {
    const hashId = await addOk();
    expect((await t.call('DELETE', `${base}/${hashId}`, ops)).statusCode).toBe(204);
    expect((await t.call('GET', `${base}/${hashId}`, ops)).statusCode).toBe(404);

    const organizationId = t.hashIds.decode('organization', organizationHashId);
    const [subscription] = (await t.database
      .db('billing_charges')
      .insert({
        organization_id: organizationId,
        source: 'subscription',
        reason: 'scheduled',
        description: 'Subscription',
        billable_at: now,
        charge_cents: 100,
        ledger_account: 'saas',
        created_at: now,
      })
      .returning('id')) as { id: number }[];
    const notManual = await t.call('DELETE', `${base}/${t.hashIds.encode('billingCharge', Number(subscription?.id))}`, ops);
    expect(notManual.statusCode).toBe(409);
    expect(notManual.json()).toMatchObject({ key: 'not_manual' });

    const invoicedHashId = await addOk();
    const [invoice] = (await t.database
      .db('billing_invoices')
      .insert({
        public_id: 'GP-2026-999999',
        year: 2026,
        sequence: 999999,
        organization_id: organizationId,
        period_end: now,
        charge_cents: 45000,
        totals: '{}',
        charge_count: 1,
        created_at: now,
      })
      .returning('id')) as { id: number }[];
    await t.database.db('billing_charges').where('id', t.hashIds.decode('billingCharge', invoicedHashId)).update({ invoice_id: invoice?.id });
    const invoiced = await t.call('DELETE', `${base}/${invoicedHashId}`, ops);
    expect(invoiced.statusCode).toBe(409);
    expect(invoiced.json()).toMatchObject({ key: 'is_invoiced' });
    const found = (await t.call('GET', `${base}?filter=GP-2026-999999`, employee)).json() as { rows: { hashId: string; invoicePublicId: string }[] };
    expect(found.rows).toEqual([expect.objectContaining({ hashId: invoicedHashId, invoicePublicId: 'GP-2026-999999' })]);
  });

  it('refuses bad input with the catalogue key', async () => {
    const valid = { organizationHashId, description: 'x', charge: 1, ledgerAccount: 'saas' };
    for (const body of [
      { ...valid, charge: 1.5 },
      { ...valid, charge: 1_000_000_001 },
      { ...valid, ledgerAccount: 'cash' },
      { ...valid, source: 'subscription' },
      { ...valid, description: '' },
      { ...valid, description: 'x'.repeat(256) },
      { ...valid, extra: true },
      JSON.parse('{"__proto__": {"charge": 5}, "constructor": {"x": 1}}') as object,
      { ...valid, billableAt: 'yesterday' },
    ]) {
      const response = await add(body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ key: 'payload_invalid' });
    }
    expect((await add({ ...valid, organizationHashId: 'nope' })).json()).toMatchObject({ key: 'not_found' });
    expect((await add({ ...valid, organizationHashId: deviceHashId })).json()).toMatchObject({ key: 'not_found' });
    // Another organisation's device is not found.
    const otherDevice = await add({ ...valid, deviceHashId: otherDeviceHashId });
    expect(otherDevice.statusCode).toBe(404);
    expect((await t.call('GET', `${base}?organizationHashId=a&organizationHashId=b`, employee)).json()).toMatchObject({ key: 'query_invalid' });
    expect((await t.call('GET', `${base}?invoiced=maybe`, employee)).json()).toMatchObject({ key: 'query_invalid' });
    expect((await t.call('GET', `${base}?organizationHashId=nope`, employee)).json()).toMatchObject({ key: 'not_found' });
    expect((await t.call('GET', `${base}/${organizationHashId}`, employee)).statusCode).toBe(404);
    expect((await t.call('POST', `${base}/nope/refund`, ops, {})).statusCode).toBe(404);
    expect((await t.call('POST', `${base}/nope/refund`, ops, { charge: 0 })).json()).toMatchObject({ key: 'payload_invalid' });
  });

  it('reads for employees, writes for Ops and Developer only; customers and nobody are refused', async () => {
    const hashId = await addOk();
    expect((await t.call('GET', base)).statusCode).toBe(401);
    expect((await t.call('GET', base, customer)).statusCode).toBe(403);
    expect((await t.call('GET', `${base}/${hashId}`, customer)).statusCode).toBe(403);
    for (const caller of [employee, sales, customer]) {
      expect((await add({ organizationHashId, description: 'x', charge: 1, ledgerAccount: 'saas' }, caller)).statusCode).toBe(403);
      expect((await t.call('DELETE', `${base}/${hashId}`, caller)).statusCode).toBe(403);
      expect((await t.call('POST', `${base}/${hashId}/refund`, caller, {})).statusCode).toBe(403);
    }
    const developer = await t.signIn(['gridport.developer']);
    expect((await t.call('POST', `${base}/${hashId}/refund`, developer, { charge: 1 })).statusCode).toBe(201);
  });

  it('gives the monthly forecast of an organisation and the billing usage of its devices', async () => {
    const forecastOrganization = await buildOrganization(t.services);
    const config = { network: {}, assets: [{ type: 'demo-solar', identifier: 'pv', communication: { type: 'none' } }], reportingIntervalInSec: 30 };
    const device = await buildDevice(t.services, {
      organizationHashId: forecastOrganization.hashId,
      config,
      iccid: '8931',
      subscription: { usage: true, chargePeriod: 1, runtime: 12, afterExpiration: null, startAt: new Date('2026-01-01T00:00:00Z') },
    });
    const response = await t.call('GET', `/console-admin/v1/billing-forecast?organizationHashId=${forecastOrganization.hashId}`, employee);
    expect(response.statusCode).toBe(200);
    // solar 29.18 + frequent reporting 5.84 + cellular 1.75
    expect(response.json()).toEqual({
      organization: { hashId: forecastOrganization.hashId, name: forecastOrganization.name },
      pricingType: 'usage',
      unitCount: 3,
      discount: 0,
      monthlyPriceBeforeDiscount: 36.77,
      monthlyPrice: 36.77,
      deviceCount: 1,
    });
    const view = (await t.call('GET', `/console-admin/v1/device/${device.hashId}`, employee)).json() as { billingUsage: unknown };
    expect(view.billingUsage).toEqual({
      units: { 'asset.solar': 1, 'reporting.frequent': 1, cellular: 1 },
      unitCount: 3,
      monthlyPriceBeforeDiscount: 36.77,
      monthlyPrice: 36.77,
    });
    expect((await t.call('GET', '/console-admin/v1/billing-forecast', employee)).json()).toMatchObject({ key: 'query_invalid' });
    expect((await t.call('GET', `/console-admin/v1/billing-forecast?organizationHashId=${deviceHashId}`, employee)).statusCode).toBe(404);
    expect((await t.call('GET', `/console-admin/v1/billing-forecast?organizationHashId=${organizationHashId}`, customer)).statusCode).toBe(403);
  });
});
