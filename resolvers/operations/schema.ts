import type { Logger } from 'pino';
import { IssueMessageResolver } from './issue-message.resolver';
import { IssueResolver } from './issue.resolver';
import { buildSubgraph, type Subgraph } from '../subgraph';

/** The operations subgraph: issues with their alarms, timelines, messages and subscribers. */
export function buildOperationsSubgraph(log: Logger): Promise<Subgraph> {
  return buildSubgraph({ name: 'operations', resolvers: [IssueResolver, IssueMessageResolver] }, log);
}
