import { createHash } from 'node:crypto';
import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import {
  BREAK,
  execute,
  getVariableValues,
  GraphQLError,
  OperationTypeNode,
  validate,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { BoundedCache } from './bounded-cache';
import type { GraphqlContext } from './graphql-context';

type Gateway = ApolloServerOptionsWithGateway<GraphqlContext>['gateway'];
type GatewayExecutor = NonNullable<Awaited<ReturnType<Gateway['load']>>['executor']>;
type GatewayRequestContext = Parameters<GatewayExecutor>[0];
type GatewayResult = Awaited<ReturnType<GatewayExecutor>>;

/** The part of a query plan this module reads (the gateway's QueryPlan, whose package Gridport does not depend on). */
export interface PlanShape {
  node?: {
    kind: string;
    serviceName?: string;
    requires?: unknown;
    inputRewrites?: readonly unknown[];
    outputRewrites?: readonly unknown[];
    contextRewrites?: readonly unknown[];
  };
}

/** How an operation is run: by the gateway, or straight on the one subgraph its plan fetches from. */
type Route = { kind: 'gateway' } | { kind: 'subgraph'; name: string; schema: GraphQLSchema };

const throughGateway: Route = { kind: 'gateway' };

/** The key the gateway keeps an operation's query plan under (@apollo/gateway's executor). */
export function queryPlanKey(queryHash: string, operationName: string | undefined): string {
  return operationName ? createHash('sha256').update(queryHash).update(operationName).digest('hex') : queryHash;
}

/** Whether the document asks for the schema itself (`__schema`, `__type`), which the gateway answers from the API schema. */
function asksIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field: (field) => {
      if (field.name.value === '__schema' || field.name.value === '__type') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/**
 * The route of a query whose plan the gateway has made: straight to the subgraph when the plan is
 * one fetch of root fields from one subgraph (no entity fetch, no rewrites of its data), the
 * document asks no introspection and the subgraph's own schema validates the client's whole
 * document; else through the gateway.
 */
export function routeOf(plan: PlanShape, document: DocumentNode, subgraphs: ReadonlyMap<string, GraphQLSchema>): Route {
  const node = plan.node;
  if (
    node?.kind !== 'Fetch' ||
    node.serviceName === undefined ||
    node.requires !== undefined ||
    (node.inputRewrites?.length ?? 0) > 0 ||
    (node.outputRewrites?.length ?? 0) > 0 ||
    (node.contextRewrites?.length ?? 0) > 0
  ) {
    return throughGateway;
  }
  const schema = subgraphs.get(node.serviceName);
  if (!schema || asksIntrospection(document) || validate(schema, document).length > 0) {
    return throughGateway;
  }
  return { kind: 'subgraph', name: node.serviceName, schema };
}

export interface SingleFetchOptions {
  /** The subgraphs run in process, by name. */
  subgraphs: ReadonlyMap<string, GraphQLSchema>;
  /** The gateway's query plans by queryPlanKey, read without counting as a use. */
  planOf(key: string): PlanShape | undefined;
  /** How many routes to keep (one per operation text and name). */
  capacity: number;
}

/** Counts of the queries each way, and of the routes kept. */
export interface SingleFetchCounts {
  routes: number;
  direct: number;
  gateway: number;
}

/**
 * A gateway whose executor runs a query whose plan is a single fetch from one in-process subgraph
 * straight on that subgraph's schema: the client's own document (its aliases, fragments,
 * variables and __typename are the subgraph's to answer as the gateway would have shaped them),
 * the same context, and each error made as the gateway makes a subgraph's error (its message,
 * path and extensions with the subgraph's name; no locations). This skips what the gateway does
 * again on every request of a plan it has kept: build its own representation of the operation,
 * hand the subgraph another document, and shape the answer field by field over the API schema.
 *
 * The first run of an operation goes through the gateway, which plans it; its route is decided
 * from that plan once and kept. Anything the route does not settle beforehand goes through the
 * gateway, so that it answers as it always has: mutations and subscriptions, introspection,
 * several fetches or entity fetches, a document the subgraph's schema does not validate,
 * variables the API schema or the subgraph's schema refuses.
 */
export function singleFetchGateway(gateway: Gateway, options: SingleFetchOptions): { gateway: Gateway; counts(): SingleFetchCounts } {
  const routes = new BoundedCache<Route>(options.capacity);
  let direct = 0;
  let viaGateway = 0;

  const runDirect = async (route: Extract<Route, { kind: 'subgraph' }>, requestContext: GatewayRequestContext): Promise<GatewayResult | null> => {
    const { request, operation, document, schema: apiSchema } = requestContext;
    const variables = request.variables ?? {};
    const definitions = operation.variableDefinitions ?? [];
    if (
      definitions.length > 0 &&
      (getVariableValues(apiSchema, definitions, variables).errors !== undefined ||
        getVariableValues(route.schema, definitions, variables).errors !== undefined)
    ) {
      return null;
    }
    const result: ExecutionResult = await execute({
      schema: route.schema,
      document,
      variableValues: variables,
      operationName: request.operationName,
      contextValue: requestContext.context,
    });
    if (!result.errors) {
      return result;
    }
    if (result.errors.some((error) => error.path === undefined)) {
      // An error of the request as a whole, which the checks above should have caught: the gateway answers it its own way.
      return null;
    }
    const errors = result.errors.map(
      (error) =>
        new GraphQLError(error.message, {
          path: error.path,
          originalError: error,
          extensions: { ...error.extensions, code: error.extensions.code ?? 'DOWNSTREAM_SERVICE_ERROR', serviceName: route.name },
        }),
    );
    return { ...result, errors };
  };

  const wrap =
    (executor: GatewayExecutor): GatewayExecutor =>
    async (requestContext) => {
      if (requestContext.operation.operation !== OperationTypeNode.QUERY) {
        return executor(requestContext);
      }
      const operationName = requestContext.request.operationName ?? undefined;
      const routeKey = `${requestContext.queryHash}:${operationName ?? ''}`;
      const route = routes.get(routeKey);
      if (route?.kind === 'subgraph') {
        const answer = await runDirect(route, requestContext);
        if (answer !== null) {
          direct += 1;
          return answer;
        }
      }
      viaGateway += 1;
      const answer = await executor(requestContext);
      if (route === undefined) {
        const plan = options.planOf(queryPlanKey(requestContext.queryHash, operationName));
        if (plan) {
          routes.set(routeKey, routeOf(plan, requestContext.document, options.subgraphs));
        }
      }
      return answer;
    };

  return {
    gateway: {
      load: async (loadOptions) => {
        const loaded = await gateway.load(loadOptions);
        return { ...loaded, executor: loaded.executor ? wrap(loaded.executor) : null };
      },
      onSchemaLoadOrUpdate: (callback) => gateway.onSchemaLoadOrUpdate(callback),
      stop: async () => {
        routes.clear();
        await gateway.stop();
      },
    },
    counts: () => ({ routes: routes.size, direct, gateway: viaGateway }),
  };
}
