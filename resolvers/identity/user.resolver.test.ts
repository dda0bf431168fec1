import { systemActor } from '../../graph/common/context';
import { anOrganization } from '../../test-support/factories';
import { customerActor, staffActor, testGraph, type TestGraph } from '../../test-support/graphql';

const listUsers = `
  query Users($organizationHashId: String, $filter: String) {
    users(organizationHashId: $organizationHashId, filter: $filter) {
      rows { hashId name email rights organization { hashId name type } }
      nextPageOffset
    }
  }
`;

interface UsersData {
  users: {
    rows: { hashId: string; name: string; email: string; rights: string[]; organization: { hashId: string; name: string; type: string } }[];
    nextPageOffset: string | null;
  };
}

describe('users in GraphQL', () => {
  let g: TestGraph;
  let eastHashId: string;
  let westHashId: string;

  beforeAll(async () => {
    g = await testGraph();
    const make = async (name: string) => (await anOrganization(g.services, { name, type: 'energy-trader' })).hashId;
    eastHashId = await make('East');
    westHashId = await make('West');
    await g.services.users.create(systemActor('test'), { organizationHashId: eastHashId, name: 'Eva', email: 'eva@example.com', rights: ['customer.write'] });
    await g.services.users.create(systemActor('test'), { organizationHashId: westHashId, name: 'Wim', email: 'wim@example.com', rights: ['customer.read'] });
  });

  afterAll(async () => {
    await g.close();
  });

  it('lists users with their organisation to staff', async () => {
    const result = await g.execute<UsersData>(staffActor(['gridport.employee']), listUsers, { organizationHashId: eastHashId });
    expect(result.errors).toBeUndefined();
    expect(result.data?.users.rows).toEqual([
      {
        hashId: expect.any(String),
        name: 'Eva',
        email: 'eva@example.com',
        rights: ['customer.read', 'customer.write'],
        organization: { hashId: eastHashId, name: 'East', type: 'ENERGY_TRADER' },
      },
    ]);
  });

  it('lists a customer only the users of their organisation, and refuses another organisation', async () => {
    const westId = g.hashIds.decode('organization', westHashId) ?? 0;
    const own = await g.execute<UsersData>(customerActor(westId, ['customer.read']), listUsers);
    expect(own.data?.users.rows.map((row) => row.name)).toEqual(['Wim']);
    const other = await g.execute<UsersData>(customerActor(westId, ['customer.read']), listUsers, { organizationHashId: eastHashId });
    expect(other.errors?.[0]?.extensions).toEqual({ code: 'forbidden_organization', details: { organizationHashId: eastHashId } });
  });

  it("answers another organisation's user as not_found to a customer", async () => {
    const eva = (await g.execute<UsersData>(staffActor(['gridport.employee']), listUsers, { filter: 'eva' })).data?.users.rows[0]?.hashId;
    const westId = g.hashIds.decode('organization', westHashId) ?? 0;
    const result = await g.execute(customerActor(westId), 'query User($hashId: ID!) { user(hashId: $hashId) { name } }', { hashId: eva });
    expect(result.errors?.[0]?.extensions).toEqual({ code: 'not_found', details: { userHashId: eva } });
  });

  it('reads users by hash id in one answer, leaving out a hash id that names nobody or another organisation, and refuses over 100', async () => {
    const byHashIds = 'query Users($hashIds: [ID!]) { users(hashIds: $hashIds) { rows { name } nextPageOffset } }';
    const everyone = (await g.execute<UsersData>(staffActor(['gridport.employee']), listUsers)).data?.users.rows ?? [];
    const hashIds = [
      ...everyone.filter((row) => row.name === 'Eva' || row.name === 'Wim').map((row) => row.hashId),
      g.hashIds.encode('user', 999_999),
      'hostile"}',
    ];

    const staff = await g.execute<UsersData>(staffActor(['gridport.employee']), byHashIds, { hashIds });
    expect(staff.errors).toBeUndefined();
    expect(staff.data?.users.rows.map((row) => row.name).sort()).toEqual(['Eva', 'Wim']);

    const westId = g.hashIds.decode('organization', westHashId) ?? 0;
    const customer = await g.execute<UsersData>(customerActor(westId, ['customer.read']), byHashIds, { hashIds });
    expect(customer.errors).toBeUndefined();
    expect(customer.data?.users.rows.map((row) => row.name)).toEqual(['Wim']);

    const tooMany = await g.execute(staffActor(['gridport.employee']), byHashIds, { hashIds: Array.from({ length: 101 }, (_, index) => `u${index}`) });
    expect(tooMany.errors?.[0]?.extensions).toEqual({
      code: 'query_invalid',
      details: [{ path: 'hashIds', message: 'hashIds field must have less than or equal to 100 items' }],
    });
  });
});
