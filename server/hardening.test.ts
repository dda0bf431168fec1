import net from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { errorCatalogue, isErrorKey } from '../contracts/errors';
import { jsonLimits } from '../contracts/validation';
import { testApp, type TestApp } from '../test-support/app';
import { freshDir, problemsOf } from '../test-support/config';
import { customerActor, staffActor, testGraph } from '../test-support/graphql';
import { fuzzCallers, sessionKinds, type SessionHeaders, type SessionKind } from '../bench/fuzz';
import { anOrganization } from '../test-support/factories';
import { loadConfig } from './config';

/** What an outside probe broke (issue 14), each sent as the probe sent it. */

interface OpenApiOperation {
  requestBody?: unknown;
  parameters?: { in: string; name: string; schema?: { type?: string } }[];
}
type OpenApiPaths = Record<string, Record<string, OpenApiOperation>>;

interface Answer {
  status: number;
  body: unknown;
}

/** What a raw socket received until the server closed it, or `null` if it was still open when the test gave up. */
function rawExchange(port: number, text: string, giveUpMs = 10_000): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, giveUpMs);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve(received);
    });
    socket.write(text);
  });
}

function statusAndBody(received: string): Answer {
  const [head = '', body = ''] = received.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body: body === '' ? null : (JSON.parse(body) as unknown) };
}

const keyIssue = (key: string, path = key) => ({ path, message: `the key "${key}" is not allowed (every JavaScript object has a property of that name)` });
const deepArrays = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const deepIssue = { path: '[0]'.repeat(jsonLimits.maxDepth), message: `the input nests deeper than ${jsonLimits.maxDepth} levels` };

describe('a request that does not arrive in time', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await testApp({ http: { headersTimeoutMs: 200, requestTimeoutMs: 400, keepAliveTimeoutMs: 1000 } });
    port = Number(new URL(await t.listen()).port);
  });

  afterAll(async () => {
    await t.close();
  });

  it('is answered 400 payload_not_readable and closed when its body stops short of its Content-Length (login, no credentials)', async () => {
    const received = await rawExchange(
      port,
      'POST /console-shared/v1/login HTTP/1.1\r\nHost: gridport\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"email":"',
    );
    expect(received).not.toBeNull();
    expect(statusAndBody(received ?? '')).toEqual({
      status: 400,
      body: { key: 'payload_not_readable', details: { reason: 'the request did not arrive within 0.4 s' } },
    });
    expect(received).toMatch(/\r\nConnection: close\r\n/);
    expect(t.logs.lines).toContainEqual(
      expect.objectContaining({ level: 40, statusCode: 400, key: 'payload_not_readable', reason: 'the request did not arrive within 0.4 s' }),
    );
    expect(t.logs.lines.filter((line) => line.statusCode === 499)).toEqual([]);
  });

  it('is answered 400 payload_not_readable and closed when it stalls in its headers', async () => {
    const received = await rawExchange(port, 'POST /console-shared/v1/login HTTP/1.1\r\nHost: gridport\r\nContent-Ty');
    expect(statusAndBody(received ?? '')).toEqual({
      status: 400,
      body: { key: 'payload_not_readable', details: { reason: 'the request headers did not arrive within 0.2 s' } },
    });
  });

  it('closes a connection that never sends a byte', async () => {
    expect(await rawExchange(port, '')).not.toBeNull();
  });

  it('answers what is not HTTP with 400 payload_not_readable', async () => {
    const received = await rawExchange(port, 'HELLO THERE\r\n\r\n');
    expect(statusAndBody(received ?? '')).toEqual({
      status: 400,
      body: { key: 'payload_not_readable', details: { reason: 'the request is not HTTP/1.1 this server reads (HPE_INVALID_METHOD)' } },
    });
  });

  it('still serves a request that arrives within the bounds', async () => {
    const received = await rawExchange(port, 'GET /v1/health HTTP/1.1\r\nHost: gridport\r\nConnection: close\r\n\r\n');
    expect(statusAndBody(received ?? '').status).toBe(204);
  });
});

describe('the bounds in the configuration', () => {
  it('are read from HTTP_HEADERS_TIMEOUT_SECONDS, HTTP_REQUEST_TIMEOUT_SECONDS and HTTP_KEEP_ALIVE_TIMEOUT_SECONDS, in seconds', () => {
    expect(loadConfig({}, freshDir()).http).toEqual({ headersTimeoutMs: 20_000, requestTimeoutMs: 120_000, keepAliveTimeoutMs: 72_000 });
    const config = loadConfig({ HTTP_HEADERS_TIMEOUT_SECONDS: '5', HTTP_REQUEST_TIMEOUT_SECONDS: '30', HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '65' }, freshDir());
    expect(config.http).toEqual({ headersTimeoutMs: 5000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 65_000 });
  });

  it('refuse a headers bound longer than the request bound, and values that are not whole seconds', () => {
    expect(problemsOf({ HTTP_HEADERS_TIMEOUT_SECONDS: '60', HTTP_REQUEST_TIMEOUT_SECONDS: '30' })).toEqual([
      'HTTP_HEADERS_TIMEOUT_SECONDS (60) must be at most HTTP_REQUEST_TIMEOUT_SECONDS (30)',
    ]);
    expect(problemsOf({ HTTP_REQUEST_TIMEOUT_SECONDS: '0.5', HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: 'long' })).toEqual([
      'HTTP_REQUEST_TIMEOUT_SECONDS must be a whole number of seconds',
      'HTTP_REQUEST_TIMEOUT_SECONDS must be at least 1',
      'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS must be a number of seconds',
    ]);
  });
});

describe('an unexpected error after the body was read', () => {
  it('is answered 500 internal_server_error and logged with its stack, not 499', async () => {
    const t = await testApp({
      register: (app) => {
        app.post('/test/explode-after-body', async () => {
          throw new TypeError('a bug met after the body was read');
        });
      },
    });
    try {
      const base = await t.listen();
      const response = await fetch(`${base}/test/explode-after-body`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"a body"}',
      });
      expect({ status: response.status, body: (await response.json()) as unknown }).toEqual({ status: 500, body: { key: 'internal_server_error' } });
      const logged = t.logs.lines.find((line) => line.msg === 'unexpected error');
      expect(logged).toMatchObject({
        level: 50,
        err: {
          type: 'TypeError',
          message: 'a bug met after the body was read',
          stack: expect.stringContaining('TypeError: a bug met after the body was read'),
        },
      });
      expect(t.logs.lines.filter((line) => line.statusCode === 499)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('input that used to reach code that throws', () => {
  let t: TestApp;
  let base: string;
  let sessions: Record<SessionKind, SessionHeaders>;
  let paths: OpenApiPaths;

  beforeAll(async () => {
    t = await testApp({}, { graphql: true });
    base = await t.listen();
    // A caller of each kind, with every right of its kind (bench/fuzz.ts, as the fuzz uses them).
    const callers = await fuzzCallers(t.services, (await anOrganization(t.services, { name: 'Every Caller Kind BV' })).hashId);
    sessions = Object.fromEntries(await Promise.all(sessionKinds.map(async (kind) => [kind, await callers.headers(kind)] as const))) as Record<
      SessionKind,
      SessionHeaders
    >;
    paths = ((await (await fetch(`${base}/openapi.json`)).json()) as { paths: OpenApiPaths }).paths;
  });

  afterAll(async () => {
    await t.close();
  });

  /** A real HTTP request (the probe's 499s appeared on real sockets only). */
  async function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
    const response = await fetch(`${base}${path}`, {
      method: method.toUpperCase(),
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
  }

  const concrete = (template: string) => template.replace(/\{[^}]+\}/g, 'x');

  it.each([
    ['constructor', '{"constructor":{"name":"x"}}', keyIssue('constructor')],
    ['toString', '{"toString":"x"}', keyIssue('toString')],
    ['__proto__', '{"__proto__":{"isAdmin":true}}', keyIssue('__proto__')],
    ['arrays nested 5,000 deep', deepArrays, deepIssue],
  ])('answers a body with %s on each of the 47 body routes with 400 payload_invalid, whoever calls', async (_name, body, issue) => {
    const bodyRoutes = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.requestBody !== undefined)
        .map(([method]) => ({ method, path })),
    );
    expect(bodyRoutes).toHaveLength(47);
    const reachedTheBody: string[] = [];
    for (const { method, path } of bodyRoutes) {
      for (const kind of sessionKinds) {
        const answer = await send(method, concrete(path), sessions[kind], body);
        const key = (answer.body as { key?: unknown } | null)?.key;
        // Who may call is settled first (401, 403); anyone who may gets payload_invalid, never 500 or 499.
        expect({ route: `${method} ${path}`, kind, status: answer.status, key: isErrorKey(key) ? key : answer.body }).toEqual({
          route: `${method} ${path}`,
          kind,
          status: isErrorKey(key) ? errorCatalogue[key].status : -1,
          key: expect.stringMatching(/^(unauthorized|forbidden|payload_invalid)$/),
        });
        if (key === 'payload_invalid') {
          expect(answer.body).toEqual({ key: 'payload_invalid', details: [issue] });
          reachedTheBody.push(`${method} ${path}`);
        }
      }
    }
    expect(new Set(reachedTheBody).size).toBe(47);
    expect(reachedTheBody).toContain('post /console-shared/v1/login');
    expect(t.logs.lines.filter((line) => line.statusCode === 499 || line.msg === 'unexpected error')).toEqual([]);
  });

  /** Bodies that pass their schema, for the routes that take a query beside a body (a body is validated before the query). */
  const validBodies: Record<string, string> = {
    'post /console/v1/password-reset/reset': JSON.stringify({ password: 'a password long enough', code: 'code' }),
    'post /console/v1/user-invite/{hashId}': JSON.stringify({ name: 'Invited', password: 'a password long enough', twoFactorCode: '123456' }),
  };

  it('answers a repeated query parameter with 400 query_invalid naming it, on every route and parameter but lists', async () => {
    // A list parameter (the users lists' hashIds) is given once per item: repeating it is the point.
    const pairs = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'query' && parameter.schema?.type !== 'array')
          .map((parameter) => ({
            method,
            path,
            name: parameter.name,
            body: operation.requestBody === undefined ? undefined : (validBodies[`${method} ${path}`] ?? '{}'),
          })),
      ),
    );
    const refused: string[] = [];
    for (const { method, path, name, body } of pairs) {
      for (const kind of sessionKinds) {
        const answer = await send(method, `${concrete(path)}?${name}=a&${name}=b`, sessions[kind], body);
        const key = (answer.body as { key?: unknown } | null)?.key;
        const pair = `${method} ${path} ${name}`;
        expect({ pair, kind, known: isErrorKey(key) && answer.status === errorCatalogue[key].status, below500: answer.status < 500 }).toEqual({
          pair,
          kind,
          known: true,
          below500: true,
        });
        if (key === 'query_invalid') {
          expect(answer.body).toEqual({ key: 'query_invalid', details: expect.arrayContaining([{ path: name, message: `${name} must be given once` }]) });
          refused.push(`${method} ${path} ${name}`);
        }
      }
    }
    // Every pair is refused for some caller who may call the route (the saml and dev-idp redirects read their parameters themselves).
    const unrefused = pairs.map(({ method, path, name }) => `${method} ${path} ${name}`).filter((pair) => !refused.includes(pair));
    expect(unrefused).toEqual([]);
    expect(refused.some((pair) => pair === 'get /console-admin/v1/device filter')).toBe(true);
  });

  it("answers an object or a list where a body wants text with 400 payload_invalid naming the field (yup's trim threw a TypeError)", async () => {
    const answer = await send(
      'POST',
      '/console/v1/password-reset/reset?email=someone@example.com',
      {},
      '{"password":"a password long enough","code":{"a":1},"recoveryCode":[]}',
    );
    expect(answer).toEqual({
      status: 400,
      body: {
        key: 'payload_invalid',
        details: [
          { path: 'code', message: 'code must be a string' },
          { path: 'recoveryCode', message: 'recoveryCode must be a string' },
        ],
      },
    });
  });

  it('answers a path parameter over 100 characters with 400 params_invalid, as one over 64, and a request head over 16 KB with payload_not_readable', async () => {
    const staff = sessions.staff;
    expect(await send('GET', `/console-admin/v1/organization/${'a'.repeat(101)}`, staff)).toEqual({
      status: 400,
      body: { key: 'params_invalid', details: [{ path: 'hashId', message: 'hashId must be at most 64 characters' }] },
    });
    expect(await send('GET', `/console-admin/v1/organization/${'a'.repeat(5000)}`, staff)).toEqual({
      status: 400,
      body: { key: 'params_invalid', details: [{ path: 'hashId', message: 'hashId must be at most 64 characters' }] },
    });
    // Past the size of a request head, Node refuses the request before any route.
    expect(await send('GET', `/console-admin/v1/organization/${'a'.repeat(17_000)}`, staff)).toEqual({
      status: 400,
      body: { key: 'payload_not_readable', details: { reason: 'the request headers are larger than 16 KB' } },
    });
  });

  it('answers a GraphQL request whose operationName the document lacks with 400 payload_invalid', async () => {
    const answer = await send('POST', '/graphql', sessions.staff, JSON.stringify({ query: 'query Me { me { name } }', operationName: 'NotThere' }));
    expect(answer).toEqual({ status: 400, body: { errors: [{ message: 'Unknown operation named "NotThere".', extensions: { code: 'payload_invalid' } }] } });
    const twoWithoutName = await send('POST', '/graphql', sessions.staff, JSON.stringify({ query: 'query A { me { name } } query B { me { name } }' }));
    expect(twoWithoutName).toEqual({
      status: 400,
      body: { errors: [{ message: 'Must provide operation name if query contains multiple operations.', extensions: { code: 'payload_invalid' } }] },
    });
  });

  it('answers GraphQL variables with a key named constructor, or nested 5,000 deep, with 400 payload_invalid', async () => {
    const mutation = 'mutation($input: DeviceUpdateInput!) { updateDevice(hashId: "x", input: $input) { hashId } }';
    const hostile = await send('POST', '/graphql', sessions.staff, `{"query":${JSON.stringify(mutation)},"variables":{"input":{"constructor":{"name":"x"}}}}`);
    expect(hostile).toEqual({ status: 400, body: { key: 'payload_invalid', details: [keyIssue('constructor', 'variables.input.constructor')] } });
    const deep = await send('POST', '/graphql', sessions.staff, `{"query":${JSON.stringify(mutation)},"variables":{"input":${deepArrays}}}`);
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ key: 'payload_invalid', details: [{ message: `the input nests deeper than ${jsonLimits.maxDepth} levels` }] });
  });

  it.each([
    ['year 0', '0000-01-01T00:00:00Z', '0000-01-02T00:00:00Z'],
    ['year 275760', '+275760-09-12T00:00:00Z', '+275760-09-13T00:00:00Z'],
    ['1999', '1999-12-31T00:00:00Z', '1999-12-31T12:00:00Z'],
  ])('answers deviceMeasurements from %s with query_invalid or payload_invalid, not a database error', async (_name, from, to) => {
    const query =
      'query($from: DateTimeISO!, $to: DateTimeISO!) { deviceMeasurements(hashId: "x", field: "activePower", reportType: "meterPower", from: $from, to: $to) { at } }';
    const answer = await send('POST', '/graphql', sessions.staff, JSON.stringify({ query, variables: { from, to } }));
    const errors = (answer.body as { errors?: { message: string; extensions?: { code?: string; details?: unknown } }[] }).errors ?? [];
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      // A date graphql-scalars cannot read is payload_invalid (its variable); one it reads is held to the range of contracts/dates.ts.
      if (error.extensions?.code === 'payload_invalid') {
        expect(error.message).toMatch(/^Variable "\$(from|to)" got invalid value/);
        continue;
      }
      expect(error.extensions).toEqual({
        code: 'query_invalid',
        details: [
          { path: 'from', message: 'from must be from 2000-01-01T00:00:00.000Z up to (not including) 2100-01-01T00:00:00.000Z' },
          { path: 'to', message: 'to must be from 2000-01-01T00:00:00.000Z up to (not including) 2100-01-01T00:00:00.000Z' },
        ],
      });
    }
    expect(
      t.logs.lines.filter((line) => typeof line.msg === 'string' && /unexpected/.test(line.msg) && JSON.stringify(line).includes('deviceMeasurements')),
    ).toEqual([]);
  });

  describe('over graphql-ws', () => {
    const clients: Client[] = [];

    afterAll(async () => {
      await Promise.all(clients.map((client) => client.dispose()));
    });

    function client(headers: Record<string, string>): Client {
      class WithHeaders extends WebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols, { headers });
        }
      }
      const created = createClient({ url: `${base.replace('http', 'ws')}/graphql`, webSocketImpl: WithHeaders, retryAttempts: 0, lazy: true });
      clients.push(created);
      return created;
    }

    /** The one result (or the error) of a query or mutation. */
    function once(subscriber: Client, payload: { query: string; operationName?: string; variables?: Record<string, unknown> }): Promise<unknown> {
      return new Promise((resolve) => {
        const results: unknown[] = [];
        subscriber.subscribe(payload, {
          next: (value) => results.push(value),
          error: (error) => resolve({ error }),
          complete: () => resolve(results.length === 1 ? results[0] : results),
        });
      });
    }

    it("runs a query and a mutation sent over the socket as over HTTP, with the socket's actor", async () => {
      const staff = client(sessions.staff);
      expect(await once(staff, { query: '{ me { kind rights } }' })).toEqual({
        data: { me: { kind: 'USER', rights: ['GRIDPORT_ADMIN', 'GRIDPORT_OPS', 'GRIDPORT_DEVELOPER', 'GRIDPORT_SALES', 'GRIDPORT_EMPLOYEE'] } },
      });
      const created = (await once(staff, { query: 'mutation { createOrganization(input: { name: "Over The Socket BV", type: INSTALLER }) { name } }' })) as {
        data?: unknown;
      };
      expect(created).toEqual({ data: { createOrganization: { name: 'Over The Socket BV' } } });
      const customer = client(sessions.customerUser);
      expect(await once(customer, { query: 'mutation { createOrganization(input: { name: "Not Allowed BV", type: INSTALLER }) { name } }' })).toEqual({
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

    it('answers a request it cannot run with payload_invalid: a syntax error, an unknown field, an unknown operation name', async () => {
      const staff = client(sessions.staff);
      expect(await once(staff, { query: '{ me { name }' })).toEqual({
        error: [{ message: 'Syntax Error: Expected Name, found <EOF>.', locations: [{ line: 1, column: 14 }], extensions: { code: 'payload_invalid' } }],
      });
      expect(await once(staff, { query: '{ nothingHere }' })).toEqual({
        errors: [
          { message: 'Cannot query field "nothingHere" on type "Query".', locations: [{ line: 1, column: 3 }], extensions: { code: 'payload_invalid' } },
        ],
      });
      expect(await once(staff, { query: 'query Me { me { name } }', operationName: 'Other' })).toEqual({
        error: [{ message: 'Unknown operation named "Other".', extensions: { code: 'payload_invalid' } }],
      });
      expect(await once(staff, { query: 'subscription { devicePresence(hashId: "x") { nope } }' })).toEqual({
        error: [expect.objectContaining({ message: 'Cannot query field "nope" on type "DevicePresenceEvent".', extensions: { code: 'payload_invalid' } })],
      });
      expect(t.logs.lines.filter((line) => line.msg === 'a graphql-ws message failed' || line.msg === 'unexpected error in a GraphQL resolver')).toEqual([]);
    });
  });
});

describe('an operationName the document lacks, in production', () => {
  it('is payload_invalid there too', async () => {
    const graph = await testGraph('production');
    try {
      for (const actor of [staffActor(), customerActor(1)]) {
        const response = await graph.graphql.execute(actor, { query: 'query Me { me { name } }', operationName: 'Nope' });
        expect(response.http.status).toBe(400);
        expect(response.body).toEqual({
          kind: 'single',
          singleResult: { errors: [{ message: 'Unknown operation named "Nope".', extensions: { code: 'payload_invalid' } }] },
        });
      }
    } finally {
      await graph.close();
    }
  });
});
