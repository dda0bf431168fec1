import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApolloServer } from '@apollo/server';
import {
  getOperationAST,
  GraphQLError,
  parse,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
} from 'graphql';
import { CloseCode, makeServer } from 'graphql-ws';
import type { Logger } from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { isErrorKey } from '../contracts/errors';
import { limits } from '../contracts/limits';
import type { Actor } from '../graph/common/context';
import { createGraphqlContext, type GraphqlContext } from '../resolvers/graphql-context';
import { buildLiveSchema } from '../resolvers/live/schema';
import type { Services } from '../graph/services';
import { toSubgraphError } from '../resolvers/subgraph';
import { authenticator, clientAddress } from './auth';
import { closeWebSockets, refuseUpgrade } from '../device-hub/upgrade';

/** The subprotocol of graphql-ws. */
const subprotocol = 'graphql-transport-ws';

export interface GraphqlWsOptions {
  services: Services;
  log: Logger;
  trustedProxies: readonly string[];
  /** The federated graph (graph/gateway.ts), which runs the queries and mutations sent over the socket. */
  graphql: ApolloServer<GraphqlContext>;
}

/** Who opened a socket, and from where. */
interface Opener {
  actor: Actor;
  clientAddress: string;
}

/** A request the client got wrong (syntax, validation, variables): payload_invalid with graphql-js's message and locations. */
function requestError(error: GraphQLError | string): GraphQLError {
  if (typeof error === 'string') {
    return new GraphQLError(error, { extensions: { code: 'payload_invalid' } });
  }
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: { code: 'payload_invalid' } });
}

export interface GraphqlWs {
  close(): Promise<void>;
}

/**
 * A browser sends its cookies on a cross-site websocket upgrade too, so a session cookie is
 * believed only when the page that opens the socket is on this site (its Origin names the host
 * the request came to). Without an Origin (not a browser) or with an API key there is no such risk.
 */
function sameSite(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (origin === undefined || request.headers.authorization !== undefined) {
    return true;
  }
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/**
 * GraphQL over graphql-ws at /graphql (websocket upgrades; plain HTTP requests to /graphql stay
 * with the federated gateway). Subscriptions run on the live schema; queries and mutations,
 * which graphql-ws clients send over the same socket, run on the federated graph exactly as over
 * HTTP. The actor is authenticated once, from the upgrade request's session cookie or
 * Authorization header; every operation then applies the same rules as over HTTP. Errors carry
 * the catalogue's code, as everywhere in GraphQL.
 */
export async function attachGraphqlWs(server: Server, { services, log, trustedProxies, graphql }: GraphqlWsOptions): Promise<GraphqlWs> {
  const schema = await buildLiveSchema(services.pubsub);
  const authenticate = authenticator(services);
  const sockets = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has(subprotocol) ? subprotocol : false) });
  const openers = new WeakMap<IncomingMessage, Opener>();
  /** Answers of the federated graph, whose errors Apollo has already formatted. */
  const federatedResults = new WeakSet<object>();
  /** The text each parsed query came as, so the federated graph reports locations in it. */
  const queryTexts = new WeakMap<DocumentNode, string>();

  const openerOf = (request: IncomingMessage): Opener => {
    const opener = openers.get(request);
    if (!opener) {
      throw new Error('a graphql-ws operation without an authenticated upgrade');
    }
    return opener;
  };
  const contextOf = (request: IncomingMessage): GraphqlContext => {
    const { actor, clientAddress: address } = openerOf(request);
    // No cookie can be set on a websocket: a session is what the upgrade carried.
    return createGraphqlContext(actor, services, { clientAddress: address, setSessionCookie: () => undefined });
  };

  /**
   * The one mapping of GraphQL errors (toSubgraphError): the catalogue's code and details,
   * nothing internal. An error graphql-js raised about the request itself (no original error,
   * no catalogue code: a variable of the wrong type) is the client's mistake, payload_invalid.
   */
  const formatted = (error: GraphQLError): GraphQLFormattedError => {
    if (error.originalError === undefined && !isErrorKey(error.extensions.code)) {
      return { ...error.toJSON(), extensions: { code: 'payload_invalid' } };
    }
    const mapped = toSubgraphError(error.originalError ?? error, log, { graphqlWs: true });
    return { ...error.toJSON(), message: mapped.message, extensions: mapped.extensions };
  };

  /** A query or mutation: through the federated graph, with the socket's actor. */
  const executeFederated = async (args: ExecutionArgs & { contextValue: GraphqlContext }): Promise<ExecutionResult> => {
    const response = await graphql.executeOperation(
      { query: queryTexts.get(args.document) ?? args.document, operationName: args.operationName ?? undefined, variables: args.variableValues ?? undefined },
      { contextValue: args.contextValue },
    );
    const result = response.body.kind === 'single' ? response.body.singleResult : response.body.initialResult;
    federatedResults.add(result);
    // Its errors are formatted already (plain objects); onNext passes the result on as it is.
    return result as unknown as ExecutionResult;
  };

  const graphqlWs = makeServer<Record<string, unknown> | undefined, { request: IncomingMessage }>({
    schema,
    onConnect: (context) => {
      const opener = openers.get(context.extra.request);
      return opener !== undefined && opener.actor.kind !== 'anonymous';
    },
    context: (context) => contextOf(context.extra.request),
    // Parsed and checked here, so that a request the client got wrong is answered with payload_invalid, never a closed socket.
    onSubscribe: (_context, _id, payload): ExecutionArgs | readonly GraphQLError[] => {
      let document: DocumentNode;
      try {
        document = parse(payload.query, { maxTokens: limits.graphqlMaxTokens });
      } catch (error) {
        return [requestError(error instanceof GraphQLError ? error : 'the query cannot be parsed')];
      }
      queryTexts.set(document, payload.query);
      const operation = getOperationAST(document, payload.operationName);
      if (!operation) {
        return [
          requestError(
            payload.operationName
              ? `Unknown operation named "${payload.operationName}".`
              : 'Must provide an operation, and its name if the document holds several.',
          ),
        ];
      }
      const args = { schema, document, operationName: payload.operationName, variableValues: payload.variables };
      if (operation.operation !== 'subscription') {
        // Validated by the federated graph, against its own schema.
        return args;
      }
      const errors = validate(schema, document);
      return errors.length > 0 ? errors.map((error) => requestError(error)) : args;
    },
    execute: (args) => executeFederated(args as ExecutionArgs & { contextValue: GraphqlContext }),
    onError: (_context, _id, _payload, errors): GraphQLFormattedError[] => errors.map(formatted),
    // Errors of a subscription's source (a device the actor may not see) arrive as a result.
    onNext: (_context, _id, _payload, _args, result) => {
      if (federatedResults.has(result) || !result.errors) {
        return result;
      }
      return { ...result, errors: result.errors.map((error) => formatted(error as GraphQLError)) };
    },
  });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (new URL(request.url ?? '/', 'http://gridport').pathname !== '/graphql') {
      return;
    }
    if (!sameSite(request)) {
      refuseUpgrade(socket, 'forbidden', { reason: 'a session cookie is taken only from this site' });
      return;
    }
    const address = clientAddress(request as unknown as Parameters<typeof clientAddress>[0], trustedProxies);
    authenticate({ headers: request.headers, clientAddress: address } as Parameters<typeof authenticate>[0]).then(
      (actor) => {
        if (actor.rejection !== undefined) {
          refuseUpgrade(socket, actor.rejection);
          return;
        }
        openers.set(request, { actor, clientAddress: address });
        sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
      },
      (error: unknown) => {
        log.error({ err: error }, 'authenticating a graphql-ws upgrade failed');
        refuseUpgrade(socket, 'internal_server_error');
      },
    );
  };

  sockets.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const pinger = setInterval(() => {
      if (socket.readyState === WebSocket.OPEN) {
        socket.ping();
      }
    }, 12_000);
    const closed = graphqlWs.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            socket.send(data, (error) => (error ? reject(error) : resolve()));
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (callback) => {
          socket.on('message', (data) => {
            callback(data.toString()).catch((error: unknown) => {
              log.error({ err: error }, 'a graphql-ws message failed');
              socket.close(CloseCode.InternalServerError, error instanceof GraphQLError ? error.message : 'Internal server error');
            });
          });
        },
      },
      { request },
    );
    socket.once('close', (code, reason) => {
      clearInterval(pinger);
      void closed(code, reason.toString());
    });
  });

  server.on('upgrade', onUpgrade);
  return {
    close: async () => {
      server.off('upgrade', onUpgrade);
      await closeWebSockets(sockets, 1001, 'the server is stopping');
    },
  };
}
