import type { PeerStarter } from './peer';

/** Placeholder until the postgres peer lands (issue 18). */
export const postgresPeer: PeerStarter = {
  kind: 'postgres',
  missing: () => 'not built yet',
  start: () => Promise.reject(new Error('the postgres peer is not built yet')),
};
