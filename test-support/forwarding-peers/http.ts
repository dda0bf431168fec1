import type { PeerStarter } from './peer';

/** Placeholder until the http peer lands (issue 18). */
export const httpPeer: PeerStarter = {
  kind: 'http',
  missing: () => 'not built yet',
  start: () => Promise.reject(new Error('the http peer is not built yet')),
};
