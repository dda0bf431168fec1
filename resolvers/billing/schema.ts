import type { Logger } from 'pino';
import { BillingLegalEntityResolver, resolveBillingLegalEntityReference } from './billing-legal-entity.resolver';
import { buildSubgraph, type Subgraph } from '../subgraph';

/** The billing subgraph: legal entities (and, as they land, pricing views, charges and invoices). */
export function buildBillingSubgraph(log: Logger): Promise<Subgraph> {
  return buildSubgraph(
    {
      name: 'billing',
      resolvers: [BillingLegalEntityResolver],
      entities: { BillingLegalEntity: resolveBillingLegalEntityReference },
    },
    log,
  );
}
