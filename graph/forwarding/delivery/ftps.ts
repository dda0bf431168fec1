import type { DelivererFactory } from './deliverer';

/** Placeholder until the ftps deliverer lands (issue 18). */
export const ftpsDeliverer: DelivererFactory<'ftps'> = () => {
  throw new Error('the ftps deliverer is not built yet');
};
