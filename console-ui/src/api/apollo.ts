import { ApolloClient, ApolloLink, CombinedGraphQLErrors, HttpLink, InMemoryCache, ServerError } from '@apollo/client';
import { ErrorLink } from '@apollo/client/link/error';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { OperationTypeNode } from 'graphql';
import { createClient } from 'graphql-ws';
import { ApiError, apiErrorFromGraphql, apiErrorFromResponse } from './api-error';

export const graphqlPath = '/graphql';

/** The ApiError of an Apollo failure: a GraphQL error by its extensions.code, an HTTP failure by its status. */
export function apiErrorOfApollo(error: unknown): ApiError | null {
  if (error instanceof ApiError) {
    return error;
  }
  if (CombinedGraphQLErrors.is(error)) {
    const first = error.errors[0];
    return apiErrorFromGraphql(first?.extensions?.code, first?.extensions?.details, first?.message ?? error.message);
  }
  if (ServerError.is(error)) {
    let body: unknown = undefined;
    try {
      body = JSON.parse(error.bodyText);
    } catch {
      body = undefined;
    }
    return apiErrorFromResponse(error.statusCode, body);
  }
  return null;
}

export interface ApolloOptions {
  /** Every failed operation, sorted (the session watches for 401s). */
  onFailure: (error: ApiError) => void;
  /** Subscriptions over graphql-ws; off in component tests, which have no server. */
  subscriptions?: boolean;
  fetch?: typeof fetch;
}

/**
 * The console's one Apollo client: queries and mutations over HTTP at /graphql with the
 * session cookie, subscriptions over graphql-ws at the same path.
 */
export function createApolloClient({ onFailure, subscriptions = true, fetch: fetchFn }: ApolloOptions): ApolloClient {
  const errorLink = new ErrorLink(({ error }) => {
    const apiError = apiErrorOfApollo(error);
    if (apiError !== null) {
      onFailure(apiError);
    }
  });
  const http = new HttpLink({ uri: graphqlPath, credentials: 'same-origin', ...(fetchFn === undefined ? {} : { fetch: fetchFn }) });
  let transport: ApolloLink = http;
  if (subscriptions) {
    const wsUrl = `${window.location.protocol === 'https:' ? 'wss:' : 'ws:'}//${window.location.host}${graphqlPath}`;
    const ws = new GraphQLWsLink(createClient({ url: wsUrl, lazy: true, retryAttempts: Infinity }));
    transport = ApolloLink.split(({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION, ws, http);
  }
  return new ApolloClient({ link: ApolloLink.from([errorLink, transport]), cache: new InMemoryCache() });
}
