import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { CloseCode, makeServer } from 'graphql-ws';
import type { Logger } from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import type { Actor } from '../graph/common/context';
import { createGraphqlContext } from '../graph/graphql-context';
import { buildLiveSchema } from '../graph/live/schema';
import type { Services } from '../graph/services';
import { toSubgraphError } from '../graph/subgraph';
import { authenticator, clientAddress } from './auth';
import { closeWebSockets, refuseUpgrade } from '../device-hub/upgrade';

/** The subprotocol of graphql-ws. */
const subprotocol = 'graphql-transport-ws';

export interface GraphqlWsOptions {
  services: Services;
  log: Logger;
  trustedProxies: readonly string[];
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
 * GraphQL subscriptions over graphql-ws at /graphql (websocket upgrades; plain HTTP requests to
 * /graphql stay with the federated gateway). The actor is authenticated once, from the upgrade
 * request's session cookie or Authorization header; every subscription then applies the same
 * rules as the queries. Errors carry the catalogue's code, as everywhere in GraphQL.
 */
export async function attachGraphqlWs(server: Server, { services, log, trustedProxies }: GraphqlWsOptions): Promise<GraphqlWs> {
  const schema = await buildLiveSchema(services.pubsub);
  const authenticate = authenticator(services);
  const sockets = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has(subprotocol) ? subprotocol : false) });
  const actors = new WeakMap<IncomingMessage, Actor>();

  /** The one mapping of GraphQL errors (toSubgraphError): the catalogue's code and details, nothing internal. */
  const formatted = (error: GraphQLError): GraphQLFormattedError => {
    const mapped = toSubgraphError(error.originalError ?? error, log, { graphqlWs: true });
    return { ...error.toJSON(), message: mapped.message, extensions: mapped.extensions };
  };

  const graphqlWs = makeServer<Record<string, unknown> | undefined, { request: IncomingMessage }>({
    schema,
    onConnect: (context) => {
      const actor = actors.get(context.extra.request);
      return actor !== undefined && actor.kind !== 'anonymous';
    },
    context: (context) => {
      const actor = actors.get(context.extra.request);
      if (!actor) {
        throw new Error('a graphql-ws operation without an authenticated upgrade');
      }
      return createGraphqlContext(actor, services);
    },
    onError: (_context, _id, _payload, errors): GraphQLFormattedError[] => errors.map(formatted),
    // Errors of a subscription's source (a device the actor may not see) arrive as a result.
    onNext: (_context, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map((error) => formatted(error as GraphQLError)) } : result),
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
        actors.set(request, actor);
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
