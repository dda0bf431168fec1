import { destinationSettingsSchemas, type DestinationSettingsOf } from '../../../contracts/forwarding';
import { GridportError } from '../../../contracts/errors';
import { amqpPeer } from '../../../test-support/forwarding-peers/amqp';
import { forwardedBatch } from '../../../test-support/forwarding-peers/messages';
import { connectionCounter, deliveryContext, describeWithPeer, receivedOf, type ForwardingPeer } from '../../../test-support/forwarding-peers/peer';
import { amqpDeliverer } from './amqp';

function settingsOf(peer: ForwardingPeer, overrides: Record<string, unknown> = {}): DestinationSettingsOf<'amqp'> {
  return destinationSettingsSchemas.amqp.validateSync({ ...peer.settings, ...overrides });
}

describeWithPeer(amqpPeer, __filename)('amqp deliverer against RabbitMQ', () => {
  let peer: ForwardingPeer;

  beforeAll(async () => {
    peer = await amqpPeer.start();
  });
  afterAll(async () => {
    await peer?.stop();
  });

  it('publishes batches persistent, as JSON, with message ids and type headers, in order', async () => {
    const deliverer = amqpDeliverer(settingsOf(peer), deliveryContext(true));
    const sent = [forwardedBatch(1, 3), forwardedBatch(4, 5), forwardedBatch(9, 2)];
    try {
      for (const messages of sent) {
        await deliverer.deliver(messages);
      }
    } finally {
      await deliverer.close();
    }
    expect(await peer.received()).toEqual(sent.flat().map(receivedOf));
  });

  it('a batch delivered twice arrives twice, with the same message ids', async () => {
    const deliverer = amqpDeliverer(settingsOf(peer), deliveryContext(true));
    const messages = forwardedBatch(20, 2);
    try {
      await deliverer.deliver(messages);
      await deliverer.deliver(messages);
    } finally {
      await deliverer.close();
    }
    expect((await peer.received()).slice(-4)).toEqual([...messages, ...messages].map(receivedOf));
  });

  it('a broken exchange fails the batch with the broker reason; after heal the same deliverer works again', async () => {
    const deliverer = amqpDeliverer(settingsOf(peer), deliveryContext(true));
    try {
      await deliverer.deliver(forwardedBatch(30, 1));
      await peer.break();
      const exchange = String(peer.settings.exchange);
      await expect(deliverer.deliver(forwardedBatch(31, 2))).rejects.toThrow(
        `amqp 127.0.0.1:5672: Channel closed by server: 404 (NOT-FOUND) with message "NOT_FOUND - no exchange '${exchange}' in vhost '/'"`,
      );
      await peer.heal();
      await deliverer.deliver(forwardedBatch(31, 2));
    } finally {
      await deliverer.close();
    }
    expect((await peer.received()).slice(-3)).toEqual(forwardedBatch(30, 3).map(receivedOf));
  });

  it('a message that reaches no queue fails the batch', async () => {
    const deliverer = amqpDeliverer(settingsOf(peer, { exchange: '', routingKey: 'gridport-no-such-queue' }), deliveryContext(true));
    try {
      await expect(deliverer.deliver(forwardedBatch(40, 2))).rejects.toThrow(
        'amqp 127.0.0.1:5672: the default exchange routed 2 of 2 messages to no queue (check its bindings and the routing key)',
      );
    } finally {
      await deliverer.close();
    }
  });

  it('a wrong password fails with the broker refusal and no secret in the message', async () => {
    const deliverer = amqpDeliverer(settingsOf(peer, { password: 'not-the-password' }), deliveryContext(true));
    try {
      const failure = deliverer.deliver(forwardedBatch(50, 1));
      await expect(failure).rejects.toThrow(/^amqp 127\.0\.0\.1:5672: .*ACCESS_REFUSED/);
      await expect(failure).rejects.not.toThrow(/not-the-password/);
    } finally {
      await deliverer.close();
    }
  });
});

describe('amqp deliverer and the address guard', () => {
  let counter: Awaited<ReturnType<typeof connectionCounter>>;

  beforeAll(async () => {
    counter = await connectionCounter();
  });
  afterAll(async () => {
    await counter.close();
  });

  it.each(['127.0.0.1', 'localhost'])('refuses %s with destination_address_not_allowed before connecting', async (host) => {
    const settings = destinationSettingsSchemas.amqp.validateSync({ host, port: counter.port, username: 'guest', password: 'guest', exchange: 'x' });
    const deliverer = amqpDeliverer(settings, deliveryContext(false));
    try {
      const failure = deliverer.deliver(forwardedBatch(1, 1));
      await expect(failure).rejects.toBeInstanceOf(GridportError);
      await expect(failure).rejects.toMatchObject({ key: 'destination_address_not_allowed' });
    } finally {
      await deliverer.close();
    }
    expect(counter.connections()).toBe(0);
  });
});
