import { destinationSettingsSchemas, type DestinationSettingsOf } from '../../../contracts/forwarding';
import { GridportError } from '../../../contracts/errors';
import { snsPeer, type SnsPeer } from '../../../test-support/forwarding-peers/sns';
import { forwardedBatch } from '../../../test-support/forwarding-peers/messages';
import { deliveryContext, receivedOf, type ForwardingPeer } from '../../../test-support/forwarding-peers/peer';
import { snsDeliverer } from './sns';

function settingsOf(peer: ForwardingPeer, overrides: Record<string, unknown> = {}): DestinationSettingsOf<'aws-simple-notification-service'> {
  return destinationSettingsSchemas['aws-simple-notification-service'].validateSync({ ...peer.settings, ...overrides });
}

describe('aws-simple-notification-service deliverer against a fake SNS endpoint', () => {
  let peer: SnsPeer;

  beforeAll(async () => {
    peer = await snsPeer.start();
  });
  afterAll(async () => {
    await peer?.stop();
  });

  it('publishes batches in calls of ten, with type attributes and the device as message group', async () => {
    const deliverer = snsDeliverer(settingsOf(peer), deliveryContext(true));
    const sent = [forwardedBatch(1, 3), forwardedBatch(4, 12), forwardedBatch(16, 2)];
    const before = peer.requests();
    try {
      for (const messages of sent) {
        await deliverer.deliver(messages);
      }
    } finally {
      await deliverer.close();
    }
    expect(await peer.received()).toEqual(sent.flat().map(receivedOf));
    expect(peer.requests() - before).toBe(4);
    expect(peer.published()[0]).toMatchObject({
      attributes: {
        messageType: { dataType: 'String', value: 'batteryPower' },
        version: { dataType: 'Number', value: '2' },
        messageId: { dataType: 'String', value: '1000000003.batteryPower.1' },
      },
      groupId: 'dv7mx2c9',
      deduplicationId: '1000000003.batteryPower.1',
    });
  });

  it('a batch delivered twice to a .fifo topic arrives once (deduplication ids); to a standard topic twice', async () => {
    const messages = forwardedBatch(40, 2);
    const before = (await peer.received()).length;
    for (const topicArn of [String(peer.settings.topicArn), String(peer.settings.topicArn).replace(/\.fifo$/, '')]) {
      const deliverer = snsDeliverer(settingsOf(peer, { topicArn }), deliveryContext(true));
      try {
        await deliverer.deliver(messages);
        await deliverer.deliver(messages);
      } finally {
        await deliverer.close();
      }
    }
    expect((await peer.received()).slice(before)).toEqual([...messages, ...messages, ...messages].map(receivedOf));
  });

  it('an unavailable service fails the batch with its reason; after heal the same deliverer works again', async () => {
    const deliverer = snsDeliverer(settingsOf(peer), deliveryContext(true));
    const before = (await peer.received()).length;
    try {
      await deliverer.deliver(forwardedBatch(50, 1));
      await peer.break();
      await expect(deliverer.deliver(forwardedBatch(51, 2))).rejects.toThrow(
        `aws-simple-notification-service ${String(peer.settings.topicArn)}: ServiceUnavailable: The service is unavailable.`,
      );
      await peer.heal();
      await deliverer.deliver(forwardedBatch(51, 2));
    } finally {
      await deliverer.close();
    }
    expect((await peer.received()).slice(before)).toEqual(forwardedBatch(50, 3).map(receivedOf));
  });

  it('a wrong secret fails like AWS, with SignatureDoesNotMatch and no secret in the message', async () => {
    const deliverer = snsDeliverer(settingsOf(peer, { secretAccessKey: 'not-the-secret' }), deliveryContext(true));
    try {
      const failure = deliverer.deliver(forwardedBatch(60, 1));
      await expect(failure).rejects.toThrow(
        `aws-simple-notification-service ${String(peer.settings.topicArn)}: SignatureDoesNotMatch: The request signature we calculated`,
      );
      await expect(failure).rejects.not.toThrow(/not-the-secret/);
    } finally {
      await deliverer.close();
    }
  });

  it.each(['127.0.0.1', 'localhost'])('refuses an endpoint on %s with destination_address_not_allowed before any request', async (host) => {
    const endpoint = String(peer.settings.endpoint).replace('127.0.0.1', host);
    const deliverer = snsDeliverer(settingsOf(peer, { endpoint }), deliveryContext(false));
    const before = peer.requests();
    try {
      const failure = deliverer.deliver(forwardedBatch(70, 1));
      await expect(failure).rejects.toBeInstanceOf(GridportError);
      await expect(failure).rejects.toMatchObject({ key: 'destination_address_not_allowed' });
    } finally {
      await deliverer.close();
    }
    expect(peer.requests()).toBe(before);
  });
});
