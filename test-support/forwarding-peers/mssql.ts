import type { PeerStarter } from './peer';

/** Placeholder until the mssql peer lands (issue 18). */
export const mssqlPeer: PeerStarter = {
  kind: 'mssql',
  missing: () => 'not built yet',
  start: () => Promise.reject(new Error('the mssql peer is not built yet')),
};
