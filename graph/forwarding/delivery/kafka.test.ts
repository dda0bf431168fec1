import { destinationSettingsSchemas, type DestinationSettingsOf, type ForwardedMessage } from '../../../contracts/forwarding';
import { GridportError } from '../../../contracts/errors';
import { kafkaPeer, kafkaTestPartitions, type KafkaPeer } from '../../../test-support/forwarding-peers/kafka';
import { forwardedBatch } from '../../../test-support/forwarding-peers/messages';
import { deliveryContext, receivedOf, type ForwardingPeer, type ReceivedMessage } from '../../../test-support/forwarding-peers/peer';
import { guardedSocketFactory, kafkaDeliverer } from './kafka';

function settingsOf(peer: ForwardingPeer, overrides: Record<string, unknown> = {}): DestinationSettingsOf<'kafka'> {
  return destinationSettingsSchemas.kafka.validateSync({ ...peer.settings, ...overrides });
}

/** In position order: Kafka keeps order within a partition only, and the broker takes a request's partitions one after another. */
function byPosition(messages: ReceivedMessage[]): ReceivedMessage[] {
  return [...messages].sort((a, b) => Number(a.position) - Number(b.position));
}

describe('kafka deliverer against a fake broker speaking the Kafka protocol', () => {
  let peer: KafkaPeer;

  beforeAll(async () => {
    peer = await kafkaPeer.start();
  });
  afterAll(async () => {
    await peer?.stop();
  });

  it('produces batches keyed by device, with type headers; each device stays in one partition, in order', async () => {
    const deliverer = kafkaDeliverer(settingsOf(peer), deliveryContext(true));
    const sent = [forwardedBatch(1, 3), forwardedBatch(4, 5), forwardedBatch(9, 2)];
    try {
      for (const messages of sent) {
        await deliverer.deliver(messages);
      }
    } finally {
      await deliverer.close();
    }
    expect(byPosition(await peer.received())).toEqual(sent.flat().map(receivedOf));
    const partitionsOfDevice = new Map<string, Set<number>>();
    const positionsOfPartition = new Map<number, number[]>();
    for (const record of peer.records()) {
      partitionsOfDevice.set(record.key ?? '', (partitionsOfDevice.get(record.key ?? '') ?? new Set()).add(record.partition));
      positionsOfPartition.set(record.partition, [
        ...(positionsOfPartition.get(record.partition) ?? []),
        Number((JSON.parse(record.value ?? '{}') as ForwardedMessage).position),
      ]);
    }
    expect([...partitionsOfDevice.values()].map((partitions) => partitions.size)).toEqual([1, 1, 1]);
    for (const positions of positionsOfPartition.values()) {
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
    expect(peer.records().every((record) => record.partition < kafkaTestPartitions && record.producerId > 0n)).toBe(true);
  });

  it('a batch delivered twice arrives twice, with the same messageId headers', async () => {
    const deliverer = kafkaDeliverer(settingsOf(peer), deliveryContext(true));
    const messages = forwardedBatch(20, 2);
    const before = peer.records().length;
    try {
      await deliverer.deliver(messages);
      await deliverer.deliver(messages);
    } finally {
      await deliverer.close();
    }
    const added = (await peer.received()).slice(before);
    expect(byPosition(added)).toEqual(byPosition([...messages, ...messages].map(receivedOf)));
  });

  it('a refusing broker fails the batch with its reason; after heal the same deliverer works again', async () => {
    const deliverer = kafkaDeliverer(settingsOf(peer), deliveryContext(true));
    const before = peer.records().length;
    try {
      await deliverer.deliver(forwardedBatch(30, 1));
      await peer.break();
      await expect(deliverer.deliver(forwardedBatch(31, 2))).rejects.toThrow(
        `kafka ${String((peer.settings.brokers as string[])[0])} topic gridport-readings: Not authorized to access topics: [Topic authorization failed]`,
      );
      await peer.heal();
      await deliverer.deliver(forwardedBatch(31, 2));
    } finally {
      await deliverer.close();
    }
    expect(byPosition((await peer.received()).slice(before))).toEqual(forwardedBatch(30, 3).map(receivedOf));
  });
});

describe('kafka deliverer and the address guard', () => {
  let peer: KafkaPeer;

  beforeAll(async () => {
    peer = await kafkaPeer.start();
  });
  afterAll(async () => {
    await peer?.stop();
  });

  it.each(['127.0.0.1', 'localhost'])('refuses the bootstrap broker %s with destination_address_not_allowed before connecting', async (host) => {
    const settings = destinationSettingsSchemas.kafka.validateSync({ brokers: [`${host}:${peer.broker.port}`], topic: 'gridport-readings' });
    const deliverer = kafkaDeliverer(settings, deliveryContext(false));
    try {
      const failure = deliverer.deliver(forwardedBatch(1, 1));
      await expect(failure).rejects.toBeInstanceOf(GridportError);
      await expect(failure).rejects.toMatchObject({ key: 'destination_address_not_allowed' });
    } finally {
      await deliverer.close();
    }
    expect(peer.broker.connections).toBe(0);
  });

  it.each(['169.254.169.254', '[::1]', 'localhost'])('an advertised broker %s is refused by the socket factory without connecting', async (host) => {
    const refusals: GridportError[] = [];
    const connected = jest.fn();
    const socket = guardedSocketFactory({ allowPrivateNetworks: false }, (error) => refusals.push(error))({
      host,
      port: peer.broker.port,
      ssl: {},
      onConnect: connected,
    });
    const failure = await new Promise<unknown>((resolve) => socket.once('error', resolve));
    expect(failure).toBeInstanceOf(GridportError);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.key).toBe('destination_address_not_allowed');
    expect(connected).not.toHaveBeenCalled();
    expect(peer.broker.connections).toBe(0);
  });
});
