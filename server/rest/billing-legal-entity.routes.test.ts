import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, buildDevice } from '../../test-support/factories';
import { fakeMoneybird, type FakeMoneybird } from '../../test-support/moneybird-server';

interface LegalEntityView {
  hashId: string;
  organization: { hashId: string; name: string };
  companyName: string;
  address1: string | null;
  address2: string | null;
  zipcode: string | null;
  city: string | null;
  country: string;
  emails: string[];
  chamberOfCommerce: string | null;
  taxNumber: string | null;
  accountingContactId: string | null;
  isOrganizationDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

type Json = Record<string, unknown>;

const base = '/console-admin/v1/billing-legal-entity';

describe('billing legal entities', () => {
  let t: TestApp;
  let moneybird: FakeMoneybird;
  let ownerHashId: string;
  let otherHashId: string;
  let ops: string;
  let developer: string;
  let sales: string;
  let employee: string;
  let customer: string;
  let created = 0;

  beforeAll(async () => {
    moneybird = await fakeMoneybird();
    moneybird.addContact({
      id: '260703856323921477',
      company_name: 'Zonnepark Noord B.V.',
      address1: 'Stationsplein 1',
      zipcode: '9711 AA',
      city: 'Groningen',
      country: 'NL',
      send_invoices_to_email: 'facturen@zonnepark.example',
      chamber_of_commerce: '12345678',
      tax_number: 'NL123456789B01',
    });
    moneybird.addContact({ id: '260703856323921478', company_name: 'Windkraft GmbH', city: 'Bremen', country: 'DE', tax_number: '' });
    t = await testApp({}, { moneybird: moneybird.settings() });
    ownerHashId = (await anOrganization(t.services, { name: 'Legal Owner BV' })).hashId;
    otherHashId = (await anOrganization(t.services, { name: 'Legal Other BV' })).hashId;
    [ops, developer, sales, employee, customer] = await Promise.all([
      t.signIn(['gridport.ops']),
      t.signIn(['gridport.developer']),
      t.signIn(['gridport.sales']),
      t.signIn(['gridport.employee']),
      t.signIn(['customer.write'], ownerHashId),
    ]);
  });

  afterAll(async () => {
    await t.close();
    await moneybird.close();
  });

  beforeEach(() => {
    moneybird.failWith = null;
  });

  async function create(payload: Json = {}, caller = sales): Promise<LegalEntityView> {
    created += 1;
    const response = await t.call('POST', base, caller, { organizationHashId: ownerHashId, companyName: `Company ${created} BV`, country: 'NL', ...payload });
    expect({ status: response.statusCode, body: response.statusCode === 201 ? null : (response.json() as unknown) }).toEqual({ status: 201, body: null });
    const { billingLegalEntityHashId } = response.json() as { billingLegalEntityHashId: string };
    return get(billingLegalEntityHashId);
  }

  async function get(hashId: string): Promise<LegalEntityView> {
    const response = await t.call('GET', `${base}/${hashId}`, employee);
    expect(response.statusCode).toBe(200);
    return response.json() as LegalEntityView;
  }

  async function refused(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, caller: string | undefined, payload?: object) {
    const response = await t.call(method, url, caller, payload);
    return { status: response.statusCode, body: response.json() as { key: string; details?: unknown } };
  }

  function idOf(hashId: string): number {
    return t.hashIds.decode('billingLegalEntity', hashId) ?? -1;
  }

  async function defaultOf(organizationHashId: string): Promise<number | null> {
    const row = (await t.database
      .db('organizations')
      .where('id', t.hashIds.decode('organization', organizationHashId))
      .first('default_billing_legal_entity_id')) as {
      default_billing_legal_entity_id: number | null;
    };
    return row.default_billing_legal_entity_id === null ? null : Number(row.default_billing_legal_entity_id);
  }

  it('creates a legal entity from full details: answered with its hash id, read back with every field, audited', async () => {
    const response = await t.call('POST', base, ops, {
      organizationHashId: ownerHashId,
      companyName: '  Solar Fields GmbH ',
      address1: 'Hauptstraße 5',
      address2: null,
      zipcode: '10115',
      city: 'Berlin',
      country: 'de',
      emails: ['invoices@solarfields.example', 'INVOICES@solarfields.example', 'boss@solarfields.example'],
      chamberOfCommerce: 'HRB 12345',
      taxNumber: 'DE123456789',
    });
    expect(response.statusCode).toBe(201);
    const { billingLegalEntityHashId } = response.json() as { billingLegalEntityHashId: string };
    const view = await get(billingLegalEntityHashId);
    expect(view).toEqual({
      hashId: billingLegalEntityHashId,
      organization: { hashId: ownerHashId, name: 'Legal Owner BV' },
      companyName: 'Solar Fields GmbH',
      address1: 'Hauptstraße 5',
      address2: null,
      zipcode: '10115',
      city: 'Berlin',
      country: 'DE',
      emails: ['invoices@solarfields.example', 'boss@solarfields.example'],
      chamberOfCommerce: 'HRB 12345',
      taxNumber: 'DE123456789',
      accountingContactId: null,
      isOrganizationDefault: false,
      createdAt: expect.any(String) as string,
      updatedAt: expect.any(String) as string,
    });
    const audit = (await t.database
      .db('audit_log')
      .where({ object_type: 'billing_legal_entities', object_id: idOf(billingLegalEntityHashId) })
      .select('change_type', 'diff')) as { change_type: string; diff: { name: string; newValue?: unknown }[] }[];
    expect(audit.map((row) => row.change_type)).toEqual(['controllerCreate']);
    expect(audit[0]?.diff).toEqual(
      expect.arrayContaining([
        { type: 'string', name: 'companyName', oldValue: null, newValue: 'Solar Fields GmbH' },
        { type: 'string', name: 'country', oldValue: null, newValue: 'DE' },
        { type: 'boolean', name: 'isOrganizationDefault', oldValue: null, newValue: false },
      ]),
    );
  });

  it('creates from a Moneybird contact id alone: the details come from the contact', async () => {
    const view = await create({ companyName: undefined, country: undefined, accountingContactId: '260703856323921477' });
    expect(view).toMatchObject({
      companyName: 'Zonnepark Noord B.V.',
      address1: 'Stationsplein 1',
      address2: null,
      zipcode: '9711 AA',
      city: 'Groningen',
      country: 'NL',
      emails: ['facturen@zonnepark.example'],
      chamberOfCommerce: '12345678',
      taxNumber: 'NL123456789B01',
      accountingContactId: '260703856323921477',
    });
    expect(moneybird.requests.at(-1)).toEqual({
      method: 'GET',
      path: `/api/v2/${moneybird.administrationId}/contacts/260703856323921477.json`,
      authorization: `Bearer ${moneybird.token}`,
    });
  });

  it("details given beside a contact id override the contact's", async () => {
    const view = await create({
      accountingContactId: '260703856323921477',
      companyName: 'Zonnepark Noord (facturatie)',
      country: undefined,
      emails: ['ap@zonnepark.example'],
    });
    expect(view).toMatchObject({ companyName: 'Zonnepark Noord (facturatie)', city: 'Groningen', emails: ['ap@zonnepark.example'], country: 'NL' });
  });

  it('a contact Moneybird does not know is 400 moneybird_contact_id_invalid; nothing is made', async () => {
    const before = (await t.database.db('billing_legal_entities').count({ n: '*' }).first()) as { n: string | number };
    expect(await refused('POST', base, ops, { organizationHashId: ownerHashId, accountingContactId: '42' })).toEqual({
      status: 400,
      body: { key: 'moneybird_contact_id_invalid', details: { accountingContactId: '42' } },
    });
    const after = (await t.database.db('billing_legal_entities').count({ n: '*' }).first()) as { n: string | number };
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('a contact id that is not digits is payload_invalid', async () => {
    const answer = await refused('POST', base, ops, { organizationHashId: ownerHashId, accountingContactId: '12/../3' });
    expect(answer.status).toBe(400);
    expect(answer.body.key).toBe('payload_invalid');
  });

  it('a Moneybird contact still meets the EU tax rule: a German contact without a tax number is refused unless one is given', async () => {
    expect(await refused('POST', base, ops, { organizationHashId: ownerHashId, accountingContactId: '260703856323921478' })).toEqual({
      status: 400,
      body: { key: 'tax_number_required_for_eu_countries', details: { country: 'DE' } },
    });
    const view = await create({ companyName: undefined, country: undefined, accountingContactId: '260703856323921478', taxNumber: 'DE999999999' });
    expect(view).toMatchObject({ companyName: 'Windkraft GmbH', country: 'DE', taxNumber: 'DE999999999', city: 'Bremen' });
  });

  it('Moneybird down, or refusing the token, is 503 service_unavailable', async () => {
    moneybird.failWith = 503;
    expect(await refused('POST', base, ops, { organizationHashId: ownerHashId, accountingContactId: '260703856323921477' })).toEqual({
      status: 503,
      body: { key: 'service_unavailable', details: { reason: 'Moneybird answered 503' } },
    });
    moneybird.failWith = 401;
    const answer = await refused('POST', base, ops, { organizationHashId: ownerHashId, accountingContactId: '260703856323921477' });
    expect({ status: answer.status, key: answer.body.key }).toEqual({ status: 503, key: 'service_unavailable' });
  });

  it.each(['XX', 'NLD', 'X1', 'EU'])('country %j is 400 country_invalid', async (country) => {
    const answer = await refused('POST', base, ops, { organizationHashId: ownerHashId, companyName: 'Nowhere BV', country });
    expect(answer).toEqual({ status: 400, body: { key: 'country_invalid', details: { country } } });
  });

  it('the EU tax rule: required in Germany and Belgium, not in the Netherlands nor outside the EU', async () => {
    for (const country of ['DE', 'BE']) {
      expect(await refused('POST', base, ops, { organizationHashId: ownerHashId, companyName: 'No Tax', country })).toEqual({
        status: 400,
        body: { key: 'tax_number_required_for_eu_countries', details: { country } },
      });
    }
    expect((await create({ country: 'NL' })).taxNumber).toBeNull();
    expect((await create({ country: 'US' })).country).toBe('US');
    expect((await create({ country: 'CH' })).country).toBe('CH');
  });

  it('chamber of commerce and tax number at most 64 characters', async () => {
    expect((await create({ chamberOfCommerce: 'c'.repeat(64), taxNumber: 't'.repeat(64) })).chamberOfCommerce).toHaveLength(64);
    for (const field of ['chamberOfCommerce', 'taxNumber']) {
      const answer = await refused('POST', base, ops, { organizationHashId: ownerHashId, companyName: 'Long BV', country: 'NL', [field]: 'x'.repeat(65) });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ key: 'payload_invalid', details: [{ path: field, message: expect.stringContaining('64') as string }] });
    }
  });

  it('needs a company name and country, or a contact id', async () => {
    const answer = await refused('POST', base, ops, { organizationHashId: ownerHashId, companyName: 'Only A Name' });
    expect(answer.status).toBe(400);
    expect(answer.body.key).toBe('payload_invalid');
  });

  it('an unknown organisation, or the hash id of something else, is 404 not_found', async () => {
    const deviceHashId = (await buildDevice(t.services, { organizationHashId: ownerHashId })).hashId;
    expect(await refused('POST', base, ops, { organizationHashId: deviceHashId, companyName: 'X', country: 'NL' })).toEqual({
      status: 404,
      body: { key: 'not_found', details: { organizationHashId: deviceHashId } },
    });
    expect(await refused('GET', `${base}/${deviceHashId}`, ops)).toEqual({
      status: 404,
      body: { key: 'not_found', details: { billingLegalEntityHashId: deviceHashId } },
    });
    expect((await refused('PUT', `${base}/${deviceHashId}`, ops, { city: 'X' })).status).toBe(404);
    expect((await refused('DELETE', `${base}/${deviceHashId}`, ops)).status).toBe(404);
  });

  it('one default per organisation: a new default takes over, and false clears it', async () => {
    const first = await create({ isOrganizationDefault: true }, ops);
    expect(first.isOrganizationDefault).toBe(true);
    const second = await create({ isOrganizationDefault: true }, developer);
    expect(second.isOrganizationDefault).toBe(true);
    expect((await get(first.hashId)).isOrganizationDefault).toBe(false);
    expect(await defaultOf(ownerHashId)).toBe(idOf(second.hashId));

    const updated = await t.call('PUT', `${base}/${first.hashId}`, sales, { isOrganizationDefault: true });
    expect((updated.json() as LegalEntityView).isOrganizationDefault).toBe(true);
    expect((await get(second.hashId)).isOrganizationDefault).toBe(false);

    // false on one that is not the default changes nothing.
    const cleared = await t.call('PUT', `${base}/${second.hashId}`, sales, { isOrganizationDefault: false });
    expect((cleared.json() as LegalEntityView).isOrganizationDefault).toBe(false);
    expect(await defaultOf(ownerHashId)).toBe(idOf(first.hashId));

    const off = await t.call('PUT', `${base}/${first.hashId}`, sales, { isOrganizationDefault: false });
    expect((off.json() as LegalEntityView).isOrganizationDefault).toBe(false);
    expect(await defaultOf(ownerHashId)).toBeNull();
    const audit = (await t.database
      .db('audit_log')
      .where({ object_type: 'organizations', object_id: t.hashIds.decode('organization', ownerHashId) })
      .select('diff')) as {
      diff: { name: string }[];
    }[];
    expect(audit.filter((row) => row.diff.some((entry) => entry.name === 'defaultBillingLegalEntityId'))).toHaveLength(4);
  });

  it('updates only what is given; null clears; the rules hold on the result; audited', async () => {
    const entity = await create({ city: 'Utrecht', address2: 'Floor 3' });
    const response = await t.call('PUT', `${base}/${entity.hashId}`, sales, { city: 'Amsterdam', address2: null, emails: ['a@example.com'] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ companyName: entity.companyName, city: 'Amsterdam', address2: null, emails: ['a@example.com'], country: 'NL' });

    expect(await refused('PUT', `${base}/${entity.hashId}`, sales, { country: 'FR' })).toEqual({
      status: 400,
      body: { key: 'tax_number_required_for_eu_countries', details: { country: 'FR' } },
    });
    expect(await refused('PUT', `${base}/${entity.hashId}`, sales, { country: 'ZZ' })).toEqual({
      status: 400,
      body: { key: 'country_invalid', details: { country: 'ZZ' } },
    });
    const french = await t.call('PUT', `${base}/${entity.hashId}`, sales, { country: 'fr', taxNumber: 'FR12345678901' });
    expect(french.json()).toMatchObject({ country: 'FR', taxNumber: 'FR12345678901' });

    const audit = (await t.database
      .db('audit_log')
      .where({ object_type: 'billing_legal_entities', object_id: idOf(entity.hashId) })
      .orderBy('id')
      .select('change_type', 'diff')) as { change_type: string; diff: unknown[] }[];
    expect(audit.map((row) => row.change_type)).toEqual(['controllerCreate', 'controllerUpdate', 'controllerUpdate']);
    expect(audit[1]?.diff).toEqual(
      expect.arrayContaining([
        { type: 'string', name: 'city', oldValue: 'Utrecht', newValue: 'Amsterdam' },
        { type: 'string', name: 'address2', oldValue: 'Floor 3', newValue: null },
      ]),
    );
  });

  it("an update with a contact id fills the contact's details in, then the given ones; null unlinks the contact", async () => {
    const entity = await create({ city: 'Utrecht' });
    const linked = await t.call('PUT', `${base}/${entity.hashId}`, sales, { accountingContactId: '260703856323921477', city: 'Zwolle' });
    expect(linked.json()).toMatchObject({ companyName: 'Zonnepark Noord B.V.', city: 'Zwolle', accountingContactId: '260703856323921477' });
    const unlinked = await t.call('PUT', `${base}/${entity.hashId}`, sales, { accountingContactId: null });
    expect(unlinked.json()).toMatchObject({ companyName: 'Zonnepark Noord B.V.', accountingContactId: null });
    expect(await refused('PUT', `${base}/${entity.hashId}`, sales, { accountingContactId: '7' })).toEqual({
      status: 400,
      body: { key: 'moneybird_contact_id_invalid', details: { accountingContactId: '7' } },
    });
  });

  it('lists newest first, by organisation and company name, page by page', async () => {
    const organization = (await anOrganization(t.services, { name: 'Listed BV' })).hashId;
    const made: LegalEntityView[] = [];
    for (const name of ['Alpha Energy', 'Beta Energy', 'Gamma Storage']) {
      made.push(await create({ organizationHashId: organization, companyName: name }));
    }
    const all = await t.call('GET', `${base}?organizationHashId=${organization}`, employee);
    expect((all.json() as { rows: LegalEntityView[] }).rows.map((row) => row.companyName)).toEqual(['Gamma Storage', 'Beta Energy', 'Alpha Energy']);
    const filtered = await t.call('GET', `${base}?organizationHashId=${organization}&filter=energy`, employee);
    expect((filtered.json() as { rows: LegalEntityView[] }).rows.map((row) => row.companyName)).toEqual(['Beta Energy', 'Alpha Energy']);
    const first = (await t.call('GET', `${base}?organizationHashId=${organization}&rowsPerPage=2`, employee)).json() as {
      rows: LegalEntityView[];
      nextPageOffset: string;
    };
    expect(first.rows).toHaveLength(2);
    const second = (await t.call('GET', `${base}?organizationHashId=${organization}&rowsPerPage=2&offset=${first.nextPageOffset}`, employee)).json() as {
      rows: LegalEntityView[];
      nextPageOffset: string | null;
    };
    expect({ names: second.rows.map((row) => row.companyName), next: second.nextPageOffset }).toEqual({ names: ['Alpha Energy'], next: null });
    const everyone = (await t.call('GET', `${base}?rowsPerPage=500`, employee)).json() as { rows: LegalEntityView[] };
    expect(everyone.rows.map((row) => row.hashId)).toEqual(expect.arrayContaining(made.map((row) => row.hashId)));
  });

  it('hostile queries: a repeated parameter, an unknown parameter, a bad offset, a wrong organisation hash id', async () => {
    expect(await refused('GET', `${base}?filter=a&filter=b`, employee)).toEqual({
      status: 400,
      body: { key: 'query_invalid', details: [{ path: 'filter', message: 'filter must be given once' }] },
    });
    expect((await refused('GET', `${base}?organization=x`, employee)).body.key).toBe('query_invalid');
    expect((await refused('GET', `${base}?offset=not-a-cursor`, employee)).body.key).toBe('invalid_offset');
    expect(await refused('GET', `${base}?organizationHashId=nope`, employee)).toEqual({
      status: 404,
      body: { key: 'not_found', details: { organizationHashId: 'nope' } },
    });
  });

  it.each([
    ['__proto__', '{"__proto__":{"isAdmin":true},"organizationHashId":"x","companyName":"X","country":"NL"}'],
    ['constructor', '{"constructor":{"name":"x"},"organizationHashId":"x","companyName":"X","country":"NL"}'],
    ['an unknown field', '{"isAdmin":true,"organizationHashId":"x","companyName":"X","country":"NL"}'],
    ['a list', '[]'],
    ['emails that are not emails', '{"organizationHashId":"x","companyName":"X","country":"NL","emails":["not an email"]}'],
    [
      '21 emails',
      JSON.stringify({ organizationHashId: 'x', companyName: 'X', country: 'NL', emails: Array.from({ length: 21 }, (_, i) => `a${i}@example.com`) }),
    ],
  ])('a body with %s is 400 payload_invalid', async (_name, payload) => {
    const response = await t.app.inject({ method: 'POST', url: base, headers: { cookie: ops, 'content-type': 'application/json' }, payload });
    expect({ status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({ status: 400, key: 'payload_invalid' });
    const update = await t.app.inject({ method: 'PUT', url: `${base}/x`, headers: { cookie: ops, 'content-type': 'application/json' }, payload });
    expect(update.statusCode).toBe(400);
  });

  it('rights: employees read; Ops, Developer and Sales write; customers and nobody are refused', async () => {
    const entity = await create();
    expect((await t.call('GET', `${base}/${entity.hashId}`, employee)).statusCode).toBe(200);
    expect((await t.call('GET', base, employee)).statusCode).toBe(200);
    const body = { organizationHashId: ownerHashId, companyName: 'Employee BV', country: 'NL' };
    expect(await refused('POST', base, employee, body)).toEqual({
      status: 403,
      body: { key: 'forbidden', details: { required: ['gridport.ops', 'gridport.developer', 'gridport.sales'] } },
    });
    expect((await refused('PUT', `${base}/${entity.hashId}`, employee, { city: 'X' })).status).toBe(403);
    expect((await refused('DELETE', `${base}/${entity.hashId}`, employee)).status).toBe(403);
    for (const [method, url] of [
      ['GET', base],
      ['GET', `${base}/${entity.hashId}`],
      ['POST', base],
      ['PUT', `${base}/${entity.hashId}`],
      ['DELETE', `${base}/${entity.hashId}`],
    ] as const) {
      const payload = method === 'POST' ? body : method === 'PUT' ? { city: 'X' } : undefined;
      expect({ method, url, status: (await refused(method, url, customer, payload)).status }).toEqual({ method, url, status: 403 });
      expect({ method, url, status: (await refused(method, url, undefined, payload)).status }).toEqual({ method, url, status: 401 });
    }
    for (const writer of [ops, developer, sales]) {
      const made = await create({}, writer);
      expect((await t.call('PUT', `${base}/${made.hashId}`, writer, { city: 'Delft' })).statusCode).toBe(200);
      expect((await t.call('DELETE', `${base}/${made.hashId}`, writer)).statusCode).toBe(204);
    }
  });

  it("deletes an unused legal entity: devices naming it fall back to the organisation's default (audited); then it is gone", async () => {
    const entity = await create();
    const device = await buildDevice(t.services, { organizationHashId: ownerHashId });
    expect(
      (await t.call('PUT', `/console-admin/v1/device/${device.hashId}/invoice-details`, sales, { billingLegalEntityHashId: entity.hashId })).statusCode,
    ).toBe(200);
    const response = await t.call('DELETE', `${base}/${entity.hashId}`, sales);
    expect({ status: response.statusCode, body: response.body }).toEqual({ status: 204, body: '' });
    expect(await refused('GET', `${base}/${entity.hashId}`, employee)).toEqual({
      status: 404,
      body: { key: 'not_found', details: { billingLegalEntityHashId: entity.hashId } },
    });
    const view = (await t.call('GET', `/console-admin/v1/device/${device.hashId}`, employee)).json() as { billingLegalEntity: unknown };
    expect(view.billingLegalEntity).toBeNull();
    const deviceAudit = (await t.database.db('audit_log').where({ object_type: 'devices', object_id: device.id }).orderBy('id', 'desc').first('diff')) as {
      diff: unknown;
    };
    expect(deviceAudit.diff).toEqual([{ type: 'number', name: 'billingLegalEntityId', oldValue: idOf(entity.hashId), newValue: null }]);
    const audit = (await t.database
      .db('audit_log')
      .where({ object_type: 'billing_legal_entities', object_id: idOf(entity.hashId) })
      .orderBy('id', 'desc')
      .first('change_type')) as { change_type: string };
    expect(audit.change_type).toBe('controllerDelete');
  });

  it("an organisation's default, or one on an invoice, is 409 is_in_use", async () => {
    const fallback = await create({ isOrganizationDefault: true });
    expect(await refused('DELETE', `${base}/${fallback.hashId}`, sales)).toEqual({
      status: 409,
      body: { key: 'is_in_use', details: { billingLegalEntityHashId: fallback.hashId, reason: 'it is its organisation’s default legal entity' } },
    });
    const invoiced = await create();
    await t.database.db('billing_invoices').insert({
      public_id: 'GP-2099-000001',
      year: 2099,
      sequence: 1,
      organization_id: t.hashIds.decode('organization', ownerHashId),
      billing_legal_entity_id: idOf(invoiced.hashId),
      period_end: new Date('2099-02-01T00:00:00Z'),
      charge_cents: 100,
      totals: JSON.stringify({ hardware: 0, saas: 100, consultancy: 0 }),
      charge_count: 1,
      created_at: new Date('2099-02-01T00:00:00Z'),
    });
    expect(await refused('DELETE', `${base}/${invoiced.hashId}`, sales)).toEqual({
      status: 409,
      body: { key: 'is_in_use', details: { billingLegalEntityHashId: invoiced.hashId, reason: 'an invoice is addressed to it' } },
    });
    expect((await get(invoiced.hashId)).hashId).toBe(invoiced.hashId);
  });

  describe('device invoice details', () => {
    const details = (hashId: string) => `/console-admin/v1/device/${hashId}/invoice-details`;

    it("names a legal entity of the device's organisation; the device view shows it to staff; null gives the default back", async () => {
      const entity = await create({ companyName: 'Invoice Target BV' });
      const device = await buildDevice(t.services, { organizationHashId: ownerHashId });
      const response = await t.call('PUT', details(device.hashId), sales, { billingLegalEntityHashId: entity.hashId, invoiceCustomerReference: 'PO-9' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ billingLegalEntity: { hashId: entity.hashId, name: 'Invoice Target BV' }, invoiceCustomerReference: 'PO-9' });
      const audit = (await t.database.db('audit_log').where({ object_type: 'devices', object_id: device.id }).orderBy('id', 'desc').first('diff')) as {
        diff: unknown[];
      };
      expect(audit.diff).toEqual(expect.arrayContaining([{ type: 'number', name: 'billingLegalEntityId', oldValue: null, newValue: idOf(entity.hashId) }]));
      const cleared = await t.call('PUT', details(device.hashId), ops, { billingLegalEntityHashId: null });
      expect((cleared.json() as { billingLegalEntity: unknown }).billingLegalEntity).toBeNull();
    });

    it("another organisation's legal entity, or a hash id of something else, is 404 not_found", async () => {
      const foreign = await create({ organizationHashId: otherHashId });
      const device = await buildDevice(t.services, { organizationHashId: ownerHashId });
      expect(await refused('PUT', details(device.hashId), sales, { billingLegalEntityHashId: foreign.hashId })).toEqual({
        status: 404,
        body: { key: 'not_found', details: { billingLegalEntityHashId: foreign.hashId } },
      });
      expect((await refused('PUT', details(device.hashId), sales, { billingLegalEntityHashId: device.hashId })).body.key).toBe('not_found');
      expect((await refused('PUT', details(device.hashId), sales, { billingLegalEntityHashId: 'x'.repeat(65) })).body.key).toBe('payload_invalid');
    });

    it('a device without an organisation: billing_legal_entity_must_be_null; null is fine', async () => {
      const entity = await create();
      const device = await buildDevice(t.services, { organizationHashId: ownerHashId });
      expect((await t.call('PUT', `/console-admin/v1/device/${device.hashId}`, ops, { organizationHashId: null })).statusCode).toBe(200);
      expect(await refused('PUT', details(device.hashId), sales, { billingLegalEntityHashId: entity.hashId })).toEqual({
        status: 400,
        body: { key: 'billing_legal_entity_must_be_null', details: { billingLegalEntityHashId: entity.hashId } },
      });
      expect((await t.call('PUT', details(device.hashId), sales, { billingLegalEntityHashId: null })).statusCode).toBe(200);
    });

    it("a device that changes organisation loses its old organisation's legal entity", async () => {
      const entity = await create();
      const device = await buildDevice(t.services, { organizationHashId: ownerHashId });
      await t.call('PUT', details(device.hashId), sales, { billingLegalEntityHashId: entity.hashId });
      const moved = await t.call('PUT', `/console-admin/v1/device/${device.hashId}`, ops, { organizationHashId: otherHashId });
      expect(moved.statusCode).toBe(200);
      expect((moved.json() as { billingLegalEntity: unknown }).billingLegalEntity).toBeNull();
      const row = (await t.database.db('devices').where('id', device.id).first('billing_legal_entity_id')) as { billing_legal_entity_id: number | null };
      expect(row.billing_legal_entity_id).toBeNull();
    });

    it('Ops and Sales only; customers never see the legal entity', async () => {
      const entity = await create();
      const device = await buildDevice(t.services, { organizationHashId: ownerHashId, isExposedToCustomer: false });
      expect(await refused('PUT', details(device.hashId), developer, { billingLegalEntityHashId: entity.hashId })).toEqual({
        status: 403,
        body: { key: 'forbidden', details: { required: ['gridport.ops', 'gridport.sales'] } },
      });
      expect((await refused('PUT', details(device.hashId), employee, { billingLegalEntityHashId: entity.hashId })).status).toBe(403);
      expect((await refused('PUT', details(device.hashId), customer, { billingLegalEntityHashId: entity.hashId })).status).toBe(403);
      await t.call('PUT', details(device.hashId), sales, { billingLegalEntityHashId: entity.hashId });
      const own = await t.call('GET', `/console/v1/device/${device.hashId}`, customer);
      if (own.statusCode === 200) {
        expect((own.json() as { billingLegalEntity: unknown }).billingLegalEntity).toBeNull();
      } else {
        expect(own.statusCode).toBe(404);
      }
    });
  });
});
