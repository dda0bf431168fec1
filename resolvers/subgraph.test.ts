import { createGraphqlContext } from './graphql-context';
import { graphql, GraphQLError, isObjectType } from 'graphql';
import { GridportError } from '../contracts/errors';
import { anonymousActor, systemActor, type Actor } from '../graph/common/context';
import { HashIds } from '../graph/common/hash-ids';
import { buildIdentitySubgraph } from './identity/schema';
import { createServices, type Services } from '../graph/services';
import { toSubgraphError, type Subgraph } from './subgraph';
import { captureLogs, testSecrets } from '../test-support/app';
import { customerActor, staffActor } from '../test-support/graphql';
import { testDatabase, type TestDatabase } from '../test-support/database';

const entities = `
  query Entities($representations: [_Any!]!) {
    _entities(representations: $representations) { ... on Organization { hashId name } }
  }
`;

describe('a subgraph built from type-graphql resolvers', () => {
  let database: TestDatabase;
  let services: Services;
  let hashIds: HashIds;
  let identity: Subgraph;
  const logs = captureLogs();

  beforeAll(async () => {
    database = await testDatabase();
    hashIds = new HashIds(testSecrets.hashIdSecret);
    services = createServices({ db: database.db, hashIds, sessionSecret: testSecrets.sessionSecret, encryptionKey: testSecrets.encryptionKey });
    identity = await buildIdentitySubgraph(logs.log);
  });

  afterAll(async () => {
    await database.close();
  });

  function run(actor: Actor, source: string, variableValues?: Record<string, unknown>) {
    return graphql({ schema: identity.schema, source, variableValues, contextValue: createGraphqlContext(actor, services) });
  }

  it('declares Organization as an entity keyed by hashId under the Federation 2 link', () => {
    expect(identity.name).toBe('identity');
    expect(identity.sdl.startsWith('extend schema @link(url: "https://specs.apollo.dev/federation/v2.7"')).toBe(true);
    expect(identity.sdl).toContain('type Organization @key(fields: "hashId")');
  });

  it('leaves a plain property to graphql-js and keeps the resolver of a field with a field resolver or middleware', () => {
    const resolverOf = (typeName: string, field: string) => {
      const type = identity.schema.getType(typeName);
      if (!isObjectType(type)) {
        throw new Error(`${typeName} is no object type of the identity subgraph`);
      }
      return type.getFields()[field]?.resolve;
    };
    expect([resolverOf('Organization', 'name'), resolverOf('User', 'email'), resolverOf('OrganizationPage', 'rows')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect([typeof resolverOf('User', 'organization'), typeof resolverOf('Query', 'organizations')]).toEqual(['function', 'function']);
  });

  it('resolves an Organization reference for another subgraph', async () => {
    const provider = hashIds.encode('organization', 1);
    const result = await run(staffActor(), entities, { representations: [{ __typename: 'Organization', hashId: provider }] });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ _entities: [{ hashId: provider, name: 'Gridport' }] });
  });

  it('answers a reference the actor may not see with not_found and its details', async () => {
    const provider = hashIds.encode('organization', 1);
    const other = await services.organizations.create(systemActor('test'), {
      name: 'Elsewhere',
      type: 'installer',
      pricing: null,
      invoiceCustomerReference: null,
      invoiceFrequency: 'monthly',
      requireLegalEntityPerDevice: false,
      requireCustomerReferencePerDevice: false,
      subscriptionDefaults: null,
    });
    const otherId = hashIds.decode('organization', other.hashId);
    if (otherId === null) {
      throw new Error('a created hash id that does not decode');
    }
    const result = await run(customerActor(otherId, ['customer.read']), entities, {
      representations: [{ __typename: 'Organization', hashId: provider }],
    });
    expect(result.errors?.map((error) => [error.message, error.extensions])).toEqual([
      ['Not found.', { code: 'not_found', details: { organizationHashId: provider } }],
    ]);
  });

  it('gives a GridportError without details only its code', async () => {
    const result = await run(anonymousActor, '{ organizations { nextPageOffset } }');
    expect(result.errors?.map((error) => [error.message, error.extensions])).toEqual([['Authentication is required.', { code: 'unauthorized' }]]);
  });
});

describe('toSubgraphError', () => {
  it('keeps the key, message and details of a GridportError', () => {
    const { log } = captureLogs();
    const error = toSubgraphError(new GridportError('invalid_offset', { offset: 'x' }), log, {});
    expect(error).toBeInstanceOf(GraphQLError);
    expect([error.message, error.extensions]).toEqual(['The pagination offset is invalid.', { code: 'invalid_offset', details: { offset: 'x' } }]);
  });

  it('logs any other error with its stack and answers internal_server_error without internals', () => {
    const { lines, log } = captureLogs();
    const error = toSubgraphError(new TypeError("Cannot read properties of undefined (reading 'secret')"), log, { field: 'Query.x' });
    expect([error.message, error.extensions]).toEqual(['Something went wrong on our side.', { code: 'internal_server_error' }]);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 50,
        msg: 'unexpected error in a GraphQL resolver',
        field: 'Query.x',
        err: expect.objectContaining({
          type: 'TypeError',
          stack: expect.stringContaining("TypeError: Cannot read properties of undefined (reading 'secret')"),
        }),
      }),
    ]);
  });

  it('answers a full disk and a database that is away as REST does: disk_full and service_unavailable, logged as such', () => {
    const { lines, log } = captureLogs();
    // As objection wraps the driver's error: the SQLSTATE on the native error.
    const diskFull = Object.assign(new Error('could not extend file'), { nativeError: Object.assign(new Error('could not extend file'), { code: '53100' }) });
    const away = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const answers = [
      toSubgraphError(diskFull, log, {}),
      toSubgraphError(Object.assign(new Error('terminating'), { code: '57P01' }), log, {}),
      toSubgraphError(away, log, {}),
    ];
    expect(answers.map((error) => error.extensions)).toEqual([
      { code: 'disk_full' },
      { code: 'service_unavailable', details: { reason: 'the database is unavailable' } },
      { code: 'service_unavailable', details: { reason: 'a service Gridport depends on cannot be reached' } },
    ]);
    expect(lines.map((line) => line.msg)).toEqual([
      'the disk is full: writes are refused until space is freed',
      'the database is unavailable: requests that need it are refused until it answers',
      'a service Gridport depends on cannot be reached: requests that need it are refused until it answers',
    ]);
  });
});
