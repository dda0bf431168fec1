import type { PeerStarter } from './peer';

/** Placeholder until the kafka peer lands (issue 18). */
export const kafkaPeer: PeerStarter = {
  kind: 'kafka',
  missing: () => 'not built yet',
  start: () => Promise.reject(new Error('the kafka peer is not built yet')),
};
