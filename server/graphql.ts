import { HeaderMap, type ApolloServer } from '@apollo/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createGraphqlContext, type GraphqlContext } from '../resolvers/graphql-context';
import type { Services } from '../graph/services';
import { errorCatalogue } from '../contracts/errors';
import { setSessionCookie } from './auth';
import './request-context';

export interface GraphqlRouteOptions {
  /** The started gateway server (graph/gateway.ts, createGraphqlServer). */
  server: ApolloServer<GraphqlContext>;
  services: Services;
}

function headerMapOf(request: FastifyRequest): HeaderMap {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') {
      headers.set(name, value);
    } else if (Array.isArray(value)) {
      headers.set(name, value.join(', '));
    }
  }
  return headers;
}

function searchOf(url: string): string {
  const start = url.indexOf('?');
  return start === -1 ? '' : url.slice(start);
}

/**
 * GET and POST /graphql: each request is handed to Apollo as it came (CSRF prevention and
 * the limits are Apollo's and graphql-armor's), with the actor that the app's onRequest hook
 * authenticated; the answer goes back with Apollo's status and headers. A credential that was
 * sent and refused is answered with its error (401), never served as anonymous.
 */
export async function registerGraphql(app: FastifyInstance, { server, services }: GraphqlRouteOptions): Promise<void> {
  app.route({
    method: ['GET', 'POST'],
    url: '/graphql',
    schema: { hide: true },
    handler: async (request, reply) => {
      const { rejection } = request.actor;
      if (rejection !== undefined) {
        // A credential was sent and refused (a reset key, an ended session): say so rather than answer as anonymous.
        const { status, message } = errorCatalogue[rejection];
        return reply.code(status).send({ errors: [{ message, extensions: { code: rejection } }] });
      }
      const response = await server.executeHTTPGraphQLRequest({
        httpGraphQLRequest: {
          method: request.method,
          headers: headerMapOf(request),
          search: searchOf(request.url),
          body: request.body,
        },
        context: async () =>
          createGraphqlContext(request.actor, services, {
            clientAddress: request.clientAddress,
            requestId: request.id,
            setSessionCookie: (token, expiresAt) => setSessionCookie(request, reply, token, expiresAt),
          }),
      });
      for (const [name, value] of response.headers) {
        void reply.header(name, value);
      }
      void reply.code(response.status ?? 200);
      if (response.body.kind === 'complete') {
        return reply.send(response.body.string);
      }
      // Incremental delivery (@defer) needs graphql 17; should a chunked answer come, it is sent whole.
      let body = '';
      for await (const chunk of response.body.asyncIterator) {
        body += chunk;
      }
      return reply.send(body);
    },
  });
}
