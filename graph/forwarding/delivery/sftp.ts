import type { DelivererFactory } from './deliverer';

/** Placeholder until the sftp deliverer lands (issue 18). */
export const sftpDeliverer: DelivererFactory<'sftp'> = () => {
  throw new Error('the sftp deliverer is not built yet');
};
