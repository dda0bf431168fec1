import { destinationSettingsSchemas, type DestinationSettingsOf } from '../../../contracts/forwarding';
import { GridportError } from '../../../contracts/errors';
import { azureServiceBusPeer, type ServiceBusPeer } from '../../../test-support/forwarding-peers/azure-service-bus';
import { forwardedBatch } from '../../../test-support/forwarding-peers/messages';
import { connectionCounter, deliveryContext, describeWithPeer, receivedOf, type ForwardingPeer } from '../../../test-support/forwarding-peers/peer';
import { azureServiceBusDeliverer } from './azure-service-bus';

function settingsOf(peer: ForwardingPeer, overrides: Record<string, unknown> = {}): DestinationSettingsOf<'azure-service-bus'> {
  return destinationSettingsSchemas['azure-service-bus'].validateSync({ ...peer.settings, ...overrides });
}

describeWithPeer(azureServiceBusPeer, __filename)('azure-service-bus deliverer against an AMQP 1.0 broker behind TLS', () => {
  let peer: ServiceBusPeer;
  let where: string;

  beforeAll(async () => {
    peer = await azureServiceBusPeer.start();
    where = `azure-service-bus localhost:${String(peer.settings.port)}/${String(peer.settings.entityPath)}`;
  });
  afterAll(async () => {
    await peer?.stop();
  });

  it('sends batches as JSON data sections with message ids and type properties, in order', async () => {
    const deliverer = azureServiceBusDeliverer(settingsOf(peer), deliveryContext(true));
    const sent = [forwardedBatch(1, 3), forwardedBatch(4, 5), forwardedBatch(9, 2)];
    try {
      for (const messages of sent) {
        await deliverer.deliver(messages);
      }
    } finally {
      await deliverer.close();
    }
    expect(await peer.received()).toEqual(sent.flat().map(receivedOf));
  });

  it('with sessionId, every message carries it as its session (group-id) and partition key; without, the device is the partition key', async () => {
    const sessionId = 'plant-7/reports';
    const inSession = forwardedBatch(70, 4);
    const plain = forwardedBatch(74, 2);
    const withSession = azureServiceBusDeliverer(settingsOf(peer, { sessionId }), deliveryContext(true));
    const without = azureServiceBusDeliverer(settingsOf(peer), deliveryContext(true));
    try {
      await withSession.deliver(inSession);
      await without.deliver(plain);
    } finally {
      await withSession.close();
      await without.close();
    }
    expect((await peer.received()).slice(-6)).toEqual([...inSession, ...plain].map(receivedOf));
    expect(peer.arrivals.slice(-6)).toEqual([
      ...inSession.map((message) => ({ position: message.position, sessionId, partitionKey: sessionId })),
      ...plain.map((message) => ({ position: message.position, sessionId: null, partitionKey: message.device.hashId })),
    ]);
  });

  it('refuses a sessionId longer than Service Bus takes (128 characters) when the settings are checked', () => {
    expect(() => settingsOf(peer, { sessionId: 's'.repeat(129) })).toThrow('sessionId must be at most 128 characters');
    expect(settingsOf(peer, { sessionId: ` ${'s'.repeat(128)} ` }).sessionId).toBe('s'.repeat(128));
  });

  it('a batch delivered twice arrives twice with the same message ids (the broker has no duplicate detection)', async () => {
    const deliverer = azureServiceBusDeliverer(settingsOf(peer), deliveryContext(true));
    const messages = forwardedBatch(20, 2);
    try {
      await deliverer.deliver(messages);
      await deliverer.deliver(messages);
    } finally {
      await deliverer.close();
    }
    expect((await peer.received()).slice(-4)).toEqual([...messages, ...messages].map(receivedOf));
  });

  it('a broker out of reach fails the batch; after heal the same deliverer connects again', async () => {
    const deliverer = azureServiceBusDeliverer(settingsOf(peer), deliveryContext(true));
    try {
      await deliverer.deliver(forwardedBatch(30, 1));
      await peer.break();
      await expect(deliverer.deliver(forwardedBatch(31, 2))).rejects.toThrow(new RegExp(`^${where}: .*(EPIPE|ECONNRESET|ECONNREFUSED|closed|lost)`, 'i'));
      await expect(deliverer.deliver(forwardedBatch(31, 2))).rejects.toThrow(`${where}: connect ECONNREFUSED 127.0.0.1:${String(peer.settings.port)}`);
      await peer.heal();
      await deliverer.deliver(forwardedBatch(31, 2));
    } finally {
      await deliverer.close();
    }
    expect((await peer.received()).slice(-3)).toEqual(forwardedBatch(30, 3).map(receivedOf));
  });

  it('a wrong key fails with the broker refusal and no secret in the message', async () => {
    const deliverer = azureServiceBusDeliverer(settingsOf(peer, { sharedAccessKey: 'not-the-key' }), deliveryContext(true));
    try {
      const failure = deliverer.deliver(forwardedBatch(50, 1));
      await expect(failure).rejects.toThrow(`${where}: amqp:unauthorized-access`);
      await expect(failure).rejects.not.toThrow(/not-the-key/);
    } finally {
      await deliverer.close();
    }
  });

  it('a server certificate that does not chain to the configured CA is refused', async () => {
    const deliverer = azureServiceBusDeliverer(settingsOf(peer, { tlsCaCertificate: undefined }), deliveryContext(true));
    try {
      await expect(deliverer.deliver(forwardedBatch(60, 1))).rejects.toThrow(`${where}: self-signed certificate`);
    } finally {
      await deliverer.close();
    }
  });
});

describe('azure-service-bus deliverer and the address guard', () => {
  let counter: Awaited<ReturnType<typeof connectionCounter>>;

  beforeAll(async () => {
    counter = await connectionCounter();
  });
  afterAll(async () => {
    await counter.close();
  });

  it.each(['127.0.0.1', 'localhost'])('refuses %s with destination_address_not_allowed before connecting', async (host) => {
    const settings = destinationSettingsSchemas['azure-service-bus'].validateSync({
      host,
      port: counter.port,
      tls: false,
      entityPath: 'readings',
      sharedAccessKeyName: 'RootManageSharedAccessKey',
      sharedAccessKey: 'secret',
    });
    const deliverer = azureServiceBusDeliverer(settings, deliveryContext(false));
    try {
      const failure = deliverer.deliver(forwardedBatch(1, 1));
      await expect(failure).rejects.toBeInstanceOf(GridportError);
      await expect(failure).rejects.toMatchObject({ key: 'destination_address_not_allowed' });
    } finally {
      await deliverer.close();
    }
    expect(counter.connections()).toBe(0);
  });
});
