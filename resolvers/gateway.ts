import { ApolloServer, type ApolloServerPlugin, type GraphQLResponse } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloServerPluginLandingPageDisabled, ApolloServerPluginUsageReportingDisabled } from '@apollo/server/plugin/disabled';
import { composeServices } from '@apollo/composition';
import { ApolloGateway, LocalGraphQLDataSource } from '@apollo/gateway';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { GraphQLError, Kind, parse, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
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

/** Every subgraph Gridport serves; each is composed into the one graph clients see. */
export function buildSubgraphs(log: Logger): Promise<Subgraph[]> {
  return Promise.all([buildIdentitySubgraph(log), buildFleetSubgraph(log), buildOperationsSubgraph(log), buildForwardingSubgraph(log), buildBillingSubgraph(log)]);
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

/**
 * A subgraph run in process. An error of its answer with neither a path nor a code is graphql-js
 * refusing the request itself (a variable its scalar cannot read, such as the date
 * +275760-09-12T00:00:00Z): it gets the code Apollo gives such an error, BAD_USER_INPUT, so the
 * gateway passes it on as the client's mistake rather than as a failure of the subgraph.
 */
class InProcessSubgraph extends LocalGraphQLDataSource<GraphqlContext> {
  override async process(
    options: Parameters<LocalGraphQLDataSource<GraphqlContext>['process']>[0],
  ): ReturnType<LocalGraphQLDataSource<GraphqlContext>['process']> {
    const response = await super.process(options);
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
  stop(): Promise<void>;
}

/**
 * The GraphQL gateway: every subgraph composed into one graph and served in process
 * (`LocalGraphQLDataSource`, so each request's context reaches the subgraph resolvers).
 */
export async function createGraphqlServer({ services, log, environment }: GraphqlServerOptions): Promise<GraphqlServer> {
  const graph = await composeGraph(log);
  const schemas = new Map(graph.subgraphs.map((subgraph) => [subgraph.name, subgraph.schema]));
  const gateway = new ApolloGateway({
    supergraphSdl: graph.supergraphSdl,
    logger: log,
    buildService: ({ name }) => {
      const schema = schemas.get(name);
      if (!schema) {
        throw new Error(`the supergraph names subgraph ${name}, which Gridport does not build`);
      }
      return new InProcessSubgraph(schema);
    },
  });
  const protection = armor(environment);
  const server = new ApolloServer<GraphqlContext>({
    gateway,
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
    stop: () => server.stop(),
  };
}
