import type { Logger } from 'pino';
import { GroupForwardingResolver } from './group-forwarding.resolver';
import { MessageDestinationResolver } from './message-destination.resolver';
import { buildSubgraph, type Subgraph } from '../subgraph';

/** The forwarding subgraph: message destinations with their health, and the forwarding of device groups to them. */
export function buildForwardingSubgraph(log: Logger): Promise<Subgraph> {
  return buildSubgraph({ name: 'forwarding', resolvers: [MessageDestinationResolver, GroupForwardingResolver] }, log);
}
