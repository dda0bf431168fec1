import { createServer, type Server, type Socket } from 'node:net';
import pino from 'pino';
import { destinationSettingsSchemas, type DestinationSettingsOf, type ForwardedMessage, type MessageType } from '../../../contracts/forwarding';
import { GridportError } from '../../../contracts/errors';
import { azureServiceBusPeer } from '../../../test-support/forwarding-peers/azure-service-bus';
import { receivedOf, type ForwardingPeer } from '../../../test-support/forwarding-peers/peer';
import { requireServices } from '../../../test-support/services';
import { azureServiceBusDeliverer } from './azure-service-bus';
import type { DeliveryContext } from './deliverer';

const missing = azureServiceBusPeer.missing();
if (missing && !requireServices) {
  process.stderr.write(`graph/forwarding/delivery/azure-service-bus.test.ts: skipped, ${missing} (REQUIRE_SERVICES=1 makes this a failure)\n`);
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

function settingsOf(peer: ForwardingPeer, overrides: Record<string, unknown> = {}): DestinationSettingsOf<'azure-service-bus'> {
  return destinationSettingsSchemas['azure-service-bus'].validateSync({ ...peer.settings, ...overrides });
}

describeWithBroker('azure-service-bus deliverer against an AMQP 1.0 broker behind TLS', () => {
  let peer: ForwardingPeer;
  let where: string;

  beforeAll(async () => {
    peer = await azureServiceBusPeer.start();
    where = `azure-service-bus localhost:${String(peer.settings.port)}/${String(peer.settings.entityPath)}`;
  });
  afterAll(async () => {
    await peer?.stop();
  });

  it('sends batches as JSON data sections with message ids and type properties, in order', async () => {
    const deliverer = azureServiceBusDeliverer(settingsOf(peer), contextOf(true));
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

  it('a batch delivered twice arrives twice with the same message ids (the broker has no duplicate detection)', async () => {
    const deliverer = azureServiceBusDeliverer(settingsOf(peer), contextOf(true));
    const messages = batch(20, 2);
    try {
      await deliverer.deliver(messages);
      await deliverer.deliver(messages);
    } finally {
      await deliverer.close();
    }
    expect((await peer.received()).slice(-4)).toEqual([...messages, ...messages].map(receivedOf));
  });

  it('a broker out of reach fails the batch; after heal the same deliverer connects again', async () => {
    const deliverer = azureServiceBusDeliverer(settingsOf(peer), contextOf(true));
    try {
      await deliverer.deliver(batch(30, 1));
      await peer.break();
      await expect(deliverer.deliver(batch(31, 2))).rejects.toThrow(new RegExp(`^${where}: .*(EPIPE|ECONNRESET|ECONNREFUSED|closed|lost)`, 'i'));
      await expect(deliverer.deliver(batch(31, 2))).rejects.toThrow(`${where}: connect ECONNREFUSED 127.0.0.1:${String(peer.settings.port)}`);
      await peer.heal();
      await deliverer.deliver(batch(31, 2));
    } finally {
      await deliverer.close();
    }
    expect((await peer.received()).slice(-3)).toEqual(batch(30, 3).map(receivedOf));
  });

  it('a wrong key fails with the broker refusal and no secret in the message', async () => {
    const deliverer = azureServiceBusDeliverer(settingsOf(peer, { sharedAccessKey: 'not-the-key' }), contextOf(true));
    try {
      const failure = deliverer.deliver(batch(50, 1));
      await expect(failure).rejects.toThrow(`${where}: amqp:unauthorized-access`);
      await expect(failure).rejects.not.toThrow(/not-the-key/);
    } finally {
      await deliverer.close();
    }
  });

  it('a server certificate that does not chain to the configured CA is refused', async () => {
    const deliverer = azureServiceBusDeliverer(settingsOf(peer, { tlsCaCertificate: undefined }), contextOf(true));
    try {
      await expect(deliverer.deliver(batch(60, 1))).rejects.toThrow(`${where}: self-signed certificate`);
    } finally {
      await deliverer.close();
    }
  });
});

describe('azure-service-bus deliverer and the address guard', () => {
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
    const settings = destinationSettingsSchemas['azure-service-bus'].validateSync({
      host,
      port,
      tls: false,
      entityPath: 'readings',
      sharedAccessKeyName: 'RootManageSharedAccessKey',
      sharedAccessKey: 'secret',
    });
    const deliverer = azureServiceBusDeliverer(settings, contextOf(false));
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
