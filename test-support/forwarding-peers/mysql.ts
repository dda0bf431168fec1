import type { PeerStarter } from './peer';

/** Placeholder until the mysql peer lands (issue 18). */
export const mysqlPeer: PeerStarter = {
  kind: 'mysql',
  missing: () => 'not built yet',
  start: () => Promise.reject(new Error('the mysql peer is not built yet')),
};
