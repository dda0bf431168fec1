import type { PeerStarter } from './peer';

/** Placeholder until the ftps peer lands (issue 18). */
export const ftpsPeer: PeerStarter = {
  kind: 'ftps',
  missing: () => 'not built yet',
  start: () => Promise.reject(new Error('the ftps peer is not built yet')),
};
