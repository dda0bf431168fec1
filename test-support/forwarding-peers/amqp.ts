import type { PeerStarter } from './peer';

/** Placeholder until the amqp peer lands (issue 18). */
export const amqpPeer: PeerStarter = {
  kind: 'amqp',
  missing: () => 'not built yet',
  start: () => Promise.reject(new Error('the amqp peer is not built yet')),
};
