import { mysqlPeer } from '../../../test-support/forwarding-peers/mysql';
import { forwardedBatch } from '../../../test-support/forwarding-peers/messages';
import { describeSqlDeliverer } from '../../../test-support/forwarding-peers/sql-peer-support';
import { mysqlDeliverer } from './mysql';

describeSqlDeliverer('mysql', mysqlPeer, mysqlDeliverer, __filename, ({ deliverer }) => {
  it('with tls, a server that offers no TLS is refused rather than written to in the clear', async () => {
    await expect(deliverer({ tls: true }).deliver(forwardedBatch(5_000, 1))).rejects.toThrow(
      /^mysql: could not connect to 127\.0\.0\.1:\d+: Server does not support secure connection$/,
    );
  });
});
