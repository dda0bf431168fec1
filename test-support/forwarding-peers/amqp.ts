import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import type { ForwardedMessage } from '../../contracts/forwarding';
import { reachable } from '../services';
import { receivedOf, type ForwardingPeer, type PeerStarter, type ReceivedMessage } from './peer';

/** The machine's RabbitMQ (guest/guest on 127.0.0.1:5672), or AMQP_PEER_URL. */
const brokerUrl = process.env.AMQP_PEER_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

let found: boolean | undefined;

/**
 * A fresh topic exchange on the machine's RabbitMQ with an exclusive queue bound to it by '#',
 * for one test file: the deliverer publishes to the exchange, `received` drains the queue.
 * `break` deletes the exchange (publishing to it then fails with the broker's NOT_FOUND);
 * `heal` declares and binds it again. The queue goes with the peer's connection.
 */
export const amqpPeer: PeerStarter = {
  kind: 'amqp',
  missing() {
    found ??= reachable(brokerUrl, 5672);
    return found ? null : `no AMQP broker at ${new URL(brokerUrl).host} (apt-get install rabbitmq-server, or set AMQP_PEER_URL)`;
  },
  async start(): Promise<ForwardingPeer> {
    const url = new URL(brokerUrl);
    const connection = await amqp.connect(brokerUrl);
    connection.on('error', () => undefined);
    const channel = await connection.createChannel();
    const exchange = `gridport-test-${randomBytes(6).toString('hex')}`;
    const { queue } = await channel.assertQueue('', { exclusive: true, durable: false });
    const declare = async () => {
      await channel.assertExchange(exchange, 'topic', { durable: false, autoDelete: false });
      await channel.bindQueue(queue, exchange, '#');
    };
    await declare();
    const arrived: ReceivedMessage[] = [];

    return {
      kind: 'amqp',
      settings: {
        host: url.hostname,
        port: Number(url.port || 5672),
        username: decodeURIComponent(url.username),
        password: decodeURIComponent(url.password),
        virtualHost: url.pathname.length > 1 ? decodeURIComponent(url.pathname.slice(1)) : '/',
        exchange,
        routingKey: '',
      },
      async received() {
        // Everything confirmed is in the queue already; drain it, checking what the deliverer promised besides the body.
        for (;;) {
          const got = await channel.get(queue, { noAck: true });
          if (got === false) {
            break;
          }
          const message = JSON.parse(got.content.toString('utf8')) as ForwardedMessage;
          const { properties, fields } = got;
          const expectedKey = `${message.messageType}.${message.device.hashId}`;
          const headers = properties.headers as Record<string, unknown> | undefined;
          if (
            properties.contentType !== 'application/json' ||
            properties.deliveryMode !== 2 ||
            headers?.messageType !== message.messageType ||
            headers.version !== message.version ||
            typeof properties.messageId !== 'string' ||
            !properties.messageId.startsWith(`${message.position}.`) ||
            fields.routingKey !== expectedKey
          ) {
            throw new Error(`message ${message.position} arrived with unexpected properties: ${JSON.stringify({ properties, routingKey: fields.routingKey })}`);
          }
          arrived.push(receivedOf(message));
        }
        return [...arrived];
      },
      async break() {
        await channel.deleteExchange(exchange);
      },
      async heal() {
        await declare();
      },
      async stop() {
        await channel.deleteExchange(exchange).catch(() => undefined);
        await connection.close().catch(() => undefined);
      },
    };
  },
};
