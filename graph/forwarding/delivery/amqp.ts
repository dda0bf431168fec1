import type { DelivererFactory } from './deliverer';

/** Placeholder until the amqp deliverer lands (issue 18). */
export const amqpDeliverer: DelivererFactory<'amqp'> = () => {
  throw new Error('the amqp deliverer is not built yet');
};
