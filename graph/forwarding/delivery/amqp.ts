import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import { GridportError } from '../../../contracts/errors';
import type { ForwardedMessage } from '../../../contracts/forwarding';
import { resolveTarget } from './address-guard';
import type { Deliverer, DelivererFactory } from './deliverer';

/** How long opening the connection (TCP, TLS, AMQP handshake) may take. */
const connectTimeoutMs = 10_000;
/** How long the broker may take to confirm a whole batch. */
const confirmTimeoutMs = 30_000;

/** The message id: the same for a message delivered again, so consumers can drop repeats. */
export function amqpMessageId(message: ForwardedMessage): string {
  return `${message.position}.${message.messageType}.${message.asset?.index ?? 'device'}`;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The broker's reason without the client's stack or the credentials (amqplib's messages hold neither). */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface Open {
  connection: ChannelModel;
  channel: ConfirmChannel;
  state: {
    /** The first error the connection or channel reported since it opened (a channel closed by the broker, a lost socket). */
    failure: Error | null;
    /** Messages the broker returned as routed to no queue, since the last batch began. */
    returned: number;
  };
}

/**
 * AMQP 0-9-1 (RabbitMQ and kin) with amqplib: one connection and one confirm channel kept
 * between batches; each message is published persistent, as JSON, with its message id and
 * `messageType`/`version` headers, and mandatory, so a message that reaches no queue fails the
 * batch instead of vanishing. A batch counts once the broker confirmed every message.
 */
export const amqpDeliverer: DelivererFactory<'amqp'> = (settings, context) => {
  let open: Open | null = null;

  async function connect(): Promise<Open> {
    const target = await resolveTarget(settings.host, context.policy);
    const isName = target.address !== settings.host.replace(/^\[(.*)\]$/, '$1');
    const connection = await amqp.connect(
      {
        protocol: settings.tls ? 'amqps' : 'amqp',
        hostname: target.address,
        port: settings.port,
        username: settings.username,
        password: settings.password ?? '',
        vhost: settings.virtualHost,
        heartbeat: 30,
      },
      {
        timeout: connectTimeoutMs,
        ...(settings.tls ? { servername: isName ? settings.host : undefined, ca: settings.tlsCaCertificate } : {}),
      },
    );
    const state = { failure: null as Error | null, returned: 0 };
    const fail = (error: Error) => {
      state.failure ??= error;
    };
    connection.on('error', fail);
    connection.on('close', () => fail(new Error('the connection to the broker closed')));
    let channel: ConfirmChannel;
    try {
      channel = await connection.createConfirmChannel();
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
    channel.on('error', fail);
    channel.on('close', () => fail(new Error('the broker closed the channel')));
    channel.on('return', () => {
      state.returned += 1;
    });
    return { connection, channel, state };
  }

  async function drop(): Promise<void> {
    const current = open;
    open = null;
    if (current) {
      await current.connection.close().catch(() => undefined);
    }
  }

  async function publish(messages: readonly ForwardedMessage[]): Promise<void> {
    if (open?.state.failure) {
      // Lost between batches (the broker restarted, a heartbeat missed): start afresh.
      await drop();
    }
    open ??= await withTimeout(connect(), connectTimeoutMs + 5_000, `connecting to ${settings.host}:${settings.port}`);
    const current = open;
    current.state.returned = 0;
    for (const message of messages) {
      const routingKey = settings.routingKey || `${message.messageType}.${message.device.hashId}`;
      // publish returns false when the socket buffer is full; the confirms below wait for it all the same.
      current.channel.publish(settings.exchange, routingKey, Buffer.from(JSON.stringify(message)), {
        persistent: true,
        mandatory: true,
        contentType: 'application/json',
        messageId: amqpMessageId(message),
        type: message.messageType,
        timestamp: Math.floor(Date.parse(message.at) / 1000),
        headers: { messageType: message.messageType, version: message.version },
      });
    }
    await withTimeout(current.channel.waitForConfirms(), confirmTimeoutMs, 'the broker confirming the batch');
    if (current.state.failure) {
      throw current.state.failure;
    }
    if (current.state.returned > 0) {
      const where = settings.exchange === '' ? 'the default exchange' : `exchange '${settings.exchange}'`;
      throw new Error(`${where} routed ${current.state.returned} of ${messages.length} messages to no queue (check its bindings and the routing key)`);
    }
  }

  const deliverer: Deliverer = {
    async deliver(messages) {
      if (messages.length === 0) {
        return;
      }
      try {
        await publish(messages);
      } catch (error) {
        const failure = open?.state.failure ?? error;
        await drop();
        if (error instanceof GridportError) {
          throw error;
        }
        throw new Error(`amqp ${settings.host}:${settings.port}: ${reasonOf(failure)}`);
      }
    },
    async close() {
      await drop();
    },
  };
  return deliverer;
};
