import { systemActor } from '../../graph/common/context';
import { anOrganization } from '../../test-support/factories';
import { customerActor, staffActor, testGraph, type TestGraph } from '../../test-support/graphql';

describe('API keys in GraphQL', () => {
  let g: TestGraph;
  let keyHashId: string;
  let organizationHashId: string;

  beforeAll(async () => {
    g = await testGraph();
    const organization = await anOrganization(g.services, { name: 'Keyed BV' });
    organizationHashId = organization.hashId;
    keyHashId = (await g.services.apiKeys.create(systemActor('test'), { organizationHashId, name: 'Trading desk', ipRanges: ['10.0.0.0/8'], publicKey: null }))
      .hashId;
  });

  afterAll(async () => {
    await g.close();
  });

  it('lists keys with their organisation and shows one, never its secret', async () => {
    const list = await g.execute<{ apiKeys: { rows: { hashId: string; name: string; organizationName: string; rights: string[] }[] } }>(
      staffActor(['gridport.employee']),
      'query { apiKeys(filter: "trading") { rows { hashId name organizationName rights ipRanges } nextPageOffset } }',
    );
    expect(list.errors).toBeUndefined();
    expect(list.data?.apiKeys.rows).toEqual([
      { hashId: keyHashId, name: 'Trading desk', organizationName: 'Keyed BV', rights: ['customer.read', 'customer.write'], ipRanges: ['10.0.0.0/8'] },
    ]);
    const one = await g.execute<{ apiKey: { name: string } }>(
      staffActor(['gridport.employee']),
      'query One($hashId: ID!) { apiKey(hashId: $hashId) { hashId name user { email } } }',
      { hashId: keyHashId },
    );
    expect(one.data?.apiKey).toEqual({ hashId: keyHashId, name: 'Trading desk', user: null });
    const schemaText = JSON.stringify(one);
    expect(schemaText).not.toContain('gp_');
  });

  it('are for staff in a console session: a customer is forbidden, and so is an API key', async () => {
    const customerId = g.hashIds.decode('organization', organizationHashId) ?? 0;
    const customer = await g.execute(customerActor(customerId), 'query { apiKeys { rows { hashId } } }');
    expect(customer.errors?.[0]?.extensions?.code).toBe('forbidden');
    const key = await g.execute(
      { kind: 'apiKey', userId: null, apiKeyId: 1, organizationId: 1, rights: ['gridport.admin'], name: 'API key x' },
      'query { apiKeys { rows { hashId } } }',
    );
    expect(key.errors?.[0]?.extensions).toEqual({ code: 'forbidden', details: { reason: 'this route needs a console session' } });
  });
});
