import type { ForwardedMessage } from '../../contracts/forwarding';
import { startFakeKafkaBroker, type FakeKafkaBroker, type KafkaRecord } from './kafka-broker';
import { receivedOf, type ForwardingPeer, type PeerStarter, type ReceivedMessage } from './peer';

/** A running Kafka peer, with the records as the broker keeps them (partition, key, headers). */
export interface KafkaPeer extends ForwardingPeer {
  broker: FakeKafkaBroker;
  records(): KafkaRecord[];
}

/** The partitions of the test topic: more than one, so keys must keep each device in one. */
export const kafkaTestPartitions = 3;

function receivedOfRecord(record: KafkaRecord): ReceivedMessage {
  const message = JSON.parse(record.value ?? 'null') as ForwardedMessage;
  if (
    record.key !== message.device.hashId ||
    record.headers.messageType !== message.messageType ||
    record.headers.version !== String(message.version) ||
    !record.headers.messageId?.startsWith(`${message.position}.`)
  ) {
    throw new Error(`message ${message.position} arrived with an unexpected key or headers: ${JSON.stringify({ key: record.key, headers: record.headers })}`);
  }
  return receivedOf(message);
}

/**
 * No Kafka broker can run here (no Kafka in Debian), so the peer is kafka-broker.ts: a fake
 * speaking Kafka's wire protocol for producers on a free port. `break` makes it answer Produce
 * with TOPIC_AUTHORIZATION_FAILED, `heal` accepts again.
 */
export const kafkaPeer = {
  kind: 'kafka' as const,
  missing: () => null,
  async start(): Promise<KafkaPeer> {
    const broker = await startFakeKafkaBroker({ partitions: kafkaTestPartitions });
    return {
      kind: 'kafka',
      broker,
      settings: { brokers: [`${broker.host}:${broker.port}`], topic: 'gridport-readings', clientId: 'gridport-test' },
      records: () => [...broker.records],
      received: () => Promise.resolve(broker.records.map(receivedOfRecord)),
      break() {
        broker.refuseProduce = true;
        return Promise.resolve();
      },
      heal() {
        broker.refuseProduce = false;
        return Promise.resolve();
      },
      stop: () => broker.close(),
    };
  },
} satisfies PeerStarter;
