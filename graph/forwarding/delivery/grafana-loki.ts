import type { DelivererFactory } from './deliverer';

/** Placeholder until the grafana-loki deliverer lands (issue 18). */
export const grafanaLokiDeliverer: DelivererFactory<'grafana-loki'> = () => {
  throw new Error('the grafana-loki deliverer is not built yet');
};
