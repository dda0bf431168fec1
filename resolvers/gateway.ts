import { ApolloServer, type ApolloServerPlugin, type GraphQLResponse } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloServerPluginLandingPageDisabled, ApolloServerPluginUsageReportingDisabled } from '@apollo/server/plugin/disabled';
import { composeServices } from '@apollo/composition';
import { ApolloGateway, LocalGraphQLDataSource, type GatewayConfig } from '@apollo/gateway';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import {
  execute,
  GraphQLError,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import type { Logger } from 'pino';
import { errorCatalogue, isErrorKey, type ErrorKey } from '../contracts/errors';
import { limits } from '../contracts/limits';
import type { Actor } from '../graph/common/context';
import { createGraphqlContext, type GraphqlContext, type GraphqlTransport } from './graphql-context';
import { buildFleetSubgraph } from './fleet/schema';
import { buildForwardingSubgraph } from './forwarding/schema';
import { buildBillingSubgraph } from './billing/schema';
import { buildIdentitySubgraph } from './identity/schema';
import { buildOperationsSubgraph } from './operations/schema';
import type { Services } from '../graph/services';
import type { Subgraph } from './subgraph';
import { BoundedCache } from './bounded-cache';
import { singleFetchGateway, type SingleFetchCounts } from './single-fetch';

/** Every subgraph Gridport serves; each is composed into the one graph clients see. */
export function buildSubgraphs(log: Logger): Promise<Subgraph[]> {
  return Promise.all([
    buildIdentitySubgraph(log),
    buildFleetSubgraph(log),
    buildOperationsSubgraph(log),
    buildForwardingSubgraph(log),
    buildBillingSubgraph(log),
  ]);
}

export class GraphCompositionError extends Error {
  constructor(readonly problems: string[]) {
    super(`The subgraphs do not compose into one graph (${problems.length} problem(s)):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'GraphCompositionError';
  }
}

export interface ComposedGraph {
  subgraphs: Subgraph[];
  /** The supergraph the gateway plans queries over. */
  supergraphSdl: string;
  /** The schema clients see (printed to schema.graphql). */
  apiSchema: GraphQLSchema;
}

/** Composes subgraphs' SDL into the supergraph and the API schema; throws GraphCompositionError listing every problem. */
export function composeSubgraphs(subgraphs: readonly Pick<Subgraph, 'name' | 'sdl'>[]): Omit<ComposedGraph, 'subgraphs'> {
  const result = composeServices(subgraphs.map(({ name, sdl }) => ({ name, url: `local://${name}`, typeDefs: parse(sdl) })));
  if (result.errors) {
    throw new GraphCompositionError(result.errors.map((error) => error.message));
  }
  return { supergraphSdl: result.supergraphSdl, apiSchema: result.schema.toAPISchema().toGraphQLJSSchema() };
}

/** Builds every subgraph and composes them (Apollo Federation 2); needs no database. */
export async function composeGraph(log: Logger): Promise<ComposedGraph> {
  const subgraphs = await buildSubgraphs(log);
  return { subgraphs, ...composeSubgraphs(subgraphs) };
}

/** Apollo's codes for a request that is itself wrong; they become payload_invalid with Apollo's message. */
const requestErrorCodes = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
]);

function formatted(error: GraphQLFormattedError, code: ErrorKey, message: string, details: unknown): GraphQLFormattedError {
  return {
    message,
    ...(error.locations ? { locations: error.locations } : {}),
    ...(error.path ? { path: error.path } : {}),
    extensions: details === undefined ? { code } : { code, details },
  };
}

/**
 * The one mapping of every error a GraphQL client sees: a catalogue key keeps its message and
 * details (nothing else: no serviceName, no stack); a request Apollo refuses is payload_invalid;
 * anything else is logged and answered as internal_server_error, without internals.
 */
export function formatGraphqlError(log: Logger): (error: GraphQLFormattedError, original: unknown) => GraphQLFormattedError {
  return (error, original) => {
    const code = error.extensions?.code;
    if (isErrorKey(code)) {
      return formatted(error, code, error.message, error.extensions?.details);
    }
    if (typeof code === 'string' && requestErrorCodes.has(code)) {
      return formatted(error, 'payload_invalid', error.message, undefined);
    }
    log.error({ err: unwrapResolverError(original), code, path: error.path }, 'unexpected GraphQL error');
    return formatted(error, 'internal_server_error', errorCatalogue.internal_server_error.message, undefined);
  };
}

/** How many query plans the gateway keeps, and how many parsed and validated subgraph operations: more than the console's documents. */
export const queryPlansKept = 1000;
export const subgraphOperationsKept = 1000;

type QueryPlanCache = NonNullable<NonNullable<GatewayConfig['queryPlannerConfig']>['cache']>;
type QueryPlan = Parameters<QueryPlanCache['set']>[1];

/** The gateway's query plans, by its key for an operation (the hash of its text and name), in a BoundedCache. */
function queryPlanCache(plans: BoundedCache<QueryPlan>): QueryPlanCache {
  return {
    get: async (key) => plans.get(key),
    set: async (key, plan) => plans.set(key, plan),
    delete: async (key) => plans.delete(key),
    clear: () => plans.clear(),
  };
}

/**
 * A subgraph run in process. An error of its answer with neither a path nor a code is graphql-js
 * refusing the request itself (a variable its scalar cannot read, such as the date
 * +275760-09-12T00:00:00Z): it gets the code Apollo gives such an error, BAD_USER_INPUT, so the
 * gateway passes it on as the client's mistake rather than as a failure of the subgraph.
 *
 * The operations the gateway sends come from its query plans, so the same few texts come again
 * and again: each is parsed and validated against the subgraph's schema once and kept (the
 * answer depends on the text and the schema only, and neither changes); its variables are
 * still coerced, and it is executed, on every request. A text that does not parse or validate
 * is not kept and is refused every time as graphql-js refuses it.
 */
class InProcessSubgraph extends LocalGraphQLDataSource<GraphqlContext> {
  constructor(
    private readonly subgraphSchema: GraphQLSchema,
    private readonly documents: BoundedCache<DocumentNode>,
  ) {
    super(subgraphSchema);
  }

  /** The operation's document, parsed and validated (kept), or why it is not one. */
  private document(source: string): DocumentNode | readonly GraphQLError[] {
    const known = this.documents.get(source);
    if (known) {
      return known;
    }
    let document: DocumentNode;
    try {
      document = parse(source);
    } catch (error) {
      return [error as GraphQLError];
    }
    const errors = validate(this.subgraphSchema, document);
    if (errors.length > 0) {
      return errors;
    }
    this.documents.set(source, document);
    return document;
  }

  override async process({
    request,
    context,
  }: Parameters<LocalGraphQLDataSource<GraphqlContext>['process']>[0]): ReturnType<LocalGraphQLDataSource<GraphqlContext>['process']> {
    const document = this.document(request.query ?? '');
    const response: FormattedExecutionResult | ExecutionResult =
      'kind' in document
        ? await execute({
            schema: this.subgraphSchema,
            document,
            variableValues: request.variables,
            operationName: request.operationName,
            contextValue: context,
          })
        : { errors: document };
    if (!response.errors) {
      return response;
    }
    const errors = response.errors.map((error): GraphQLFormattedError =>
      error.path === undefined && error.extensions?.code === undefined
        ? { message: error.message, ...(error.locations ? { locations: error.locations } : {}), extensions: { ...error.extensions, code: 'BAD_USER_INPUT' } }
        : error,
    );
    return { ...response, errors };
  }
}

/**
 * A request whose document has no operation to run (the operationName names none of its
 * operations; several operations and no name) is the client's mistake: 400 payload_invalid, as
 * Apollo answers it without a gateway (the gateway's own planner would throw it as a 500).
 */
const operationResolution: ApolloServerPlugin<GraphqlContext> = {
  requestDidStart: async () => ({
    didResolveOperation: async ({ operation, request, document }) => {
      if (operation !== undefined) {
        return;
      }
      const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION).length;
      const message = request.operationName
        ? `Unknown operation named "${request.operationName}".`
        : operations > 1
          ? 'Must provide operation name if query contains multiple operations.'
          : 'Must provide an operation.';
      throw new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } } });
    },
  }),
};

/** Depth, aliases, directives and cost (graphql-armor); tokens are limited by the parser itself. */
function armor(environment: string) {
  return new ApolloArmor({
    maxDepth: { n: limits.graphqlMaxDepth },
    maxAliases: { n: limits.graphqlMaxAliases },
    maxDirectives: { n: limits.graphqlMaxDirectives },
    costLimit: { maxCost: limits.graphqlMaxCost },
    // Armor's token limit throws from a parsing hook, which Apollo answers with a 500;
    // graphql-js's own `maxTokens` (parseOptions below) fails the parse as it should.
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: environment === 'production' },
  }).protect();
}

export interface GraphqlServerOptions {
  services: Services;
  log: Logger;
  environment: 'production' | 'development' | 'test';
  /**
   * Run a query whose plan is one fetch from one subgraph straight on that subgraph
   * (resolvers/single-fetch.ts); on unless a test compares the two ways.
   */
  singleFetchDirect?: boolean;
}

export interface GraphqlOperation {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

export interface GraphqlServer {
  /** Started; serve it with `executeHTTPGraphQLRequest` (server/graphql.ts). */
  server: ApolloServer<GraphqlContext>;
  /** The composed API schema clients see. */
  schema: GraphQLSchema;
  /** Runs one operation in process as `actor` (Apollo's whole pipeline, without HTTP). */
  execute<T = Record<string, unknown>>(actor: Actor, request: GraphqlOperation, transport?: GraphqlTransport): Promise<GraphQLResponse<T>>;
  /** What the gateway keeps of operations seen before: query plans, and subgraph operations parsed and validated. */
  caches(): Record<'queryPlans' | 'subgraphOperations', { entries: number; hits: number; misses: number }>;
  /** Queries run straight on their one subgraph, queries run through the gateway, and routes kept. */
  singleFetch(): SingleFetchCounts;
  stop(): Promise<void>;
}

/**
 * The GraphQL gateway: every subgraph composed into one graph and served in process
 * (`LocalGraphQLDataSource`, so each request's context reaches the subgraph resolvers).
 */
export async function createGraphqlServer({ services, log, environment, singleFetchDirect = true }: GraphqlServerOptions): Promise<GraphqlServer> {
  const graph = await composeGraph(log);
  const schemas = new Map(graph.subgraphs.map((subgraph) => [subgraph.name, subgraph.schema]));
  const queryPlans = new BoundedCache<QueryPlan>(queryPlansKept);
  const subgraphOperations = new BoundedCache<DocumentNode>(subgraphOperationsKept);
  const gateway = new ApolloGateway({
    supergraphSdl: graph.supergraphSdl,
    logger: log,
    queryPlannerConfig: { cache: queryPlanCache(queryPlans) },
    buildService: ({ name }) => {
      const schema = schemas.get(name);
      if (!schema) {
        throw new Error(`the supergraph names subgraph ${name}, which Gridport does not build`);
      }
      return new InProcessSubgraph(schema, subgraphOperations);
    },
  });
  const direct = singleFetchGateway(gateway, { subgraphs: schemas, planOf: (key) => queryPlans.peek(key), capacity: queryPlansKept });
  const protection = armor(environment);
  const server = new ApolloServer<GraphqlContext>({
    gateway: singleFetchDirect ? direct.gateway : gateway,
    logger: log,
    nodeEnv: environment,
    csrfPrevention: true,
    // server/main.ts owns the process's signals and stops everything in order.
    stopOnTerminationSignals: false,
    introspection: environment !== 'production',
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    parseOptions: { maxTokens: limits.graphqlMaxTokens },
    validationRules: protection.validationRules,
    formatError: formatGraphqlError(log),
    plugins: [
      operationResolution,
      ...protection.plugins,
      ApolloServerPluginUsageReportingDisabled(),
      ...(environment === 'production' ? [ApolloServerPluginLandingPageDisabled()] : []),
    ],
  });
  await server.start();
  return {
    server,
    schema: graph.apiSchema,
    execute: (actor, request, transport) => server.executeOperation(request, { contextValue: createGraphqlContext(actor, services, transport) }),
    caches: () => ({
      queryPlans: { entries: queryPlans.size, hits: queryPlans.hits, misses: queryPlans.misses },
      subgraphOperations: { entries: subgraphOperations.size, hits: subgraphOperations.hits, misses: subgraphOperations.misses },
    }),
    singleFetch: () => direct.counts(),
    stop: () => server.stop(),
  };
}
