import { GraphQLError } from 'graphql';
import { GridportError } from '../contracts/errors';
import { captureLogs } from '../test-support/app';
import { staffActor, testGraph, type TestGraph } from '../test-support/graphql';
import { composeSubgraphs, formatGraphqlError, GraphCompositionError } from './gateway';
import { federationLink } from './subgraph';

/** `{ me { ... on Actor { ... on Actor { ... name } } } }`: valid, and `levels` deep. */
function nestedQuery(levels: number): string {
  const fragments = levels - 2;
  return `{ me { ${'... on Actor { '.repeat(fragments)}name${' }'.repeat(fragments)} } }`;
}

describe('the GraphQL gateway', () => {
  let t: TestGraph;
  const ops = staffActor();

  beforeAll(async () => {
    t = await testGraph();
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers a query 12 levels deep', async () => {
    const result = await t.execute(ops, nestedQuery(12));
    expect(result).toEqual({ data: { me: { name: 'Ops' } }, errors: undefined });
  });

  it('refuses a query 13 levels deep with payload_invalid', async () => {
    const result = await t.execute(ops, nestedQuery(13));
    expect(result.errors).toEqual([{ message: 'Syntax Error: Query depth limit of 12 exceeded, found 13.', extensions: { code: 'payload_invalid' } }]);
  });

  it('refuses 16 aliases with payload_invalid', async () => {
    const aliases = Array.from({ length: 16 }, (_, index) => `a${index}: me { name }`).join(' ');
    const result = await t.execute(ops, `{ ${aliases} }`);
    expect(result.errors).toEqual([{ message: 'Syntax Error: Aliases limit of 15 exceeded, found 16.', extensions: { code: 'payload_invalid' } }]);
  });

  it('answers 15 aliases', async () => {
    const aliases = Array.from({ length: 15 }, (_, index) => `a${index}: me { name }`).join(' ');
    const result = await t.execute(ops, `{ ${aliases} }`);
    expect(result.errors).toBeUndefined();
  });

  it('refuses 21 directives with payload_invalid', async () => {
    const result = await t.execute(ops, `{ me { ${'name @include(if: true) '.repeat(21)}} }`);
    expect(result.errors).toEqual([{ message: 'Syntax Error: Directives limit of 20 exceeded, found 21.', extensions: { code: 'payload_invalid' } }]);
  });

  it('refuses a document of more than 2000 tokens with payload_invalid', async () => {
    const result = await t.execute(ops, `{ me { ${'name '.repeat(2000)}} }`);
    expect(result.errors).toEqual([
      {
        // graphql-js's own wording, typo included.
        message: 'Syntax Error: Document contains more that 2000 tokens. Parsing aborted.',
        locations: [{ line: 1, column: 9993 }],
        extensions: { code: 'payload_invalid' },
      },
    ]);
  });

  it('refuses an unknown field with payload_invalid and the validation message', async () => {
    const result = await t.execute(ops, '{ me { password } }');
    expect(result.errors).toEqual([
      { message: 'Cannot query field "password" on type "Actor".', locations: [{ line: 1, column: 8 }], extensions: { code: 'payload_invalid' } },
    ]);
  });

  it('masks an unknown error as internal_server_error and logs it with its stack', async () => {
    const spy = jest.spyOn(t.services.organizations, 'list').mockRejectedValueOnce(new Error('connection to postgres://admin:hunter2@10.0.0.5 refused'));
    try {
      const result = await t.execute(ops, '{ organizations { rows { hashId } } }');
      expect(result).toEqual({
        data: null,
        errors: [{ message: 'Something went wrong on our side.', path: ['organizations'], extensions: { code: 'internal_server_error' } }],
      });
      expect(JSON.stringify(result)).not.toContain('hunter2');
      const logged = t.logs.lines.find((line) => line.msg === 'unexpected error in a GraphQL resolver');
      expect(logged).toMatchObject({
        level: 50,
        subgraph: 'identity',
        field: 'Query.organizations',
        graphqlPath: 'organizations',
        err: { message: 'connection to postgres://admin:hunter2@10.0.0.5 refused', stack: expect.stringContaining('Error: connection to') },
      });
    } finally {
      spy.mockRestore();
    }
  });

  it('plans an operation once, and parses and validates its subgraph operation once, however often it runs', async () => {
    const before = t.graphql.caches();
    const beforeRoutes = t.graphql.singleFetch();
    const query = '{ cacheProbe: organizations(rowsPerPage: 2) { rows { name } nextPageOffset } }';
    const answers = [await t.execute(ops, query), await t.execute(ops, query), await t.execute(ops, query)];
    expect(answers[0]?.errors).toBeUndefined();
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    const after = t.graphql.caches();
    const added = (name: 'queryPlans' | 'subgraphOperations') => ({
      entries: after[name].entries - before[name].entries,
      hits: after[name].hits - before[name].hits,
      misses: after[name].misses - before[name].misses,
    });
    // The first run plans it and sends its subgraph operation; the plan being one fetch from one
    // subgraph, the next two run the query straight on that subgraph (resolvers/single-fetch.ts).
    expect({ queryPlans: added('queryPlans'), subgraphOperations: added('subgraphOperations') }).toEqual({
      queryPlans: { entries: 1, hits: 0, misses: 1 },
      subgraphOperations: { entries: 1, hits: 0, misses: 1 },
    });
    const routes = t.graphql.singleFetch();
    expect({
      routes: routes.routes - beforeRoutes.routes,
      direct: routes.direct - beforeRoutes.direct,
      gateway: routes.gateway - beforeRoutes.gateway,
    }).toEqual({
      routes: 1,
      direct: 2,
      gateway: 1,
    });
  });

  it('still reads the variables of a subgraph operation it kept, on every run', async () => {
    const query =
      'query($from: DateTimeISO!, $to: DateTimeISO!) { deviceMeasurements(hashId: "x", field: "activePower", reportType: "meterPower", from: $from, to: $to) { at } }';
    const readable = await t.execute(ops, query, { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' });
    expect(readable.errors?.map((error) => error.extensions?.code)).toEqual(['not_found']);
    for (let run = 0; run < 2; run += 1) {
      const unreadable = await t.execute(ops, query, { from: '+275760-09-12T00:00:00Z', to: '+275760-09-13T00:00:00Z' });
      expect(unreadable.errors?.map((error) => [error.extensions?.code, error.message.split(' value ')[0]])).toEqual([
        ['payload_invalid', 'Variable "$from" got invalid'],
        ['payload_invalid', 'Variable "$to" got invalid'],
      ]);
    }
  });

  it('answers introspection outside production', async () => {
    const result = await t.execute(ops, '{ __type(name: "Organization") { name } }');
    expect(result).toEqual({ data: { __type: { name: 'Organization' } }, errors: undefined });
  });
});

describe('the GraphQL gateway in production', () => {
  let t: TestGraph;

  beforeAll(async () => {
    t = await testGraph('production');
  });

  afterAll(async () => {
    await t.close();
  });

  it('refuses introspection with payload_invalid', async () => {
    const result = await t.execute(staffActor(), '{ __schema { types { name } } }');
    expect(result.errors?.map((error) => error.extensions)).toEqual([{ code: 'payload_invalid' }]);
    expect(result.errors?.[0]?.message).toMatch(/^GraphQL introspection is not allowed by Apollo Server/);
  });

  it('hides field suggestions', async () => {
    const result = await t.execute(staffActor(), '{ me { nam } }');
    expect(result.errors?.[0]?.message).toBe('Cannot query field "nam" on type "Actor". [Suggestion hidden]?');
  });
});

describe('formatGraphqlError', () => {
  const { lines, log } = captureLogs();
  const format = formatGraphqlError(log);

  it('keeps a catalogue key with its message and details, and drops everything else in extensions', () => {
    const formatted = format(
      {
        message: 'You may not do this.',
        path: ['organization'],
        extensions: { code: 'forbidden', details: { required: ['gridport.ops'] }, serviceName: 'identity', stacktrace: ['at x'] },
      },
      new GridportError('forbidden'),
    );
    expect(formatted).toEqual({
      message: 'You may not do this.',
      path: ['organization'],
      extensions: { code: 'forbidden', details: { required: ['gridport.ops'] } },
    });
  });

  it.each(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST', 'PERSISTED_QUERY_NOT_FOUND'])(
    'turns Apollo %s into payload_invalid keeping the message',
    (code) => {
      expect(format({ message: 'Apollo says no', extensions: { code, stacktrace: ['at y'] } }, new GraphQLError('Apollo says no'))).toEqual({
        message: 'Apollo says no',
        extensions: { code: 'payload_invalid' },
      });
    },
  );

  it('turns a downstream error without a catalogue key into internal_server_error, logged', () => {
    const original = new GraphQLError('Cannot return null for non-nullable field Organization.name.');
    const formatted = format(
      {
        message: 'Cannot return null for non-nullable field Organization.name.',
        path: ['organization', 'name'],
        extensions: { code: 'DOWNSTREAM_SERVICE_ERROR', serviceName: 'identity' },
      },
      original,
    );
    expect(formatted).toEqual({ message: 'Something went wrong on our side.', path: ['organization', 'name'], extensions: { code: 'internal_server_error' } });
    expect(lines.at(-1)).toMatchObject({ level: 50, msg: 'unexpected GraphQL error', code: 'DOWNSTREAM_SERVICE_ERROR' });
  });
});

describe('composeSubgraphs', () => {
  it('lists every composition error in a readable message', () => {
    const subgraph = (name: string, type: string) => ({ name, sdl: `${federationLink}\ntype Query { thing: ${type} }` });
    let caught: unknown;
    try {
      composeSubgraphs([subgraph('one', 'String'), subgraph('two', 'Int')]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GraphCompositionError);
    const message = (caught as GraphCompositionError).message;
    expect(message).toMatch(/^The subgraphs do not compose into one graph \(\d+ problem\(s\)\):\n {2}- /);
    expect(message).toContain('Query.thing');
  });
});
