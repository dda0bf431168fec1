import { mssqlPeer } from '../../../test-support/forwarding-peers/mssql';
import { receivedOf } from '../../../test-support/forwarding-peers/peer';
import { forwardedBatch } from '../../../test-support/forwarding-peers/messages';
import { describeSqlDeliverer } from '../../../test-support/forwarding-peers/sql-peer-support';
import { mssqlDeliverer } from './mssql';

describeSqlDeliverer('mssql', mssqlPeer, mssqlDeliverer, __filename, ({ peer, deliverer }) => {
  it('with tls, a server that declines encryption is refused rather than written to in the clear', async () => {
    await expect(deliverer({ tls: true }).deliver(forwardedBatch(5_000, 1))).rejects.toThrow(
      /^mssql: could not connect to 127\.0\.0\.1:\d+: the server did not agree to TLS \(tls is set, so an unencrypted connection is refused\)$/,
    );
  });

  it('a message twice in one batch is sent once, as MERGE may not insert one key twice', async () => {
    const before = await peer().received();
    const [message] = forwardedBatch(5_001, 1);
    if (!message) {
      throw new Error('no message built');
    }
    await deliverer().deliver([message, message]);
    expect(await peer().received()).toEqual([...before, receivedOf(message)]);
  });
});
