import { Connection, ConnectionEvents, message as amqpMessage, type AwaitableSender, type Message } from 'rhea-promise';
import { GridportError } from '../../../contracts/errors';
import type { ForwardedMessage } from '../../../contracts/forwarding';
import { resolveTarget } from './address-guard';
import type { Deliverer, DelivererFactory } from './deliverer';

/** Opening the connection and the link (TCP, TLS, SASL, AMQP open and attach) and each send may take this long. */
const operationTimeoutSeconds = 15;
/** How long a batch may wait for link credit from the broker. */
const creditWaitMs = 15_000;

/** The message id: the same for a message delivered again, which the entity's duplicate detection drops. */
export function serviceBusMessageId(message: ForwardedMessage): string {
  return `${message.position}.${message.messageType}.${message.asset?.index ?? 'device'}`;
}

/** A message as sent: with `sessionId`, every message carries it as its group id (a session) and as its partition key, which Service Bus wants equal. */
function bodyOf(message: ForwardedMessage, sessionId: string | undefined): Message {
  return {
    // A data section, as Azure's own SDKs send bytes: the ForwardedMessage JSON as is.
    body: amqpMessage.data_section(Buffer.from(JSON.stringify(message))),
    message_id: serviceBusMessageId(message),
    content_type: 'application/json',
    subject: message.messageType,
    durable: true,
    application_properties: { messageType: message.messageType, version: message.version },
    // A partitioned entity keeps one device's messages in one partition, so in order.
    message_annotations: { 'x-opt-partition-key': sessionId ?? message.device.hashId },
    ...(sessionId === undefined ? {} : { group_id: sessionId }),
  };
}

async function untilSendable(sender: AwaitableSender): Promise<void> {
  const until = Date.now() + creditWaitMs;
  while (!sender.sendable()) {
    if (Date.now() > until || !sender.isOpen()) {
      throw new Error(`the broker gave no link credit within ${creditWaitMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The broker's condition and description (an amqp:unauthorized-access, amqp:not-found, ...), or the socket's error. */
function reasonOf(error: unknown): string {
  if (error && typeof error === 'object') {
    const { condition, description, message } = error as { condition?: unknown; description?: unknown; message?: unknown };
    if (typeof condition === 'string') {
      return typeof description === 'string' && description !== '' ? `${condition}: ${description}` : condition;
    }
    if (typeof message === 'string') {
      return message;
    }
  }
  return String(error);
}

interface Open {
  connection: Connection;
  sender: AwaitableSender;
  /** Rejects when the connection is lost: the sends waiting for their outcome would otherwise wait for their timeout. */
  lost: Promise<never>;
}

/**
 * Azure Service Bus over AMQP 1.0 with rhea-promise and SASL PLAIN (the shared access key's
 * name and key), the way Service Bus serves AMQP clients other than its own SDKs; Azure's SDK
 * needs the claims-based-security node only Azure has. One connection and sender link to the
 * queue or topic are kept between batches; a batch counts once every message was accepted.
 */
export const azureServiceBusDeliverer: DelivererFactory<'azure-service-bus'> = (settings, context) => {
  let open: Open | null = null;
  const where = `${settings.host}:${settings.port}/${settings.entityPath}`;

  async function connect(): Promise<Open> {
    const target = await resolveTarget(settings.host, context.policy);
    const isName = target.address !== settings.host.replace(/^\[(.*)\]$/, '$1');
    const connection = new Connection({
      host: target.address,
      port: settings.port,
      // The AMQP open frame and SASL name the namespace, as with Azure's own clients.
      hostname: settings.host,
      sasl_init_hostname: settings.host,
      username: settings.sharedAccessKeyName,
      password: settings.sharedAccessKey,
      reconnect: false,
      idle_time_out: 60_000,
      operationTimeoutInSeconds: operationTimeoutSeconds,
      ...(settings.tls ? { transport: 'tls' as const, servername: isName ? settings.host : '', ca: settings.tlsCaCertificate } : { transport: 'tcp' as const }),
    });
    const lost = new Promise<never>((_, reject) => {
      connection.on(ConnectionEvents.disconnected, (event) => reject(event.error ?? new Error('the connection to the broker was lost')));
    });
    lost.catch(() => undefined);
    try {
      await connection.open();
      const sender = await connection.createAwaitableSender({ target: { address: settings.entityPath } });
      return { connection, sender, lost };
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }

  async function drop(): Promise<void> {
    const current = open;
    open = null;
    if (current) {
      await current.connection.close().catch(() => undefined);
    }
  }

  async function send(messages: readonly ForwardedMessage[]): Promise<void> {
    if (open && (!open.connection.isOpen() || !open.sender.isOpen())) {
      await drop();
    }
    open ??= await connect();
    const { sender, lost } = open;
    const sends: Promise<unknown>[] = [];
    // Aborting clears the send timers of a batch that failed as a whole (a lost connection).
    const abort = new AbortController();
    try {
      for (const message of messages) {
        await untilSendable(sender);
        sends.push(sender.send(bodyOf(message, settings.sessionId), { timeoutInSeconds: operationTimeoutSeconds, abortSignal: abort.signal }));
      }
      // Wait for every outcome (so none is left unobserved), then fail on the first refusal.
      const outcomes = await Promise.race([Promise.allSettled(sends), lost]);
      const refused = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (refused) {
        throw refused.reason;
      }
    } catch (error) {
      for (const pending of sends) {
        pending.catch(() => undefined);
      }
      abort.abort();
      throw error;
    }
  }

  const deliverer: Deliverer = {
    async deliver(messages) {
      if (messages.length === 0) {
        return;
      }
      try {
        await send(messages);
      } catch (error) {
        await drop();
        if (error instanceof GridportError) {
          throw error;
        }
        throw new Error(`azure-service-bus ${where}: ${reasonOf(error)}`);
      }
    },
    async close() {
      await drop();
    },
  };
  return deliverer;
};
