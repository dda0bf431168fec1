import type { GraphQLFormattedError } from 'graphql';
import type { Right } from '../contracts/rights';
import { providerOrganizationId } from '../contracts/limits';
import type { Actor } from '../graph/common/context';
import { HashIds } from '../graph/common/hash-ids';
import { createGraphqlServer, type GraphqlServer } from '../resolvers/gateway';
import { createServices, type Dependencies, type Services } from '../graph/services';
import { captureLogs, testSecrets, type LogCapture } from './app';
import { testDatabase, type TestDatabase } from './database';

export interface GraphqlResult<T> {
  data?: T | null;
  errors?: readonly GraphQLFormattedError[];
}

export interface TestGraph {
  graphql: GraphqlServer;
  services: Services;
  hashIds: HashIds;
  database: TestDatabase;
  logs: LogCapture;
  /** Runs one operation through the gateway as `actor`, answering its data and errors. */
  execute<T = Record<string, unknown>>(actor: Actor, query: string, variables?: Record<string, unknown>): Promise<GraphqlResult<T>>;
  close(): Promise<void>;
}

/** The composed GraphQL gateway over a test database. */
export async function testGraph(
  environment: 'production' | 'development' | 'test' = 'test',
  dependencies: Pick<Dependencies, 'moneybird'> = {},
): Promise<TestGraph> {
  const database = await testDatabase();
  const hashIds = new HashIds(testSecrets.hashIdSecret);
  const services = createServices({
    db: database.db,
    hashIds,
    sessionSecret: testSecrets.sessionSecret,
    encryptionKey: testSecrets.encryptionKey,
    ...dependencies,
  });
  const logs = captureLogs();
  const graphql = await createGraphqlServer({ services, log: logs.log, environment });
  return {
    graphql,
    services,
    hashIds,
    database,
    logs,
    execute: async <T>(actor: Actor, query: string, variables?: Record<string, unknown>) => {
      const response = await graphql.execute<T>(actor, { query, variables });
      if (response.body.kind !== 'single') {
        throw new Error('an incremental GraphQL answer where a single one was expected');
      }
      const { data, errors } = response.body.singleResult;
      return { data, errors };
    },
    close: async () => {
      await graphql.stop();
      await database.close();
    },
  };
}

/** A signed-in user of the provider organisation with `rights` (staff by default). */
export function staffActor(rights: Right[] = ['gridport.ops']): Actor {
  return { kind: 'user', userId: 7, apiKeyId: null, organizationId: providerOrganizationId, rights, name: 'Ops' };
}

/** A signed-in user of a customer organisation. */
export function customerActor(organizationId: number, rights: Right[] = ['customer.write']): Actor {
  return { kind: 'user', userId: 8, apiKeyId: null, organizationId, rights, name: 'Customer' };
}
