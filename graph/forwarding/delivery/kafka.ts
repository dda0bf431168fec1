import type { DelivererFactory } from './deliverer';

/** Placeholder until the kafka deliverer lands (issue 18). */
export const kafkaDeliverer: DelivererFactory<'kafka'> = () => {
  throw new Error('the kafka deliverer is not built yet');
};
