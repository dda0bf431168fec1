import fc from 'fast-check';
import {
  getNamedType,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  isLeafType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { errorCatalogue, isErrorKey } from '../contracts/errors';
import { providerOrganizationId } from '../contracts/limits';
import { staffRights } from '../contracts/rights';
import { jsonLimits } from '../contracts/validation';
import { systemActor } from '../graph/common/context';
import type { Services } from '../graph/services';
import { sessionCookieName } from '../graph/identity/services/session.service';

/**
 * A property-based fuzz of the HTTP surface (issue 14, "Keep it fixed"): every REST operation
 * of the OpenAPI document and every root field of the GraphQL schema, with generated path
 * parameters (long ones too), query strings (repeated parameters, hostile names), bodies and
 * variables (wrong types, keys like `constructor`, nesting around the depth bound), from a
 * caller of each kind. What must hold for every answer: it comes (no hang), it is not 500 or
 * 499, and an error carries a catalogue key with its own status. server/fuzz.test.ts runs it in
 * the test suite, briefly; `npm run bench -- fuzz` runs it longer.
 */

export const sessionKinds = ['none', 'customerUser', 'staff', 'customerApiKey', 'providerApiKey'] as const;
export type SessionKind = (typeof sessionKinds)[number];
export type SessionHeaders = Record<string, string>;

export interface FuzzCallers {
  /** The headers of a caller of this kind; console sessions are fresh for each request, so a sign-out met on the way ends only its own. */
  headers(kind: SessionKind): Promise<SessionHeaders>;
  /** Hash ids that name real rows, tried as path parameters and arguments beside generated ones. */
  knownIds: string[];
}

/**
 * A caller of each kind, each with every right of its kind: a customer user (customer.write) of
 * a new customer organisation, a staff user with every staff right, an API key of that
 * organisation, and a provider API key with every staff right.
 */
export async function fuzzCallers(services: Services, customerOrganizationHashId: string): Promise<FuzzCallers> {
  const providerHashId = services.hashIds.encode('organization', providerOrganizationId);
  const stamp = `${Date.now()}-${Math.round(Math.random() * 1e6)}`;
  const userId = async (
    organizationHashId: string,
    rights: readonly (typeof staffRights)[number][] | readonly ['customer.write'],
    name: string,
  ): Promise<number> => {
    const user = await services.users.create(systemActor('fuzz'), {
      organizationHashId,
      name,
      email: `${name.toLowerCase().replace(/\W+/g, '-')}-${stamp}@fuzz.example`,
      rights: [...rights],
    });
    const id = services.hashIds.decode('user', user.hashId);
    if (id === null) {
      throw new Error('a created user whose hash id does not decode');
    }
    return id;
  };
  const customerUser = await userId(customerOrganizationHashId, ['customer.write'], 'Fuzz Customer');
  const staffUser = await userId(providerHashId, staffRights, 'Fuzz Staff');
  const customerKey = await services.apiKeys.create(systemActor('fuzz'), {
    organizationHashId: customerOrganizationHashId,
    name: 'Fuzz customer key',
    ipRanges: [],
    publicKey: null,
  });
  const providerKey = await services.apiKeys.create(
    systemActor('fuzz'),
    { organizationHashId: providerHashId, name: 'Fuzz provider key', ipRanges: [], publicKey: null },
    staffRights,
  );
  const cookie = async (id: number): Promise<SessionHeaders> => ({ cookie: `${sessionCookieName}=${(await services.sessions.mint(id, 'fuzz')).token}` });
  return {
    knownIds: [customerOrganizationHashId, providerHashId],
    headers: async (kind): Promise<SessionHeaders> => {
      switch (kind) {
        case 'none':
          return {};
        case 'customerUser':
          return cookie(customerUser);
        case 'staff':
          return cookie(staffUser);
        case 'customerApiKey':
          return { authorization: `Bearer ${customerKey.apiKey}` };
        case 'providerApiKey':
          return { authorization: `Bearer ${providerKey.apiKey}` };
      }
    },
  };
}

export interface FuzzOptions {
  baseUrl: string;
  callers: FuzzCallers;
  /** The composed API schema (graph/gateway.ts composeGraph). */
  schema: GraphQLSchema;
  seed: number;
  runsPerOperation: number;
  runsPerField: number;
  /** An answer that takes longer is a hang. */
  requestTimeoutMs: number;
}

export interface FuzzCounts {
  seed: number;
  operations: number;
  rootFields: number;
  restRequests: number;
  graphqlRequests: number;
  /** Answers by HTTP status. */
  statuses: Record<string, number>;
}

interface OpenApiOperation {
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
  parameters?: { in: string; name: string }[];
}

interface Exchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** Text that is nested `depth` arrays deep. */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const hostileKeys = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'prototype'] as const;
const hostileObject = fc
  .constantFrom(...hostileKeys)
  .chain((key) => fc.jsonValue({ maxDepth: 2 }).map((value) => `{${JSON.stringify(key)}:${JSON.stringify(value ?? null)}}`));
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '0', '-1', '1e308', 'null', 'true', '2026-01-01T00:00:00Z', '0000-01-01T00:00:00Z'),
);

function pathParameter(knownIds: string[]) {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...knownIds, 'x', 'constructor', '__proto__') },
    { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
    { weight: 2, arbitrary: fc.integer({ min: 65, max: 700 }).map((length) => 'a'.repeat(length)) },
    { weight: 1, arbitrary: fc.constant('b'.repeat(20_000)) },
  );
}

/** A query string over the declared parameters (some repeated) and some that are not declared. */
function queryString(names: string[]) {
  const value = fc.oneof(text, fc.integer({ min: -10, max: 1000 }).map(String));
  const declared = names.map((name) =>
    fc
      .option(fc.oneof({ weight: 3, arbitrary: value.map((one) => [one]) }, { weight: 1, arbitrary: fc.array(value, { minLength: 2, maxLength: 3 }) }), {
        nil: undefined,
      })
      .map((values) => ({ name, values })),
  );
  const extra = fc.array(
    fc.record({
      name: fc.oneof(fc.constantFrom(...hostileKeys), fc.string({ minLength: 1, maxLength: 12 })),
      values: fc.array(value, { minLength: 1, maxLength: 2 }),
    }),
    { maxLength: 2 },
  );
  return fc
    .tuple(fc.tuple(...declared), extra)
    .map(([given, more]) =>
      [...given, ...more]
        .flatMap((entry) => (entry && entry.values ? entry.values.map((one) => `${encodeURIComponent(entry.name)}=${encodeURIComponent(one)}`) : []))
        .join('&'),
    );
}

/** A body for a route: its declared properties with any values, any JSON, hostile keys, deep nesting, or not JSON at all. */
function requestBody(properties: string[]) {
  const declared =
    properties.length > 0
      ? fc
          .record(Object.fromEntries(properties.map((name) => [name, fc.jsonValue({ maxDepth: 3 })])), { requiredKeys: [] })
          .map((value) => JSON.stringify(value))
      : fc.constant('{}');
  return fc.oneof(
    { weight: 4, arbitrary: declared },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: hostileObject },
    { weight: 1, arbitrary: fc.integer({ min: jsonLimits.maxDepth - 2, max: jsonLimits.maxDepth + 2 }).map(nested) },
    { weight: 1, arbitrary: fc.constant(nested(5000)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":', 'null', '"text"') },
  );
}

/** What must hold of every answer; answers the reason it does not, or null. */
function violation(status: number, contentType: string, body: string, graphql: boolean): string | null {
  if (status === 500 || status === 499) {
    return `status ${status}`;
  }
  if (status < 400 && !(graphql && contentType.startsWith('application/json'))) {
    return null;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `an answer that is not JSON: ${body.slice(0, 200)}`;
  }
  const shaped = parsed as { key?: unknown; errors?: { extensions?: { code?: unknown } }[] };
  if (graphql && shaped.key === undefined) {
    // A GraphQL answer: each error carries a catalogue code, none internal.
    const codes = (shaped.errors ?? []).map((error) => error.extensions?.code);
    const bad = codes.filter((code) => !isErrorKey(code) || code === 'internal_server_error');
    return bad.length > 0 ? `GraphQL errors without a catalogue code or internal: ${JSON.stringify(shaped.errors).slice(0, 400)}` : null;
  }
  if (!isErrorKey(shaped.key)) {
    return `an error without a catalogue key: ${body.slice(0, 200)}`;
  }
  if (errorCatalogue[shaped.key].status !== status) {
    return `key ${shaped.key} answered with status ${status}, not ${errorCatalogue[shaped.key].status}`;
  }
  return null;
}

async function exchange(options: FuzzOptions, counts: FuzzCounts, request: Exchange, graphql: boolean): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${options.baseUrl}${request.url}`, {
      method: request.method,
      headers: request.headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.requestTimeoutMs),
      ...(request.body === undefined ? {} : { body: request.body }),
    });
  } catch (error) {
    throw new Error(`${request.method} ${request.url.slice(0, 200)}: no answer (${error instanceof Error ? error.message : String(error)})`);
  }
  counts.statuses[response.status] = (counts.statuses[response.status] ?? 0) + 1;
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/event-stream')) {
    // A live stream that was opened: it answered; it is not read to its end.
    await response.body?.cancel();
    return;
  }
  const body = await response.text();
  const reason = violation(response.status, contentType, body, graphql);
  if (reason !== null) {
    throw new Error(`${request.method} ${request.url.slice(0, 200)} (body ${(request.body ?? '').slice(0, 200)}): ${reason}`);
  }
}

async function fuzzRest(options: FuzzOptions, counts: FuzzCounts): Promise<void> {
  const document = (await (await fetch(`${options.baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, OpenApiOperation>> };
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
  counts.operations = operations.length;
  for (const [index, { method, path, operation }] of operations.entries()) {
    const parameterNames = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
    const queryNames = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
    const properties = Object.keys(operation.requestBody?.content?.['application/json']?.schema?.properties ?? {});
    const takesBody = operation.requestBody !== undefined;
    const request = fc.record({
      kind: fc.constantFrom(...sessionKinds),
      parameters: fc.tuple(...parameterNames.map(() => pathParameter(options.callers.knownIds))),
      query: queryString(queryNames),
      body: takesBody ? requestBody(properties) : fc.constant(undefined),
      contentType: fc.oneof(
        { weight: 9, arbitrary: fc.constant('application/json') },
        { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1') },
      ),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ kind, parameters, query, body, contentType }) => {
        let url = path;
        parameters.forEach((value, at) => {
          url = url.replace(`{${parameterNames[at] ?? ''}}`, encodeURIComponent(value));
        });
        const headers = { ...(await options.callers.headers(kind)), ...(body === undefined ? {} : { 'content-type': contentType }) };
        counts.restRequests += 1;
        await exchange(options, counts, { method, url: query === '' ? url : `${url}?${query}`, headers, ...(body === undefined ? {} : { body }) }, false);
      }),
      { seed: options.seed + index, numRuns: options.runsPerOperation, endOnFailure: true, includeErrorInReport: true },
    );
  }
}

/** Values of a GraphQL input type: mostly of the type, sometimes any JSON or a hostile object. */
function inputValue(type: GraphQLInputType, knownIds: string[], depth = 0): fc.Arbitrary<unknown> {
  const wrong = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    hostileObject.map((json) => JSON.parse(json) as unknown),
  );
  const typed = ((): fc.Arbitrary<unknown> => {
    if (type instanceof GraphQLNonNull) {
      return inputValue(type.ofType, knownIds, depth);
    }
    if (type instanceof GraphQLList) {
      return depth > 3 ? fc.constant([]) : fc.array(inputValue(type.ofType, knownIds, depth + 1), { maxLength: 3 });
    }
    if (type instanceof GraphQLEnumType) {
      return fc.constantFrom(...type.getValues().map((value) => value.name));
    }
    if (type instanceof GraphQLInputObjectType) {
      if (depth > 3) {
        return fc.constant({});
      }
      const fields = Object.values(type.getFields());
      return fc.record(Object.fromEntries(fields.map((field) => [field.name, inputValue(field.type, knownIds, depth + 1)])), {
        requiredKeys: fields.filter((field) => field.type instanceof GraphQLNonNull).map((field) => field.name),
      });
    }
    switch (type.name) {
      case 'Int':
        return fc.oneof(fc.integer({ min: -5, max: 1000 }), fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 1));
      case 'Float':
        return fc.oneof(fc.double({ noNaN: true }), fc.constantFrom(1e308, -1e308));
      case 'Boolean':
        return fc.boolean();
      case 'ID':
        return fc.oneof(
          fc.constantFrom(...knownIds),
          fc.string({ maxLength: 70 }),
          fc.integer({ min: 65, max: 300 }).map((length) => 'a'.repeat(length)),
        );
      case 'DateTimeISO':
      case 'DateTime':
        return fc.oneof(
          fc.date({ min: new Date(-62198755200000), max: new Date(8640000000000000), noInvalidDate: true }).map((date) => date.toISOString()),
          fc.constantFrom('0000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '2026-13-01T00:00:00Z'),
        );
      case 'JSON':
      case 'JSONObject':
        return fc.oneof(
          fc.jsonValue({ maxDepth: 4 }),
          fc.integer({ min: jsonLimits.maxDepth - 2, max: jsonLimits.maxDepth + 2 }).map((levels) => JSON.parse(nested(levels)) as unknown),
        );
      default:
        return text;
    }
  })();
  return fc.oneof({ weight: 5, arbitrary: typed }, { weight: 1, arbitrary: wrong });
}

async function fuzzGraphql(options: FuzzOptions, counts: FuzzCounts): Promise<void> {
  const roots = [
    ['query', options.schema.getQueryType()],
    ['mutation', options.schema.getMutationType()],
  ] as const;
  const fields = roots.flatMap(([operation, root]: readonly [string, GraphQLObjectType | null | undefined]) =>
    root ? Object.values(root.getFields()).map((field: GraphQLField<unknown, unknown>) => ({ operation, field })) : [],
  );
  counts.rootFields = fields.length;
  for (const [index, { operation, field }] of fields.entries()) {
    const definitions = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
    const call = field.args.length > 0 ? `(${field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ')})` : '';
    const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
    const query = `${operation} Fuzz${definitions === '' ? '' : `(${definitions})`} { ${field.name}${call}${selection} }`;
    const variables = fc.record(Object.fromEntries(field.args.map((arg) => [arg.name, inputValue(arg.type, options.callers.knownIds)])), { requiredKeys: [] });
    const request = fc.record({
      kind: fc.constantFrom(...sessionKinds),
      variables,
      operationName: fc.oneof({ weight: 8, arbitrary: fc.constant('Fuzz') }, { weight: 1, arbitrary: fc.constantFrom(undefined, 'Other') }),
      hostile: fc.oneof(
        { weight: 8, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: hostileObject },
        { weight: 1, arbitrary: fc.constant(nested(5000)) },
      ),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ kind, variables: values, operationName, hostile }) => {
        const headers = { ...(await options.callers.headers(kind)), 'content-type': 'application/json' };
        const body =
          hostile === null
            ? JSON.stringify({ query, variables: values, operationName })
            : `{"query":${JSON.stringify(query)},"variables":{"input":${hostile}}}`;
        counts.graphqlRequests += 1;
        await exchange(options, counts, { method: 'POST', url: '/graphql', headers, body }, true);
      }),
      { seed: options.seed + 10_000 + index, numRuns: options.runsPerField, endOnFailure: true, includeErrorInReport: true },
    );
  }
}

/** Runs the fuzz; throws (with fast-check's seed and counterexample) at the first answer that breaks a rule. */
export async function fuzzHttp(options: FuzzOptions): Promise<FuzzCounts> {
  const counts: FuzzCounts = { seed: options.seed, operations: 0, rootFields: 0, restRequests: 0, graphqlRequests: 0, statuses: {} };
  await fuzzRest(options, counts);
  await fuzzGraphql(options, counts);
  return counts;
}

/** One line saying what a run did. */
export function fuzzSummary(counts: FuzzCounts): string {
  const statuses = Object.entries(counts.statuses)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  return `HTTP fuzz, seed ${counts.seed}: ${counts.restRequests} requests over ${counts.operations} REST operations, ${counts.graphqlRequests} over ${counts.rootFields} GraphQL root fields; answers by status ${statuses}`;
}
