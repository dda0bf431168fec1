import { OrganizationResolver } from '../resolvers/identity/organization.resolver';
import type { GraphqlContext } from '../resolvers/graphql-context';
import { testApp, type TestApp } from '../test-support/app';
import { currentRequestId, requestIdOf } from './request-context';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the id of a request', () => {
  it('is the incoming x-request-id when it is sane, else a fresh UUID', () => {
    for (const sane of ['abc', 'Root=1-67891233-abcdef012345678912345678', 'f3c1.9:aa_bb~c@d+e/f', 'x'.repeat(128)]) {
      expect(requestIdOf(sane)).toBe(sane);
    }
    for (const insane of [undefined, '', 'two words', 'x'.repeat(129), '<script>', 'line\nbreak', 'ünïcode', ['a', 'b']]) {
      expect(requestIdOf(insane)).toMatch(uuid);
    }
    expect(requestIdOf(undefined)).not.toBe(requestIdOf(undefined));
  });
});

describe('request ids through the app', () => {
  let t: TestApp;
  let staff: string;

  beforeAll(async () => {
    t = await testApp({}, { graphql: true });
    staff = await t.signIn(['gridport.ops']);
  }, 120_000);

  afterAll(async () => {
    await t.close();
  });

  /** The log lines of the request with this id. */
  const linesOf = (requestId: string) => t.logs.lines.filter((line) => line.reqId === requestId);

  it('answers a made id in x-request-id and logs every line of the request with it', async () => {
    t.logs.lines.length = 0;
    const answer = await t.call('GET', '/v1/api-key/nosuchkey', staff);
    expect(answer.statusCode).toBe(404);
    const requestId = String(answer.headers['x-request-id']);
    expect(requestId).toMatch(uuid);
    const lines = linesOf(requestId);
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    expect(t.logs.lines.filter((line) => line.req !== undefined || line.res !== undefined)).toEqual(lines);
  });

  it('keeps a sane incoming id and replaces one that is not', async () => {
    const kept = await t.call('GET', '/livez', { headers: { 'x-request-id': 'edge-7f3a.42' } });
    expect(kept.headers['x-request-id']).toBe('edge-7f3a.42');
    expect(linesOf('edge-7f3a.42')).toHaveLength(2);
    const replaced = await t.call('GET', '/livez', { headers: { 'x-request-id': 'a forged "id"' } });
    expect(replaced.headers['x-request-id']).toMatch(uuid);
  });

  it('reaches the subgraph: its context, the services it calls and the lines it logs carry the id of the HTTP request', async () => {
    t.logs.lines.length = 0;
    const seen: { context: string | null; service: string | undefined }[] = [];
    const resolver = jest.spyOn(OrganizationResolver.prototype, 'organizations').mockImplementation(function (this: OrganizationResolver, ...args) {
      const context = args[1] as GraphqlContext;
      return Promise.resolve().then(() => {
        seen.push({ context: context.requestId, service: currentRequestId() });
        throw new Error('the database went away');
      });
    });
    try {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { cookie: staff, 'content-type': 'application/json', 'x-request-id': 'trace-0042' },
        payload: { query: 'query Organizations { organizations { rows { name } } }', operationName: 'Organizations' },
      });
      expect(answer.headers['x-request-id']).toBe('trace-0042');
      expect(answer.json()).toMatchObject({ errors: [{ extensions: { code: 'internal_server_error' } }] });
    } finally {
      resolver.mockRestore();
    }
    expect(seen).toEqual([{ context: 'trace-0042', service: 'trace-0042' }]);
    const logged = t.logs.lines.find((line) => line.msg === 'unexpected error in a GraphQL resolver');
    expect(logged).toMatchObject({ reqId: 'trace-0042', subgraph: 'identity', field: 'Query.organizations' });
    // The request's own logger names the id once: a line never carries two.
    expect(linesOf('trace-0042').map((line) => line.msg)).toEqual(['incoming request', 'unexpected error in a GraphQL resolver', 'request completed']);
  });

  it('is not made up outside a request', () => {
    expect(currentRequestId()).toBeUndefined();
  });
});
