import { postgresPeer } from '../../../test-support/forwarding-peers/postgres';
import { forwardedBatch } from '../../../test-support/forwarding-peers/messages';
import { describeSqlDeliverer } from '../../../test-support/forwarding-peers/sql-peer-support';
import { postgresDeliverer } from './postgres';

describeSqlDeliverer('postgres', postgresPeer, postgresDeliverer, __filename, ({ deliverer }) => {
  it('with tls, a server that offers no TLS is refused rather than written to in the clear', async () => {
    await expect(deliverer({ tls: true }).deliver(forwardedBatch(5_000, 1))).rejects.toThrow(
      /^postgres: could not connect to 127\.0\.0\.1:\d+: The server does not support SSL connections$/,
    );
  });
});
