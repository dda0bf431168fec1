import type { DelivererFactory } from './deliverer';

/** Placeholder until the azure-service-bus deliverer lands (issue 18). */
export const azureServiceBusDeliverer: DelivererFactory<'azure-service-bus'> = () => {
  throw new Error('the azure-service-bus deliverer is not built yet');
};
