import type { DelivererFactory } from './deliverer';

/** Placeholder until the mssql deliverer lands (issue 18). */
export const mssqlDeliverer: DelivererFactory<'mssql'> = () => {
  throw new Error('the mssql deliverer is not built yet');
};
