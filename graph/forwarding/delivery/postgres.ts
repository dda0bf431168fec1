import type { DelivererFactory } from './deliverer';

/** Placeholder until the postgres deliverer lands (issue 18). */
export const postgresDeliverer: DelivererFactory<'postgres'> = () => {
  throw new Error('the postgres deliverer is not built yet');
};
