import { buildDevice, buildOrganization } from '../../test-support/factories';
import { customerActor, staffActor, testGraph, type TestGraph } from '../../test-support/graphql';
import { fakeMoneybird, type FakeMoneybird } from '../../test-support/moneybird-server';

const entityFields = `hashId organization { hashId name } companyName address1 address2 zipcode city country emails chamberOfCommerce taxNumber
  accountingContactId isOrganizationDefault`;

const create = `mutation($input: BillingLegalEntityCreateInput!) { createBillingLegalEntity(input: $input) { ${entityFields} } }`;
const update = `mutation($h: ID!, $input: BillingLegalEntityUpdateInput!) { updateBillingLegalEntity(hashId: $h, input: $input) { ${entityFields} } }`;
const remove = `mutation($h: ID!) { deleteBillingLegalEntity(hashId: $h) }`;

interface EntityRow {
  hashId: string;
  organization: { hashId: string; name: string };
  companyName: string;
  city: string | null;
  country: string;
  taxNumber: string | null;
  accountingContactId: string | null;
  isOrganizationDefault: boolean;
}

/** Legal entities and device invoice details in GraphQL: the same services, rights and errors as REST. */
describe('billing legal entities in GraphQL', () => {
  let g: TestGraph;
  let moneybird: FakeMoneybird;
  let organization: { hashId: string; id: number };
  let other: { hashId: string; id: number };

  beforeAll(async () => {
    moneybird = await fakeMoneybird();
    moneybird.addContact({ id: '4242', company_name: 'Contact Over GraphQL BV', city: 'Leiden', country: 'NL', tax_number: 'NL000000000B01' });
    g = await testGraph('test', { moneybird: moneybird.settings() });
    organization = await buildOrganization(g.services, { name: 'GraphQL Billing BV' });
    other = await buildOrganization(g.services, { name: 'GraphQL Other BV' });
  });

  afterAll(async () => {
    await g.close();
    await moneybird.close();
  });

  async function createEntity(input: Record<string, unknown>, rights: Parameters<typeof staffActor>[0] = ['gridport.sales']): Promise<EntityRow> {
    const result = await g.execute<{ createBillingLegalEntity: EntityRow }>(staffActor(rights), create, {
      input: { organizationHashId: organization.hashId, ...input },
    });
    expect(result.errors).toBeUndefined();
    return result.data?.createBillingLegalEntity as EntityRow;
  }

  it('creates, reads, lists, updates and deletes a legal entity; the organisation is resolved by the identity subgraph', async () => {
    const created = await createEntity({ companyName: 'Over GraphQL BV', country: 'nl', city: 'Delft', isOrganizationDefault: true });
    expect(created).toMatchObject({
      organization: { hashId: organization.hashId, name: 'GraphQL Billing BV' },
      companyName: 'Over GraphQL BV',
      country: 'NL',
      city: 'Delft',
      isOrganizationDefault: true,
    });
    const read = await g.execute<{ billingLegalEntity: EntityRow }>(
      staffActor(['gridport.employee']),
      `query($h: ID!) { billingLegalEntity(hashId: $h) { ${entityFields} } }`,
      {
        h: created.hashId,
      },
    );
    expect(read.data?.billingLegalEntity).toEqual(created);

    const list = await g.execute<{ billingLegalEntities: { rows: EntityRow[]; nextPageOffset: string | null } }>(
      staffActor(['gridport.employee']),
      `query($o: ID, $f: String) { billingLegalEntities(organizationHashId: $o, filter: $f) { rows { hashId companyName } nextPageOffset } }`,
      { o: organization.hashId, f: 'graphql' },
    );
    expect(list.data?.billingLegalEntities).toEqual({ rows: [{ hashId: created.hashId, companyName: 'Over GraphQL BV' }], nextPageOffset: null });

    const updated = await g.execute<{ updateBillingLegalEntity: EntityRow }>(staffActor(['gridport.developer']), update, {
      h: created.hashId,
      input: { city: null, country: 'BE', taxNumber: 'BE0123456789' },
    });
    expect(updated.errors).toBeUndefined();
    expect(updated.data?.updateBillingLegalEntity).toMatchObject({ city: null, country: 'BE', taxNumber: 'BE0123456789' });

    const inUse = await g.execute(staffActor(['gridport.ops']), remove, { h: created.hashId });
    expect(inUse.errors?.map((error) => error.extensions?.code)).toEqual(['is_in_use']);
    await g.execute(staffActor(['gridport.ops']), update, { h: created.hashId, input: { isOrganizationDefault: false } });
    expect(await g.execute(staffActor(['gridport.ops']), remove, { h: created.hashId })).toEqual({ data: { deleteBillingLegalEntity: true } });
  });

  it('every error key of the REST routes, with its details', async () => {
    const errorOf = async (query: string, variables: Record<string, unknown>) =>
      (await g.execute(staffActor(['gridport.sales']), query, variables)).errors?.map((error) => error.extensions);
    expect(await errorOf(create, { input: { organizationHashId: organization.hashId, companyName: 'X', country: 'QQ' } })).toEqual([
      { code: 'country_invalid', details: { country: 'QQ' } },
    ]);
    expect(await errorOf(create, { input: { organizationHashId: organization.hashId, companyName: 'X', country: 'IT' } })).toEqual([
      { code: 'tax_number_required_for_eu_countries', details: { country: 'IT' } },
    ]);
    expect(await errorOf(create, { input: { organizationHashId: organization.hashId, accountingContactId: '999' } })).toEqual([
      { code: 'moneybird_contact_id_invalid', details: { accountingContactId: '999' } },
    ]);
    const tooLong = await errorOf(create, { input: { organizationHashId: organization.hashId, companyName: 'X', country: 'NL', taxNumber: 'x'.repeat(65) } });
    expect(tooLong?.map((extensions) => extensions?.code)).toEqual(['payload_invalid']);
    expect(await errorOf(`query($h: ID!) { billingLegalEntity(hashId: $h) { hashId } }`, { h: organization.hashId })).toEqual([
      { code: 'not_found', details: { billingLegalEntityHashId: organization.hashId } },
    ]);
  });

  it('from a Moneybird contact id', async () => {
    const created = await createEntity({ accountingContactId: '4242' });
    expect(created).toMatchObject({ companyName: 'Contact Over GraphQL BV', city: 'Leiden', country: 'NL', accountingContactId: '4242' });
  });

  it('rights: employees read, Ops, Developer and Sales write, customers are refused', async () => {
    const entity = await createEntity({ companyName: 'Rights BV', country: 'NL' });
    const employee = await g.execute(staffActor(['gridport.employee']), update, { h: entity.hashId, input: { city: 'X' } });
    expect(employee.errors?.map((error) => error.extensions)).toEqual([
      { code: 'forbidden', details: { required: ['gridport.ops', 'gridport.developer', 'gridport.sales'] } },
    ]);
    const customer = await g.execute(customerActor(organization.id), `query($h: ID!) { billingLegalEntity(hashId: $h) { hashId } }`, { h: entity.hashId });
    expect(customer.errors?.map((error) => error.extensions?.code)).toEqual(['forbidden']);
    const list = await g.execute(customerActor(organization.id), `{ billingLegalEntities { rows { hashId } } }`);
    expect(list.errors?.map((error) => error.extensions?.code)).toEqual(['forbidden']);
  });

  it("device invoice details: a legal entity of the device's organisation, shown with its company name; Ops and Sales only", async () => {
    const entity = await createEntity({ companyName: 'Device Target BV', country: 'NL' });
    const foreign = (
      await g.execute<{ createBillingLegalEntity: EntityRow }>(staffActor(['gridport.ops']), create, {
        input: { organizationHashId: other.hashId, companyName: 'Foreign BV', country: 'NL' },
      })
    ).data?.createBillingLegalEntity as EntityRow;
    const device = await buildDevice(g.services, { organizationHashId: organization.hashId });
    const invoiceDetails = `mutation($h: ID!, $input: DeviceInvoiceDetailsInput!) {
      updateDeviceInvoiceDetails(hashId: $h, input: $input) { hashId invoiceCustomerReference billingLegalEntity { hashId companyName country } } }`;
    const set = await g.execute(staffActor(['gridport.sales']), invoiceDetails, {
      h: device.hashId,
      input: { billingLegalEntityHashId: entity.hashId, invoiceCustomerReference: 'PO-1' },
    });
    expect(set).toEqual({
      data: {
        updateDeviceInvoiceDetails: {
          hashId: device.hashId,
          invoiceCustomerReference: 'PO-1',
          billingLegalEntity: { hashId: entity.hashId, companyName: 'Device Target BV', country: 'NL' },
        },
      },
    });
    const refused = await g.execute(staffActor(['gridport.ops']), invoiceDetails, { h: device.hashId, input: { billingLegalEntityHashId: foreign.hashId } });
    expect(refused.errors?.map((error) => error.extensions)).toEqual([{ code: 'not_found', details: { billingLegalEntityHashId: foreign.hashId } }]);
    const developer = await g.execute(staffActor(['gridport.developer']), invoiceDetails, { h: device.hashId, input: { billingLegalEntityHashId: null } });
    expect(developer.errors?.map((error) => error.extensions)).toEqual([{ code: 'forbidden', details: { required: ['gridport.ops', 'gridport.sales'] } }]);
    const cleared = await g.execute(staffActor(['gridport.ops']), invoiceDetails, { h: device.hashId, input: { billingLegalEntityHashId: null } });
    expect(cleared.data).toEqual({ updateDeviceInvoiceDetails: { hashId: device.hashId, invoiceCustomerReference: 'PO-1', billingLegalEntity: null } });
  });

  it("an organisation's pricing, invoice settings and subscription defaults are written by Sales and Developer and read by employees", async () => {
    const mutation = `mutation($h: ID!, $input: OrganizationUpdateInput!) { updateOrganization(hashId: $h, input: $input) { hashId } }`;
    for (const rights of [['gridport.sales'], ['gridport.developer']] as const) {
      const result = await g.execute(staffActor([...rights]), mutation, {
        h: other.hashId,
        input: {
          pricing: { type: 'usage', tiers: [{ volume: 10, discount: 0 }], rates: { 'asset.solar': 12 } },
          invoiceFrequency: 'DAILY',
          requireLegalEntityPerDevice: true,
          subscriptionDefaults: { chargePeriod: 3, runtime: 12 },
        },
      });
      expect(result.errors).toBeUndefined();
    }
    const read = await g.execute<{ organization: Record<string, unknown> }>(
      staffActor(['gridport.employee']),
      `query($h: ID!) { organization(hashId: $h) { pricing invoiceFrequency requireLegalEntityPerDevice subscriptionDefaults { chargePeriod runtime } } }`,
      { h: other.hashId },
    );
    expect(read.data?.organization).toMatchObject({
      pricing: expect.objectContaining({ type: 'usage', rates: { 'asset.solar': 12 } }) as unknown,
      invoiceFrequency: 'DAILY',
      requireLegalEntityPerDevice: true,
      subscriptionDefaults: { chargePeriod: 3, runtime: 12 },
    });
  });
});
