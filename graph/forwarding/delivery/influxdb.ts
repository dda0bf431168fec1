import type { DelivererFactory } from './deliverer';

/** Placeholder until the influxdb deliverer lands (issue 18). */
export const influxdbDeliverer: DelivererFactory<'influxdb'> = () => {
  throw new Error('the influxdb deliverer is not built yet');
};
