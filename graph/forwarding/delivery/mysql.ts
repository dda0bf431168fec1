import type { DelivererFactory } from './deliverer';

/** Placeholder until the mysql deliverer lands (issue 18). */
export const mysqlDeliverer: DelivererFactory<'mysql'> = () => {
  throw new Error('the mysql deliverer is not built yet');
};
