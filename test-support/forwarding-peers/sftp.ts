import type { PeerStarter } from './peer';

/** Placeholder until the sftp peer lands (issue 18). */
export const sftpPeer: PeerStarter = {
  kind: 'sftp',
  missing: () => 'not built yet',
  start: () => Promise.reject(new Error('the sftp peer is not built yet')),
};
