import { connect as netConnect, isIP, Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Kafka, logLevel, type ISocketFactory, type Producer, type SASLOptions } from 'kafkajs';
import { GridportError } from '../../../contracts/errors';
import type { ForwardedMessage } from '../../../contracts/forwarding';
import { checkAddress, guardedLookup, resolveTarget, type AddressPolicy } from './address-guard';
import type { Deliverer, DelivererFactory } from './deliverer';

const connectionTimeoutMs = 10_000;
const requestTimeoutMs = 30_000;

/** The message id header: the same for a message delivered again, so consumers can drop repeats. */
export function kafkaMessageId(message: ForwardedMessage): string {
  return `${message.position}.${message.messageType}.${message.asset?.index ?? 'device'}`;
}

/**
 * Sockets for kafkajs that go through the address guard: the bootstrap brokers and every
 * broker the cluster advertises in its metadata. A name is resolved by the guarded lookup, an
 * IP literal checked here; a refusal is handed to `refused` (kafkajs wraps socket errors, so
 * the deliverer rethrows it as is) and the socket fails before a byte is sent.
 */
export function guardedSocketFactory(policy: AddressPolicy, refused: (error: GridportError) => void): ISocketFactory {
  const lookup = guardedLookup(policy);
  const watchedLookup: typeof lookup = (hostname, options, callback) =>
    lookup(hostname, options, (error, ...rest) => {
      if (error instanceof GridportError) {
        refused(error);
      }
      (callback as (...args: unknown[]) => void)(error, ...rest);
    });
  return ({ host, port, ssl, onConnect }) => {
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    if (isIP(bare)) {
      try {
        checkAddress(host, bare, policy);
      } catch (error) {
        refused(error as GridportError);
        const socket = new Socket();
        process.nextTick(() => socket.destroy(error as Error));
        return socket;
      }
    }
    const socket = ssl
      ? tlsConnect({ host: bare, port, lookup: watchedLookup, ...(isIP(bare) ? {} : { servername: bare }), ...ssl }, onConnect)
      : netConnect({ host: bare, port, lookup: watchedLookup }, onConnect);
    socket.setKeepAlive(true, 60_000);
    return socket;
  };
}

function saslOf(settings: Parameters<DelivererFactory<'kafka'>>[0]): SASLOptions | undefined {
  if (!settings.saslMechanism) {
    return undefined;
  }
  const credentials = { username: settings.username ?? '', password: settings.password ?? '' };
  switch (settings.saslMechanism) {
    case 'plain':
      return { mechanism: 'plain', ...credentials };
    case 'scram-sha-256':
      return { mechanism: 'scram-sha-256', ...credentials };
    case 'scram-sha-512':
      return { mechanism: 'scram-sha-512', ...credentials };
  }
}

/**
 * Kafka with kafkajs: an idempotent producer (acks from all in-sync replicas, retries without
 * duplicates within its session) kept between batches. Each message is keyed by its device's
 * hash id, so one device's messages go to one partition, in order; the value is the message's
 * JSON, the headers carry messageType, version and the message id. A batch counts once every
 * partition's leader acknowledged it.
 */
export const kafkaDeliverer: DelivererFactory<'kafka'> = (settings, context) => {
  let producer: Producer | null = null;
  let refusal: GridportError | null = null;

  function build(): Producer {
    const kafka = new Kafka({
      clientId: settings.clientId,
      brokers: settings.brokers,
      ssl: settings.tls ? (settings.tlsCaCertificate ? { ca: [settings.tlsCaCertificate] } : true) : false,
      sasl: saslOf(settings),
      connectionTimeout: connectionTimeoutMs,
      requestTimeout: requestTimeoutMs,
      retry: { retries: 2, initialRetryTime: 300, maxRetryTime: 3_000 },
      socketFactory: guardedSocketFactory(context.policy, (error) => {
        refusal ??= error;
      }),
      logLevel: logLevel.NOTHING,
    });
    return kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  }

  async function drop(): Promise<void> {
    const current = producer;
    producer = null;
    if (current) {
      await current.disconnect().catch(() => undefined);
    }
  }

  const deliverer: Deliverer = {
    async deliver(messages) {
      if (messages.length === 0) {
        return;
      }
      refusal = null;
      try {
        // The bootstrap brokers are checked before kafkajs dials any; the advertised ones in the socket factory.
        for (const broker of settings.brokers) {
          await resolveTarget(broker.replace(/:\d+$/, ''), context.policy);
        }
        if (!producer) {
          producer = build();
          await producer.connect();
        }
        await producer.send({
          topic: settings.topic,
          acks: -1,
          timeout: requestTimeoutMs,
          messages: messages.map((message) => ({
            key: message.device.hashId,
            value: JSON.stringify(message),
            timestamp: String(Date.parse(message.at)),
            headers: { messageType: message.messageType, version: String(message.version), messageId: kafkaMessageId(message) },
          })),
        });
      } catch (error) {
        await drop();
        const refused = error instanceof GridportError ? error : refusal;
        if (refused) {
          throw refused;
        }
        throw new Error(`kafka ${settings.brokers.join(',')} topic ${settings.topic}: ${reasonOf(error)}`);
      }
    },
    async close() {
      await drop();
    },
  };
  return deliverer;
};

/** kafkajs's message, with the broker's reason when it gave up after retries. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) {
    return String(error);
  }
  const cause = (error as { originalError?: unknown }).originalError;
  if (cause instanceof Error && cause.message !== error.message) {
    return `${error.message} (${cause.message})`;
  }
  return error.message;
}
