import { anonymousActor } from '../../graph/common/context';
import { customerActor, staffActor, testGraph, type TestGraph } from '../../test-support/graphql';
import { anOrganization } from '../../test-support/factories';

const me = `{ me { kind name rights organization { hashId name isProvider } } }`;

describe('me over GraphQL', () => {
  let t: TestGraph;

  beforeAll(async () => {
    t = await testGraph();
  });

  afterAll(async () => {
    await t.close();
  });

  it('is null for the anonymous actor', async () => {
    const result = await t.execute(anonymousActor, me);
    expect(result).toEqual({ data: { me: null }, errors: undefined });
  });

  it('shows a staff user with rights as enum names and the provider organisation', async () => {
    const result = await t.execute(staffActor(['gridport.ops', 'gridport.sales']), me);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      me: {
        kind: 'USER',
        name: 'Ops',
        rights: ['GRIDPORT_OPS', 'GRIDPORT_SALES'],
        organization: { hashId: t.hashIds.encode('organization', 1), name: 'Gridport', isProvider: true },
      },
    });
  });

  it("shows a customer's own organisation", async () => {
    const created = await anOrganization(t.services, { name: 'Customer Co', type: 'asset-owner' });
    const id = t.hashIds.decode('organization', created.hashId);
    if (id === null) {
      throw new Error('a created hash id that does not decode');
    }
    const result = await t.execute(customerActor(id, ['customer.read']), me);
    expect(result.data).toEqual({
      me: { kind: 'USER', name: 'Customer', rights: ['CUSTOMER_READ'], organization: { hashId: created.hashId, name: 'Customer Co', isProvider: false } },
    });
  });

  it('shows an API key actor without an organisation as having none', async () => {
    const result = await t.execute({ kind: 'apiKey', userId: null, apiKeyId: 3, organizationId: null, rights: ['gridport.developer'], name: 'CI key' }, me);
    expect(result.data).toEqual({ me: { kind: 'API_KEY', name: 'CI key', rights: ['GRIDPORT_DEVELOPER'], organization: null } });
  });
});
