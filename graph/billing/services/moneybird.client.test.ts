import { GridportError } from '../../../contracts/errors';
import { fakeMoneybird, type FakeMoneybird } from '../../../test-support/moneybird-server';
import { detailsOfContact, MoneybirdClient } from './moneybird.client';

async function failure(promise: Promise<unknown>): Promise<{ key: string; details: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GridportError) {
      return { key: error.key, details: error.details };
    }
    throw error;
  }
  throw new Error('expected a GridportError');
}

describe('Moneybird client', () => {
  let moneybird: FakeMoneybird;

  beforeAll(async () => {
    moneybird = await fakeMoneybird();
    moneybird.addContact({
      id: '260703856323921477',
      company_name: 'Zonnepark Noord B.V.',
      address1: 'Stationsplein 1',
      address2: 'Unit 4',
      zipcode: '9711 AA',
      city: 'Groningen',
      country: 'NL',
      email: 'info@zonnepark.example',
      send_invoices_to_email: 'facturen@zonnepark.example, finance@zonnepark.example',
      chamber_of_commerce: '12345678',
      tax_number: 'NL123456789B01',
    });
  });

  afterAll(async () => {
    await moneybird.close();
  });

  beforeEach(() => {
    moneybird.failWith = null;
  });

  it('reads a contact of the administration with the token as a Bearer token and maps its fields', async () => {
    const client = new MoneybirdClient(moneybird.settings());
    const before = moneybird.requests.length;
    expect(await client.contactDetails('260703856323921477')).toEqual({
      companyName: 'Zonnepark Noord B.V.',
      address1: 'Stationsplein 1',
      address2: 'Unit 4',
      zipcode: '9711 AA',
      city: 'Groningen',
      country: 'NL',
      emails: ['facturen@zonnepark.example', 'finance@zonnepark.example'],
      chamberOfCommerce: '12345678',
      taxNumber: 'NL123456789B01',
    });
    expect(moneybird.requests.slice(before)).toEqual([
      { method: 'GET', path: `/api/v2/${moneybird.administrationId}/contacts/260703856323921477.json`, authorization: `Bearer ${moneybird.token}` },
    ]);
  });

  it('an unknown contact is moneybird_contact_id_invalid', async () => {
    const client = new MoneybirdClient(moneybird.settings());
    expect(await failure(client.contactDetails('999'))).toEqual({ key: 'moneybird_contact_id_invalid', details: { accountingContactId: '999' } });
  });

  it('a contact id that is not digits is moneybird_contact_id_invalid without asking Moneybird', async () => {
    const client = new MoneybirdClient(moneybird.settings());
    const before = moneybird.requests.length;
    expect((await failure(client.contactDetails('../admin'))).key).toBe('moneybird_contact_id_invalid');
    expect(moneybird.requests.length).toBe(before);
  });

  it('a refused token is service_unavailable, naming the setting', async () => {
    const client = new MoneybirdClient(moneybird.settings({ apiToken: 'wrong' }));
    expect(await failure(client.contactDetails('260703856323921477'))).toEqual({
      key: 'service_unavailable',
      details: { reason: expect.stringContaining('MONEYBIRD_API_TOKEN') as string },
    });
  });

  it('another administration does not know the contact: moneybird_contact_id_invalid', async () => {
    const client = new MoneybirdClient(moneybird.settings({ administrationId: '1' }));
    expect((await failure(client.contactDetails('260703856323921477'))).key).toBe('moneybird_contact_id_invalid');
  });

  it('without administration or token it is service_unavailable and Moneybird is not asked', async () => {
    const before = moneybird.requests.length;
    expect((await failure(new MoneybirdClient(undefined).contactDetails('1'))).key).toBe('service_unavailable');
    expect((await failure(new MoneybirdClient(moneybird.settings({ apiToken: null })).contactDetails('1'))).key).toBe('service_unavailable');
    expect((await failure(new MoneybirdClient(moneybird.settings({ administrationId: null })).contactDetails('1'))).key).toBe('service_unavailable');
    expect(moneybird.requests.length).toBe(before);
  });

  it('Moneybird down (5xx) or unreachable is service_unavailable', async () => {
    moneybird.failWith = 503;
    expect(await failure(new MoneybirdClient(moneybird.settings()).contactDetails('260703856323921477'))).toEqual({
      key: 'service_unavailable',
      details: { reason: 'Moneybird answered 503' },
    });
    moneybird.failWith = null;
    const unreachable = new MoneybirdClient({ apiUrl: 'http://127.0.0.1:9/api/v2', administrationId: '1', apiToken: 't', timeoutMs: 2000 });
    expect(await failure(unreachable.contactDetails('1'))).toEqual({ key: 'service_unavailable', details: { reason: 'Moneybird could not be reached' } });
  });

  it("maps a person's contact: the name from first and last name, the contact's email when no invoice address is set, empty fields as null", () => {
    expect(
      detailsOfContact({
        id: '1',
        company_name: '',
        firstname: 'Anna',
        lastname: 'de Vries',
        address1: '',
        address2: null,
        zipcode: ' ',
        city: 'Utrecht',
        country: 'nl',
        email: 'anna@example.com',
        send_invoices_to_email: '',
        chamber_of_commerce: '',
        tax_number: '',
      }),
    ).toEqual({
      companyName: 'Anna de Vries',
      address1: null,
      address2: null,
      zipcode: null,
      city: 'Utrecht',
      country: 'NL',
      emails: ['anna@example.com'],
      chamberOfCommerce: null,
      taxNumber: null,
    });
  });
});
