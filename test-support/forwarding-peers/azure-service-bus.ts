import type { PeerStarter } from './peer';

/** Placeholder until the azure-service-bus peer lands (issue 18). */
export const azureServiceBusPeer: PeerStarter = {
  kind: 'azure-service-bus',
  missing: () => 'not built yet',
  start: () => Promise.reject(new Error('the azure-service-bus peer is not built yet')),
};
