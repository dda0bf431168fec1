import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import amqp from 'amqplib';
import { Connection, ReceiverEvents, type Message } from 'rhea-promise';
import type { ForwardedMessage } from '../../contracts/forwarding';
import { receivedOf, type ForwardingPeer, type PeerStarter, type ReceivedMessage } from './peer';
import { selfSigned } from '../tls';

/** The machine's RabbitMQ, whose rabbitmq_amqp1_0 plugin speaks AMQP 1.0 on its AMQP port. */
const brokerHost = '127.0.0.1';
const brokerPort = 5672;
const brokerUser = 'guest';
const brokerPassword = 'guest';

let found: string | null | undefined;

/** Whether the broker answers an AMQP 1.0 SASL header in kind (a broker without the plugin answers with 0-9-1's). */
function amqp10Missing(): string | null {
  const probe = `const s = require('net').connect(${brokerPort}, '${brokerHost}', () => s.write(Buffer.from([65,77,81,80,3,1,0,0])));
s.on('data', (d) => process.exit(d.subarray(0, 8).equals(Buffer.from([65,77,81,80,3,1,0,0])) ? 0 : 2));
s.on('error', () => process.exit(1)); setTimeout(() => process.exit(1), 2500);`;
  const status = spawnSync(process.execPath, ['-e', probe], { timeout: 3000 }).status;
  if (status === 0) {
    return null;
  }
  return status === 2
    ? `the broker at ${brokerHost}:${brokerPort} does not speak AMQP 1.0 (rabbitmq-plugins enable rabbitmq_amqp1_0)`
    : `no AMQP broker at ${brokerHost}:${brokerPort} (apt-get install rabbitmq-server; rabbitmq-plugins enable rabbitmq_amqp1_0)`;
}

/** A certificate for `localhost`, made with openssl in a temp dir: Service Bus speaks only TLS, so the peer does too. */
function localhostCertificate(): { key: string; cert: string } {
  const directory = mkdtempSync(path.join(tmpdir(), 'gridport-asb-'));
  try {
    const { privateKeyPem, certificatePem } = selfSigned(directory, 'localhost', 'DNS:localhost');
    return { key: privateKeyPem, cert: certificatePem };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

function bodyText(message: Message): string {
  const body: unknown = message.body;
  if (Buffer.isBuffer(body)) {
    return body.toString('utf8');
  }
  const content = (body as { content?: unknown } | null)?.content;
  if (Buffer.isBuffer(content)) {
    return content.toString('utf8');
  }
  throw new Error(`a message arrived with a body that is not a data section: ${JSON.stringify(body)}`);
}

/** What a message carried besides its body: its session (AMQP group-id) and partition key. */
export interface ServiceBusArrival {
  position: string;
  sessionId: string | null;
  partitionKey: string | null;
}

export interface ServiceBusPeer extends ForwardingPeer {
  /** Every message's session and partition key, in the order they arrived (read after `received()`). */
  arrivals: ServiceBusArrival[];
}

export interface ServiceBusPeerStarter extends PeerStarter {
  start(): Promise<ServiceBusPeer>;
}

/**
 * A Service Bus stand-in: a fresh queue on the machine's RabbitMQ (AMQP 1.0 through its
 * rabbitmq_amqp1_0 plugin, SASL PLAIN with guest/guest as the key name and key), reached
 * through a TLS front on a free port with a certificate for `localhost`, as Azure's own
 * gateway terminates TLS. `break` closes the front (connections refused), `heal` opens it on
 * the same port. What arrives is read by an AMQP 1.0 receiver on the queue.
 */
export const azureServiceBusPeer: ServiceBusPeerStarter = {
  kind: 'azure-service-bus',
  missing() {
    if (found === undefined) {
      found = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0 ? amqp10Missing() : 'openssl is not installed (apt-get install openssl)';
    }
    return found;
  },
  async start(): Promise<ServiceBusPeer> {
    const queue = `gridport-test-asb-${randomBytes(6).toString('hex')}`;
    const admin = await amqp.connect({ hostname: brokerHost, port: brokerPort, username: brokerUser, password: brokerPassword });
    admin.on('error', () => undefined);
    const channel = await admin.createChannel();
    // Not durable: the plugin declares a plain target address as a queue whose durability follows the link's terminus (not durable).
    await channel.assertQueue(queue, { durable: false, autoDelete: false });

    const { key, cert } = localhostCertificate();
    const sockets = new Set<Socket>();
    const front: TlsServer = createTlsServer({ key, cert }, (client) => {
      const upstream = netConnect(brokerPort, brokerHost);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    front.on('error', () => undefined);
    const listen = (port: number) =>
      new Promise<void>((resolve, reject) => {
        front.once('error', reject);
        front.listen(port, '127.0.0.1', () => {
          front.off('error', reject);
          resolve();
        });
      });
    const shut = () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        front.close(() => resolve());
      });
    await listen(0);
    const port = (front.address() as { port: number }).port;

    const arrived: ReceivedMessage[] = [];
    const arrivals: ServiceBusArrival[] = [];
    let lastArrival = Date.now();
    const reader = new Connection({ host: brokerHost, port: brokerPort, transport: 'tcp', username: brokerUser, password: brokerPassword, reconnect: false });
    await reader.open();
    const receiver = await reader.createReceiver({ source: { address: `/amq/queue/${queue}` }, credit_window: 200, autoaccept: true });
    const problems: string[] = [];
    receiver.on(ReceiverEvents.message, (context) => {
      lastArrival = Date.now();
      const message = context.message;
      if (!message) {
        return;
      }
      const forwarded = JSON.parse(bodyText(message)) as ForwardedMessage;
      const properties = message.application_properties as Record<string, unknown> | undefined;
      if (
        message.content_type !== 'application/json' ||
        properties?.messageType !== forwarded.messageType ||
        properties.version !== forwarded.version ||
        typeof message.message_id !== 'string' ||
        !message.message_id.startsWith(`${forwarded.position}.`)
      ) {
        problems.push(`message ${forwarded.position} arrived with unexpected properties: ${JSON.stringify({ ...message, body: undefined })}`);
      }
      arrived.push(receivedOf(forwarded));
      const partitionKey = (message.message_annotations as Record<string, unknown> | undefined)?.['x-opt-partition-key'];
      arrivals.push({
        position: forwarded.position,
        sessionId: typeof message.group_id === 'string' ? message.group_id : null,
        partitionKey: typeof partitionKey === 'string' ? partitionKey : null,
      });
    });

    return {
      kind: 'azure-service-bus',
      arrivals,
      settings: {
        host: 'localhost',
        port,
        tls: true,
        tlsCaCertificate: cert,
        entityPath: queue,
        sharedAccessKeyName: brokerUser,
        sharedAccessKey: brokerPassword,
      },
      async received() {
        // Accepted means queued; wait until the queue is empty and nothing came for a moment.
        for (let round = 0; round < 100; round += 1) {
          const { messageCount } = await channel.checkQueue(queue);
          if (messageCount === 0 && Date.now() - lastArrival > 150) {
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        if (problems.length > 0) {
          throw new Error(problems.join('\n'));
        }
        return [...arrived];
      },
      async break() {
        await shut();
      },
      async heal() {
        await listen(port);
      },
      async stop() {
        await shut();
        await reader.close().catch(() => undefined);
        await channel.deleteQueue(queue).catch(() => undefined);
        await admin.close().catch(() => undefined);
      },
    };
  },
};
