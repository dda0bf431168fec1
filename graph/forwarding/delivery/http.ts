import type { DelivererFactory } from './deliverer';

/** Placeholder until the http deliverer lands (issue 18). */
export const httpDeliverer: DelivererFactory<'http'> = () => {
  throw new Error('the http deliverer is not built yet');
};
