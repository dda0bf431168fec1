import type { DelivererFactory } from './deliverer';

/** Placeholder until the aws-simple-notification-service deliverer lands (issue 18). */
export const snsDeliverer: DelivererFactory<'aws-simple-notification-service'> = () => {
  throw new Error('the aws-simple-notification-service deliverer is not built yet');
};
