import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { convertSchema } from '@sodaru/yup-to-json-schema';
import type * as yup from 'yup';
import { GridportError, type ErrorKey } from '../../contracts/errors';
import type { Right } from '../../contracts/rights';
import { validate } from '../../contracts/validation';
import type { Actor } from '../../graph/common/context';
import { requireRights } from '../../graph/common/context';
import type { Services } from '../../graph/services';
import '../request-context';

type AnySchema = yup.ObjectSchema<yup.AnyObject>;
type Out<S> = S extends yup.ISchema<infer T> ? T : undefined;

/** Who may call a route: anyone, or an actor with any of the listed rights. */
export type RouteAuth = 'public' | readonly Right[];

/** Kinds of actor a route serves: console users, API keys, or both. */
export type RouteActorKind = 'user' | 'apiKey';

export interface RouteInput<P, Q, B> {
  request: FastifyRequest;
  reply: FastifyReply;
  actor: Actor;
  services: Services;
  params: P;
  query: Q;
  body: B;
}

export interface RouteDefinition<PS extends AnySchema | undefined, QS extends AnySchema | undefined, BS extends AnySchema | undefined> {
  method: HTTPMethods;
  url: string;
  summary: string;
  tags: string[];
  auth: RouteAuth;
  /**
   * The kinds of actor the route serves (others are forbidden). Console routes (/console-*)
   * serve console sessions only (console.md section 6); other routes both, unless they say.
   */
  actors?: readonly RouteActorKind[];
  params?: PS;
  query?: QS;
  body?: BS;
  /** The status of a successful answer; 204 sends no body. */
  status?: 200 | 201 | 204;
  /** The shape of a successful answer, for the OpenAPI document. */
  response?: yup.ISchema<unknown>;
  /** The largest body this route reads, in bytes, where it differs from the app's (limits.payloadBytes). */
  bodyLimit?: number;
  /** Runs once the caller is let in and before the body is read (to refuse a body by its headers). */
  beforeBody?(request: FastifyRequest): Promise<void>;
  handler(input: RouteInput<Out<PS>, Out<QS>, Out<BS>>): Promise<unknown>;
}

const partKeys = { params: 'params_invalid', querystring: 'query_invalid', body: 'payload_invalid' } as const satisfies Record<string, ErrorKey>;
type Part = keyof typeof partKeys;

/** The yup schema of each route part, looked up by Fastify's validator compiler. */
const schemas = new Map<string, AnySchema>();

/** Who may call each route, by `METHOD url`: what the rights tests walk. */
export interface RouteAccess {
  method: string;
  url: string;
  auth: RouteAuth;
  actors: readonly RouteActorKind[];
}
export const routeAccess = new Map<string, RouteAccess>();
const partId = (method: string, url: string, part: string) => `${method} ${url} ${part}`;

/**
 * A schema the converter cannot describe (yup's lazy and mixed: the tagged unions of
 * contracts/device, a device config) comes out with an empty type list, which OpenAPI 3.0
 * refuses; it is shown as any value, with a description pointing to the rules.
 */
function openApiSafe(node: unknown): unknown {
  if (Array.isArray(node)) {
    return node.map(openApiSafe);
  }
  if (node === null || typeof node !== 'object') {
    return node;
  }
  const entries = Object.entries(node as Record<string, unknown>);
  const untyped = entries.some(([key, value]) => key === 'type' && Array.isArray(value) && value.length === 0);
  const safe = Object.fromEntries(
    entries.filter(([key, value]) => !(key === 'type' && Array.isArray(value) && value.length === 0)).map(([key, value]) => [key, openApiSafe(value)]),
  );
  return untyped && safe.description === undefined
    ? { ...safe, description: 'Any JSON value; its rules are the shared schemas of contracts/ (errors name each issue).' }
    : safe;
}

function toJsonSchema(schema: yup.ISchema<unknown>): Record<string, unknown> {
  return openApiSafe(convertSchema(schema as yup.AnySchema)) as Record<string, unknown>;
}

/**
 * A query parameter given more than once (`?offset=a&offset=b`) arrives as a list; only a
 * parameter whose schema is a list may be repeated, any other is query_invalid, by name.
 */
function refuseRepeatedParameters(schema: AnySchema, query: unknown): void {
  if (query === null || typeof query !== 'object') {
    return;
  }
  const fields = schema.fields as Record<string, { type?: string } | undefined>;
  const repeated = Object.entries(query as Record<string, unknown>)
    .filter(([name, value]) => Array.isArray(value) && (!Object.hasOwn(fields, name) || fields[name]?.type !== 'array'))
    .map(([name]) => ({ path: name, message: `${name} must be given once` }));
  if (repeated.length > 0) {
    throw new GridportError('query_invalid', repeated);
  }
}

/**
 * Route parts are validated by the same yup schemas from `contracts/` that the OpenAPI
 * document is generated from; a part that does not validate is answered with its catalogue
 * key (`params_invalid`, `query_invalid`, `payload_invalid`) and each issue's path and message.
 */
export function installYupValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ method, url, httpPart }) => {
    const key = partKeys[httpPart as Part];
    const schema = httpPart ? schemas.get(partId(method, url, httpPart)) : undefined;
    if (!key || !schema) {
      return () => true;
    }
    return (data: unknown) => {
      try {
        if (httpPart === 'querystring') {
          refuseRepeatedParameters(schema, data);
        }
        return { value: validate(schema, data ?? (httpPart === 'body' ? undefined : {}), key) };
      } catch (error) {
        return { error: error as Error };
      }
    };
  });
  // Answers are written as they are; their schemas only document them.
  app.setSerializerCompiler(() => (data: unknown) => JSON.stringify(data));
}

export function defineRoute<
  PS extends AnySchema | undefined = undefined,
  QS extends AnySchema | undefined = undefined,
  BS extends AnySchema | undefined = undefined,
>(app: FastifyInstance, services: Services, definition: RouteDefinition<PS, QS, BS>): void {
  const parts: [Part, AnySchema | undefined][] = [
    ['params', definition.params],
    ['querystring', definition.query],
    ['body', definition.body],
  ];
  const schema: Record<string, unknown> = { summary: definition.summary, tags: definition.tags };
  for (const [part, partSchema] of parts) {
    if (partSchema) {
      schemas.set(partId(definition.method, definition.url, part), partSchema);
      schema[part] = toJsonSchema(partSchema);
    }
  }
  const status = definition.status ?? 200;
  schema.response = {
    [status]: definition.response && status !== 204 ? toJsonSchema(definition.response) : { type: 'null', description: 'No content' },
  };
  const actors = definition.actors ?? (definition.url.startsWith('/console') ? ['user'] : ['user', 'apiKey']);
  if (definition.auth !== 'public') {
    schema.security = actors.map((kind) => (kind === 'user' ? { session: [] } : { apiKey: [] }));
  }

  const auth = definition.auth;
  routeAccess.set(`${definition.method} ${definition.url}`, { method: definition.method, url: definition.url, auth, actors });
  app.route({
    method: definition.method,
    url: definition.url,
    schema,
    ...(definition.bodyLimit === undefined ? {} : { bodyLimit: definition.bodyLimit }),
    // Who may call is settled before the body is read or validated.
    onRequest:
      auth === 'public'
        ? []
        : async (request) => {
            requireRights(request.actor, auth);
            if (!(actors as readonly string[]).includes(request.actor.kind)) {
              throw new GridportError('forbidden', { reason: actors.includes('user') ? 'this route needs a console session' : 'this route needs an API key' });
            }
            await definition.beforeBody?.(request);
          },
    // A route that takes a body needs one: an empty body is not JSON.
    preValidation: definition.body
      ? async (request) => {
          if (request.body === undefined || request.body === null) {
            throw new GridportError('payload_not_json', { reason: 'the body is empty' });
          }
        }
      : [],
    handler: async (request, reply) => {
      const result = await definition.handler({
        request,
        reply,
        actor: request.actor,
        services,
        params: request.params as Out<PS>,
        query: request.query as Out<QS>,
        body: request.body as Out<BS>,
      });
      if (reply.sent) {
        return reply;
      }
      if (status === 204) {
        return reply.code(204).send();
      }
      return reply.code(status).send(result);
    },
  });
}
