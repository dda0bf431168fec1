import type { Logger } from 'pino';
import { BillingInvoiceResolver } from './billing-invoice.resolver';
import { buildSubgraph, type Subgraph } from '../subgraph';

/** The billing subgraph: invoices (and, from the other billing parts, charges, legal entities and pricing). */
export function buildBillingSubgraph(log: Logger): Promise<Subgraph> {
  return buildSubgraph({ name: 'billing', resolvers: [BillingInvoiceResolver] }, log);
}
