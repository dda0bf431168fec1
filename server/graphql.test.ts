import Fastify, { type FastifyInstance } from 'fastify';
import { providerOrganizationId } from '../contracts/limits';
import { anonymousActor, systemActor, type Actor } from '../graph/common/context';
import { sessionCookieName } from '../graph/identity/services/session.service';
import { customerActor, staffActor, testGraph, type TestGraph } from '../test-support/graphql';
import { buildApp } from './app';
import { registerGraphql } from './graphql';
import './request-context';

const csrfMessage =
  "This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a 'content-type' header (with a type that is not one of application/x-www-form-urlencoded, multipart/form-data, text/plain) or provide a non-empty value for one of the following headers: x-apollo-operation-name, apollo-require-preflight\n";

interface Answer {
  statusCode: number;
  headers: Headers;
  body: unknown;
}

/** One real HTTP request to the test server. */
async function send(base: string, method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}, payload?: unknown): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { statusCode: response.status, headers: response.headers, body: JSON.parse(await response.text()) as unknown };
}

describe('GET and POST /graphql', () => {
  let t: TestGraph;
  let app: FastifyInstance;
  let base = '';
  const actors: Record<string, Actor> = { staff: staffActor(), customer: customerActor(1, ['customer.read']) };

  beforeAll(async () => {
    t = await testGraph();
    app = Fastify();
    app.decorateRequest('actor', null as unknown as Actor);
    // Stands in for the app's authentication hook: the actor named by a test header.
    app.addHook('onRequest', async (request) => {
      const name = request.headers['x-test-actor'];
      request.actor = (typeof name === 'string' ? actors[name] : undefined) ?? anonymousActor;
    });
    await registerGraphql(app, { server: t.graphql.server, services: t.services });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('answers a POST with the actor the request was authenticated as', async () => {
    const response = await send(base, 'POST', '/graphql', { 'x-test-actor': 'staff' }, { query: 'query Me { me { kind name rights } }', operationName: 'Me' });
    expect(response.statusCode).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({ data: { me: { kind: 'USER', name: 'Ops', rights: ['GRIDPORT_OPS'] } } });
  });

  it('answers me as null for an anonymous request', async () => {
    const response = await send(base, 'POST', '/graphql', {}, { query: '{ me { name } }' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({ data: { me: null } });
  });

  it('passes variables through to the resolvers', async () => {
    const hashId = t.hashIds.encode('organization', 1);
    const response = await send(
      base,
      'POST',
      '/graphql',
      { 'x-test-actor': 'customer' },
      {
        query: 'query($hashId: ID!) { organization(hashId: $hashId) { name isProvider } }',
        variables: { hashId },
      },
    );
    expect(response.body).toEqual({ data: { organization: { name: 'Gridport', isProvider: true } } });
  });

  it('answers a GET query that carries the preflight header', async () => {
    const response = await send(base, 'GET', `/graphql?query=${encodeURIComponent('{ me { name } }')}`, {
      'apollo-require-preflight': 'true',
      'x-test-actor': 'staff',
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({ data: { me: { name: 'Ops' } } });
  });

  it('refuses a GET without the preflight header as a possible CSRF with payload_invalid', async () => {
    const response = await send(base, 'GET', `/graphql?query=${encodeURIComponent('{ me { name } }')}`, { 'x-test-actor': 'staff' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({ errors: [{ message: csrfMessage, extensions: { code: 'payload_invalid' } }] });
  });

  it('refuses a mutation over GET with 405 and payload_invalid', async () => {
    const mutation = 'mutation { createOrganization(input: { name: "X", type: INSTALLER }) { hashId } }';
    const response = await send(base, 'GET', `/graphql?query=${encodeURIComponent(mutation)}`, {
      'apollo-require-preflight': 'true',
      'x-test-actor': 'staff',
    });
    expect(response.statusCode).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.body).toEqual({
      errors: [{ message: 'GET requests only support query operations, not mutation operations', extensions: { code: 'payload_invalid' } }],
    });
  });

  it('answers a syntax error with 400 and payload_invalid', async () => {
    const response = await send(base, 'POST', '/graphql', {}, { query: '{ me { name }' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toEqual({
      errors: [{ message: 'Syntax Error: Expected Name, found <EOF>.', locations: [{ line: 1, column: 14 }], extensions: { code: 'payload_invalid' } }],
    });
  });

  it('answers a refused operation with 200 and its catalogue key, as GraphQL does', async () => {
    const response = await send(
      base,
      'POST',
      '/graphql',
      { 'x-test-actor': 'customer' },
      {
        query: 'mutation { createOrganization(input: { name: "X", type: INSTALLER }) { hashId } }',
      },
    );
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({
      data: null,
      errors: [
        {
          message: 'You may not do this.',
          path: ['createOrganization'],
          extensions: { code: 'forbidden', details: { required: ['gridport.ops', 'gridport.developer', 'gridport.sales'] } },
        },
      ],
    });
  });
});

describe('/graphql in the Gridport app', () => {
  let t: TestGraph;
  let app: FastifyInstance;
  let base = '';

  beforeAll(async () => {
    t = await testGraph();
    app = await buildApp({
      services: t.services,
      log: t.logs.log,
      version: 'test',
      databaseAnswers: async () => true,
      register: (instance) => registerGraphql(instance, { server: t.graphql.server, services: t.services }),
    });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('acts as the user of a console session cookie', async () => {
    const user = await t.services.users.create(systemActor('test'), {
      organizationHashId: t.hashIds.encode('organization', providerOrganizationId),
      name: 'Session User',
      email: 'session-user@example.com',
      rights: ['gridport.sales'],
    });
    const userId = t.hashIds.decode('user', user.hashId);
    if (userId === null) {
      throw new Error('a created user hash id that does not decode');
    }
    const session = await t.services.sessions.mint(userId, 'test');
    const response = await send(
      base,
      'POST',
      '/graphql',
      { cookie: `${sessionCookieName}=${session.token}` },
      {
        query: '{ me { kind name rights organization { isProvider } } }',
      },
    );
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual({ data: { me: { kind: 'USER', name: 'Session User', rights: ['GRIDPORT_SALES'], organization: { isProvider: true } } } });
  });

  it('answers me as null without a session', async () => {
    const response = await send(base, 'POST', '/graphql', {}, { query: '{ me { name } }' });
    expect(response.body).toEqual({ data: { me: null } });
  });

  it("leaves a body that is not JSON to the app's own answer, 400 payload_not_json", async () => {
    const response = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{ "query": ' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ key: 'payload_not_json' });
  });
});
