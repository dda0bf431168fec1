import { HeaderMap } from '@apollo/server';
import { exampleDeviceConfig } from '../contracts/device';
import type { Actor } from '../graph/common/context';
import { HashIds } from '../graph/common/hash-ids';
import { createServices, type Services } from '../graph/services';
import { captureLogs, testSecrets } from '../test-support/app';
import { testDatabase, type TestDatabase } from '../test-support/database';
import { buildDevice, buildDeviceGroup, buildOrganization, buildUser } from '../test-support/factories';
import { customerActor, staffActor } from '../test-support/graphql';
import { createGraphqlServer, type GraphqlServer } from './gateway';
import { createGraphqlContext } from './graphql-context';

interface Operation {
  /** What the operation shows. */
  name: string;
  actor: 'staff' | 'customer';
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  /** Run straight on its subgraph once planned, or through the gateway every time. */
  route: 'direct' | 'gateway';
}

const operations: Operation[] = [
  {
    name: 'a list of 50 organisations',
    actor: 'staff',
    query: '{ organizations(rowsPerPage: 50) { rows { hashId name type } nextPageOffset } }',
    route: 'direct',
  },
  {
    name: 'nested objects, __typename and aliases',
    actor: 'staff',
    query:
      '{ __typename me { __typename kind name rights organization { __typename hashId name isProvider } } page: organizations(rowsPerPage: 2, filter: "Organisation") { first: rows { id: hashId label: name createdAt } nextPageOffset } }',
    route: 'direct',
  },
  {
    name: 'named and inline fragments, a field asked twice',
    actor: 'staff',
    query:
      'query Named { ...Root } fragment Root on Query { users(rowsPerPage: 5) { rows { ...U ... on User { email hashId } } } } fragment U on User { hashId name rights organization { name ... on Organization { type } } }',
    route: 'direct',
  },
  {
    name: 'one of two operations by name, a variable with its default and one given',
    actor: 'staff',
    query:
      'query Some($n: Int = 3, $kind: OrganizationType) { organizations(rowsPerPage: $n, type: $kind) { rows { name type } nextPageOffset } } query Other { me { name } }',
    operationName: 'Some',
    variables: { kind: 'ASSET_OWNER' },
    route: 'direct',
  },
  {
    name: '@include and @skip by variables',
    actor: 'staff',
    query: 'query($with: Boolean!) { organizations(rowsPerPage: 3) { rows { name type @include(if: $with) hashId @skip(if: $with) } } }',
    variables: { with: true },
    route: 'direct',
  },
  {
    name: 'an error with its path and no data',
    actor: 'staff',
    query: '{ organization(hashId: "nothing") { name } }',
    route: 'direct',
  },
  {
    name: 'a list the actor may not read',
    actor: 'customer',
    query: '{ organizations { rows { name } } }',
    route: 'direct',
  },
  {
    name: 'a field the actor may not read, beside data it may',
    actor: 'customer',
    query: '{ devices(rowsPerPage: 5) { rows { name deviceGroup { name } } count } }',
    route: 'direct',
  },
  {
    name: 'root fields of two subgraphs side by side',
    actor: 'customer',
    query: '{ me { name } devices(rowsPerPage: 5) { rows { name } } }',
    route: 'gateway',
  },
  {
    name: 'an entity resolved across two subgraphs',
    actor: 'staff',
    query: '{ devices(rowsPerPage: 5) { rows { name organization { name type } } } }',
    route: 'gateway',
  },
  {
    name: 'introspection beside a field',
    actor: 'staff',
    query: '{ __type(name: "Organization") { name } organizations(rowsPerPage: 1) { rows { name } } }',
    route: 'gateway',
  },
  {
    name: 'a variable the API schema refuses',
    actor: 'staff',
    query: 'query($n: Int) { organizations(rowsPerPage: $n) { rows { name } } }',
    variables: { n: 'many' },
    route: 'gateway',
  },
  {
    name: "a variable only the subgraph's scalar refuses",
    actor: 'staff',
    query:
      'query($from: DateTimeISO!, $to: DateTimeISO!) { deviceMeasurements(hashId: "x", field: "activePower", reportType: "meterPower", from: $from, to: $to) { at } }',
    variables: { from: '+275760-09-12T00:00:00Z', to: '2026-01-02T00:00:00Z' },
    route: 'gateway',
  },
];

describe('a query planned as one fetch from one subgraph, run straight on that subgraph', () => {
  let database: TestDatabase;
  let services: Services;
  let direct: GraphqlServer;
  let gatewayOnly: GraphqlServer;
  const actors: Record<Operation['actor'], Actor> = { staff: staffActor(), customer: staffActor() };

  beforeAll(async () => {
    database = await testDatabase();
    services = createServices({
      db: database.db,
      hashIds: new HashIds(testSecrets.hashIdSecret),
      sessionSecret: testSecrets.sessionSecret,
      encryptionKey: testSecrets.encryptionKey,
    });
    const { log } = captureLogs();
    direct = await createGraphqlServer({ services, log, environment: 'test' });
    gatewayOnly = await createGraphqlServer({ services, log, environment: 'test', singleFetchDirect: false });
    const customer = await buildOrganization(services);
    for (let index = 0; index < 3; index += 1) {
      await buildOrganization(services);
      await buildUser(services);
    }
    const group = await buildDeviceGroup(services, { organizationHashId: customer.hashId });
    const exposed = { config: exampleDeviceConfig, isExposedToCustomer: true };
    await buildDevice(services, { organizationHashId: customer.hashId, deviceGroupHashId: group.hashId, ...exposed });
    await buildDevice(services, { organizationHashId: customer.hashId, ...exposed });
    actors.customer = customerActor(customer.id, ['customer.read']);
  });

  afterAll(async () => {
    await direct.stop();
    await gatewayOnly.stop();
    await database.close();
  });

  /** The HTTP answer (status, headers and body text, as sent) to one POST /graphql. */
  async function answer(graph: GraphqlServer, operation: Operation): Promise<{ status: number; headers: [string, string][]; body: string }> {
    const response = await graph.server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: 'POST',
        headers: new HeaderMap([['content-type', 'application/json']]),
        search: '',
        // As a client's JSON body arrives: a key left out, not undefined.
        body: JSON.parse(JSON.stringify({ query: operation.query, variables: operation.variables, operationName: operation.operationName })) as unknown,
      },
      context: async () => createGraphqlContext(actors[operation.actor], services),
    });
    if (response.body.kind !== 'complete') {
      throw new Error('an incremental GraphQL answer where a whole one was expected');
    }
    return { status: response.status ?? 200, headers: [...response.headers].sort(), body: response.body.string };
  }

  it.each(operations)('answers $name byte for byte as the gateway does ($route)', async (operation) => {
    const expected = await answer(gatewayOnly, operation);
    const planned = await answer(direct, operation);
    const before = direct.singleFetch();
    const again = await answer(direct, operation);
    const after = direct.singleFetch();
    expect(planned).toEqual(expected);
    expect(again).toEqual(expected);
    expect({ direct: after.direct - before.direct, gateway: after.gateway - before.gateway }).toEqual(
      operation.route === 'direct' ? { direct: 1, gateway: 0 } : { direct: 0, gateway: 1 },
    );
  });

  it('compares answers with data (and errors where meant), not only refusals', async () => {
    const answered = await Promise.all(
      operations.map(
        async (operation) => JSON.parse((await answer(gatewayOnly, operation)).body) as { data?: unknown; errors?: { extensions: { code: string } }[] },
      ),
    );
    expect(answered.map(({ data, errors }) => [data !== null && data !== undefined, errors?.map((error) => error.extensions.code) ?? []])).toEqual([
      [true, []],
      [true, []],
      [true, []],
      [true, []],
      [true, []],
      [false, ['not_found']],
      [false, ['forbidden']],
      [true, ['forbidden']],
      [true, []],
      [true, []],
      [true, []],
      [false, ['payload_invalid']],
      [false, ['payload_invalid']],
    ]);
  });

  it('never runs a mutation straight on a subgraph', async () => {
    const before = direct.singleFetch();
    const mutation: Operation = {
      name: 'a mutation',
      actor: 'customer',
      query: 'mutation { createOrganization(input: { name: "Not allowed", type: "asset-owner" }) { hashId } }',
      route: 'gateway',
    };
    const first = await answer(direct, mutation);
    const second = await answer(direct, mutation);
    expect(second).toEqual(first);
    expect(direct.singleFetch().direct).toBe(before.direct);
  });
});
