import type { PeerStarter } from './peer';

/** Placeholder until the aws-simple-notification-service peer lands (issue 18). */
export const snsPeer: PeerStarter = {
  kind: 'aws-simple-notification-service',
  missing: () => 'not built yet',
  start: () => Promise.reject(new Error('the aws-simple-notification-service peer is not built yet')),
};
