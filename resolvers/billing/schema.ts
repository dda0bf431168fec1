import type { Logger } from 'pino';
import { BillingChargeResolver } from './billing-charge.resolver';
import { BillingInvoiceResolver } from './billing-invoice.resolver';
import { BillingLegalEntityResolver, resolveBillingLegalEntityReference } from './billing-legal-entity.resolver';
import { buildSubgraph, type Subgraph } from '../subgraph';

/** The billing subgraph: charges, invoices, legal entities, the forecast (docs/billing.md). */
export function buildBillingSubgraph(log: Logger): Promise<Subgraph> {
  return buildSubgraph(
    {
      name: 'billing',
      resolvers: [BillingChargeResolver, BillingInvoiceResolver, BillingLegalEntityResolver],
      entities: { BillingLegalEntity: resolveBillingLegalEntityReference },
    },
    log,
  );
}
