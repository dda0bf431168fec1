import { anonymousActor } from '../../graph/common/context';
import { customerActor, staffActor, testGraph, type TestGraph } from '../../test-support/graphql';

const organizationFields = `
  hashId name type isProvider pricing invoiceCustomerReference invoiceFrequency
  requireLegalEntityPerDevice requireCustomerReferencePerDevice
  subscriptionDefaults { chargePeriod runtime }
  createdAt updatedAt
`;

const createOrganization = `
  mutation Create($input: OrganizationCreateInput!) {
    createOrganization(input: $input) { ${organizationFields} }
  }
`;

const updateOrganization = `
  mutation Update($hashId: ID!, $input: OrganizationUpdateInput!) {
    updateOrganization(hashId: $hashId, input: $input) { ${organizationFields} }
  }
`;

const getOrganization = `
  query Get($hashId: ID!) { organization(hashId: $hashId) { ${organizationFields} } }
`;

const listOrganizations = `
  query List($filter: String, $type: OrganizationType, $offset: String, $rowsPerPage: Int) {
    organizations(filter: $filter, type: $type, offset: $offset, rowsPerPage: $rowsPerPage) {
      rows { hashId name type }
      nextPageOffset
    }
  }
`;

interface OrganizationData {
  hashId: string;
  name: string;
  type: string | null;
  isProvider: boolean;
  pricing: unknown;
  invoiceCustomerReference: string | null;
  invoiceFrequency: string;
  requireLegalEntityPerDevice: boolean;
  requireCustomerReferencePerDevice: boolean;
  subscriptionDefaults: { chargePeriod: number; runtime: number } | null;
  createdAt: string;
  updatedAt: string;
}

interface PageData {
  organizations: { rows: { hashId: string; name: string; type: string | null }[]; nextPageOffset: string | null };
}

const isoDate = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('organisations over GraphQL', () => {
  let t: TestGraph;
  const ops = staffActor();

  beforeAll(async () => {
    t = await testGraph();
  });

  afterAll(async () => {
    await t.close();
  });

  async function create(input: Record<string, unknown>): Promise<OrganizationData> {
    const result = await t.execute<{ createOrganization: OrganizationData }>(ops, createOrganization, { input });
    expect(result.errors).toBeUndefined();
    const created = result.data?.createOrganization;
    if (!created) {
      throw new Error('createOrganization answered no organisation');
    }
    return created;
  }

  it('creates an organisation with every field, answering the GraphQL enum names', async () => {
    const created = await create({
      name: '  Acme Energy  ',
      type: 'ENERGY_TRADER',
      pricing: { type: 'usage', tiers: [{ volume: 100, discount: 0 }], rates: { 'asset.solar': 20 } },
      invoiceCustomerReference: 'PO-17',
      invoiceFrequency: 'DAILY',
      requireLegalEntityPerDevice: true,
      subscriptionDefaults: { chargePeriod: 1, runtime: 12 },
    });
    expect(created).toEqual({
      hashId: expect.stringMatching(/^[A-Za-z0-9]{8,}$/),
      name: 'Acme Energy',
      type: 'ENERGY_TRADER',
      isProvider: false,
      pricing: { type: 'usage', tiers: [{ volume: 100, discount: 0 }], rates: { 'asset.solar': 20 } },
      invoiceCustomerReference: 'PO-17',
      invoiceFrequency: 'DAILY',
      requireLegalEntityPerDevice: true,
      requireCustomerReferencePerDevice: false,
      subscriptionDefaults: { chargePeriod: 1, runtime: 12 },
      createdAt: expect.stringMatching(isoDate),
      updatedAt: expect.stringMatching(isoDate),
    });
    const stored = await t.services.organizations.get(ops, created.hashId);
    expect(stored.type).toBe('energy-trader');
    expect(stored.invoiceFrequency).toBe('daily');
  });

  it('fills the defaults of the shared schema for fields left out', async () => {
    const created = await create({ name: 'Defaults', type: 'INSTALLER' });
    expect(created).toMatchObject({
      pricing: null,
      invoiceCustomerReference: null,
      invoiceFrequency: 'MONTHLY',
      requireLegalEntityPerDevice: false,
      requireCustomerReferencePerDevice: false,
      subscriptionDefaults: null,
    });
  });

  it('updates only the fields given, and null clears a nullable field', async () => {
    const created = await create({ name: 'Before', type: 'ASSET_OWNER', invoiceCustomerReference: 'REF-1' });
    const result = await t.execute<{ updateOrganization: OrganizationData }>(ops, updateOrganization, {
      hashId: created.hashId,
      input: { name: 'After', invoiceCustomerReference: null, requireCustomerReferencePerDevice: true },
    });
    expect(result.errors).toBeUndefined();
    expect(result.data?.updateOrganization).toMatchObject({
      hashId: created.hashId,
      name: 'After',
      type: 'ASSET_OWNER',
      invoiceCustomerReference: null,
      requireCustomerReferencePerDevice: true,
    });
  });

  it('gets one organisation by hash id, and the provider organisation with a null type', async () => {
    const created = await create({ name: 'Fetched', type: 'DATA_RECEIVER' });
    const fetched = await t.execute<{ organization: OrganizationData }>(ops, getOrganization, { hashId: created.hashId });
    expect(fetched.errors).toBeUndefined();
    expect(fetched.data?.organization).toEqual(created);

    const provider = await t.execute<{ organization: OrganizationData }>(ops, getOrganization, {
      hashId: t.hashIds.encode('organization', 1),
    });
    expect(provider.data?.organization).toMatchObject({ name: 'Gridport', type: null, isProvider: true });
  });

  it('lets a customer read its own organisation and answers not_found for another', async () => {
    const own = await create({ name: 'Own', type: 'INSTALLER' });
    const other = await create({ name: 'Other', type: 'INSTALLER' });
    const ownId = t.hashIds.decode('organization', own.hashId);
    if (ownId === null) {
      throw new Error('a created hash id that does not decode');
    }
    const customer = customerActor(ownId, ['customer.read']);
    const mine = await t.execute<{ organization: OrganizationData }>(customer, getOrganization, { hashId: own.hashId });
    expect(mine.data?.organization.name).toBe('Own');
    const theirs = await t.execute(customer, getOrganization, { hashId: other.hashId });
    expect(theirs.errors).toEqual([
      {
        message: 'Not found.',
        path: ['organization'],
        extensions: { code: 'not_found', details: { organizationHashId: other.hashId } },
      },
    ]);
  });

  it('answers not_found for the hash id of another entity type', async () => {
    const userHashId = t.hashIds.encode('user', 1);
    const result = await t.execute(ops, getOrganization, { hashId: userHashId });
    expect(result.data).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors?.[0]?.message).toBe('Not found.');
    expect(result.errors?.[0]?.extensions).toEqual({ code: 'not_found', details: { organizationHashId: userHashId } });
  });

  it('pages through a filtered list newest first with nextPageOffset', async () => {
    const first = await create({ name: 'Paged one', type: 'INSTALLER' });
    const second = await create({ name: 'Paged two', type: 'ENERGY_TRADER' });
    const third = await create({ name: 'Paged three', type: 'INSTALLER' });

    const page1 = await t.execute<PageData>(ops, listOrganizations, { filter: 'paged', rowsPerPage: 2 });
    expect(page1.errors).toBeUndefined();
    expect(page1.data?.organizations.rows.map((row) => row.hashId)).toEqual([third.hashId, second.hashId]);
    const offset = page1.data?.organizations.nextPageOffset;
    expect(offset).toEqual(expect.any(String));

    const page2 = await t.execute<PageData>(ops, listOrganizations, { filter: 'paged', rowsPerPage: 2, offset });
    expect(page2.data?.organizations).toEqual({ rows: [{ hashId: first.hashId, name: 'Paged one', type: 'INSTALLER' }], nextPageOffset: null });

    const installers = await t.execute<PageData>(ops, listOrganizations, { filter: 'paged', type: 'INSTALLER' });
    expect(installers.data?.organizations.rows.map((row) => row.name)).toEqual(['Paged three', 'Paged one']);
  });

  it('treats arguments sent as null as not given', async () => {
    const result = await t.execute<PageData>(ops, listOrganizations, { filter: null, type: null, offset: null, rowsPerPage: null });
    expect(result.errors).toBeUndefined();
    expect(result.data?.organizations.rows.length).toBeGreaterThan(0);
  });

  it('refuses an offset that does not decode with invalid_offset', async () => {
    const result = await t.execute(ops, listOrganizations, { offset: 'not-a-cursor' });
    expect(result.errors?.map((error) => error.extensions)).toEqual([{ code: 'invalid_offset', details: { offset: 'not-a-cursor' } }]);
    expect(result.errors?.[0]?.message).toBe('The pagination offset is invalid.');
  });

  it('refuses 501 rows per page with query_invalid and the issue', async () => {
    const result = await t.execute(ops, listOrganizations, { rowsPerPage: 501 });
    expect(result.errors?.map((error) => [error.message, error.extensions])).toEqual([
      ['The query string is invalid.', { code: 'query_invalid', details: [{ path: 'rowsPerPage', message: 'rowsPerPage must be less than or equal to 500' }] }],
    ]);
  });

  it('refuses a name of 101 characters with payload_invalid, path and message', async () => {
    const result = await t.execute(ops, createOrganization, { input: { name: 'x'.repeat(101), type: 'INSTALLER' } });
    expect(result.data).toBeNull();
    expect(result.errors?.map((error) => [error.message, error.extensions])).toEqual([
      ['The request body is invalid.', { code: 'payload_invalid', details: [{ path: 'name', message: 'name must be at most 100 characters' }] }],
    ]);
  });

  it('reports every invalid field of an update at once', async () => {
    const created = await create({ name: 'Strict', type: 'INSTALLER' });
    const result = await t.execute(ops, updateOrganization, {
      hashId: created.hashId,
      input: { name: null, pricing: { type: 'flat' }, subscriptionDefaults: { chargePeriod: 0, runtime: 12 } },
    });
    expect(result.errors?.[0]?.extensions).toEqual({
      code: 'payload_invalid',
      details: [
        { path: 'name', message: 'name cannot be null' },
        { path: 'pricing.type', message: 'Pricing type must be usage or legacy' },
        { path: 'subscriptionDefaults.chargePeriod', message: 'subscriptionDefaults.chargePeriod must be greater than or equal to 1' },
      ],
    });
  });

  it('refuses a missing required input field as payload_invalid with the message GraphQL gives', async () => {
    const result = await t.execute(ops, createOrganization, { input: { type: 'INSTALLER' } });
    expect(result.errors).toEqual([
      {
        message: 'Variable "$input" got invalid value { type: "INSTALLER" }; Field "name" of required type "String!" was not provided.',
        locations: [{ line: 2, column: 19 }],
        extensions: { code: 'payload_invalid' },
      },
    ]);
  });

  it('answers forbidden when a customer creates an organisation', async () => {
    const result = await t.execute(customerActor(1), createOrganization, { input: { name: 'Nope', type: 'INSTALLER' } });
    expect(result.errors?.map((error) => [error.message, error.extensions])).toEqual([
      ['You may not do this.', { code: 'forbidden', details: { required: ['gridport.ops', 'gridport.developer', 'gridport.sales'] } }],
    ]);
  });

  it('answers unauthorized to the anonymous actor', async () => {
    const list = await t.execute(anonymousActor, listOrganizations);
    expect(list.errors?.map((error) => [error.message, error.extensions])).toEqual([['Authentication is required.', { code: 'unauthorized' }]]);
    const created = await t.execute(anonymousActor, createOrganization, { input: { name: 'Nope', type: 'INSTALLER' } });
    expect(created.errors?.[0]?.extensions).toEqual({ code: 'unauthorized' });
  });
});
