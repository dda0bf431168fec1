import { createServer, type Server, type Socket } from 'node:net';
import pino from 'pino';
import { destinationSettingsSchemas, type DestinationSettingsOf, type ForwardedMessage, type MessageType } from '../../../contracts/forwarding';
import { GridportError } from '../../../contracts/errors';
import { amqpPeer } from '../../../test-support/forwarding-peers/amqp';
import { receivedOf, type ForwardingPeer } from '../../../test-support/forwarding-peers/peer';
import { requireServices } from '../../../test-support/services';
import { amqpDeliverer } from './amqp';
import type { DeliveryContext } from './deliverer';

const missing = amqpPeer.missing();
if (missing && !requireServices) {
  process.stderr.write(`graph/forwarding/delivery/amqp.test.ts: skipped, ${missing} (REQUIRE_SERVICES=1 makes this a failure)\n`);
}
const describeWithBroker = missing && !requireServices ? describe.skip : describe;

const devices = [
  { hashId: 'dv1a', name: 'Roof east', identifier: 'inv-001' },
  { hashId: 'dv2b', name: 'Battery hall', identifier: null },
  { hashId: 'dv3c', name: 'Meter main', identifier: 'mtr-9' },
];
const types: MessageType[] = ['solarPower', 'batteryPower', 'meterPower', 'alarm'];

/** `count` messages from `from` on, over the three devices and four message types. */
function batch(from: number, count: number): ForwardedMessage[] {
  return Array.from({ length: count }, (_, offset) => {
    const position = from + offset;
    const device = devices[position % devices.length] ?? { hashId: 'dv0', name: 'Spare', identifier: null };
    const messageType = types[position % types.length] ?? 'solarPower';
    const at = new Date(Date.UTC(2026, 10, 20, 12, 0, position)).toISOString();
    return {
      messageType,
      version: messageType === 'alarm' ? 1 : 2,
      id: `${device.hashId}-${position}`,
      position: String(position),
      device,
      asset: messageType === 'alarm' ? null : { index: position % 2, identifier: `asset-${position % 2}`, type: 'inverter' },
      at,
      receivedAt: at,
      values: messageType === 'alarm' ? { code: 'overTemperature', active: true } : { activePower: position * 10.5, energy: { total: position * 1000 } },
    };
  });
}

function contextOf(allowPrivateNetworks: boolean): DeliveryContext {
  return { destinationHashId: 'dst1', policy: { allowPrivateNetworks }, log: pino({ level: 'silent' }) };
}

function settingsOf(peer: ForwardingPeer, overrides: Record<string, unknown> = {}): DestinationSettingsOf<'amqp'> {
  return destinationSettingsSchemas.amqp.validateSync({ ...peer.settings, ...overrides });
}

describeWithBroker('amqp deliverer against RabbitMQ', () => {
  let peer: ForwardingPeer;

  beforeAll(async () => {
    peer = await amqpPeer.start();
  });
  afterAll(async () => {
    await peer?.stop();
  });

  it('publishes batches persistent, as JSON, with message ids and type headers, in order', async () => {
    const deliverer = amqpDeliverer(settingsOf(peer), contextOf(true));
    const sent = [batch(1, 3), batch(4, 5), batch(9, 2)];
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
    const deliverer = amqpDeliverer(settingsOf(peer), contextOf(true));
    const messages = batch(20, 2);
    try {
      await deliverer.deliver(messages);
      await deliverer.deliver(messages);
    } finally {
      await deliverer.close();
    }
    expect((await peer.received()).slice(-4)).toEqual([...messages, ...messages].map(receivedOf));
  });

  it('a broken exchange fails the batch with the broker reason; after heal the same deliverer works again', async () => {
    const deliverer = amqpDeliverer(settingsOf(peer), contextOf(true));
    try {
      await deliverer.deliver(batch(30, 1));
      await peer.break();
      const exchange = String(peer.settings.exchange);
      await expect(deliverer.deliver(batch(31, 2))).rejects.toThrow(
        `amqp 127.0.0.1:5672: Channel closed by server: 404 (NOT-FOUND) with message "NOT_FOUND - no exchange '${exchange}' in vhost '/'"`,
      );
      await peer.heal();
      await deliverer.deliver(batch(31, 2));
    } finally {
      await deliverer.close();
    }
    expect((await peer.received()).slice(-3)).toEqual(batch(30, 3).map(receivedOf));
  });

  it('a message that reaches no queue fails the batch', async () => {
    const deliverer = amqpDeliverer(settingsOf(peer, { exchange: '', routingKey: 'gridport-no-such-queue' }), contextOf(true));
    try {
      await expect(deliverer.deliver(batch(40, 2))).rejects.toThrow(
        'amqp 127.0.0.1:5672: the default exchange routed 2 of 2 messages to no queue (check its bindings and the routing key)',
      );
    } finally {
      await deliverer.close();
    }
  });

  it('a wrong password fails with the broker refusal and no secret in the message', async () => {
    const deliverer = amqpDeliverer(settingsOf(peer, { password: 'not-the-password' }), contextOf(true));
    try {
      const failure = deliverer.deliver(batch(50, 1));
      await expect(failure).rejects.toThrow(/^amqp 127\.0\.0\.1:5672: .*ACCESS_REFUSED/);
      await expect(failure).rejects.not.toThrow(/not-the-password/);
    } finally {
      await deliverer.close();
    }
  });
});

describe('amqp deliverer and the address guard', () => {
  let listener: Server;
  const accepted: Socket[] = [];

  beforeAll(async () => {
    listener = createServer((socket) => {
      accepted.push(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => listener.close(resolve));
  });

  it.each(['127.0.0.1', 'localhost'])('refuses %s with destination_address_not_allowed before connecting', async (host) => {
    const port = (listener.address() as { port: number }).port;
    const settings = destinationSettingsSchemas.amqp.validateSync({ host, port, username: 'guest', password: 'guest', exchange: 'x' });
    const deliverer = amqpDeliverer(settings, contextOf(false));
    try {
      const failure = deliverer.deliver(batch(1, 1));
      await expect(failure).rejects.toBeInstanceOf(GridportError);
      await expect(failure).rejects.toMatchObject({ key: 'destination_address_not_allowed' });
    } finally {
      await deliverer.close();
    }
    expect(accepted).toHaveLength(0);
  });
});
