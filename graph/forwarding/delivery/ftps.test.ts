import { promises as fs } from 'node:fs';
import { GridportError } from '../../../contracts/errors';
import { destinationSettingsSchemas } from '../../../contracts/forwarding';
import { forwardedBatch } from '../../../test-support/forwarding-peers/messages';
import { connectionCounter, deliveryContext, describeWithPeer, receivedOf, receivedOfBatch } from '../../../test-support/forwarding-peers/peer';
import { ftpsPeer, type FtpsPeer } from '../../../test-support/forwarding-peers/ftps';
import { batchFiles } from '../../../test-support/forwarding-peers/http-and-files-support';
import { ftpsDeliverer } from './ftps';
import { qosCsv } from './files';

function settingsOf(settings: Record<string, unknown>) {
  return destinationSettingsSchemas.ftps.validateSync(settings);
}

describeWithPeer(ftpsPeer, __filename)('the ftps deliverer', () => {
  let peer: FtpsPeer;

  beforeAll(async () => {
    peer = await ftpsPeer.start();
  }, 30_000);
  afterAll(async () => {
    await peer?.stop();
  });

  it('uploads one JSON file per batch over AUTH TLS, named after the destination and its first and last positions', async () => {
    const deliverer = ftpsDeliverer(settingsOf(peer.settings), deliveryContext(true, 'dstA2'));
    const batches = [forwardedBatch(700, 3), forwardedBatch(703, 4), forwardedBatch(707, 2)];
    for (const batch of batches) {
      await deliverer.deliver(batch);
    }
    await deliverer.close();

    expect(await peer.received()).toEqual(batches.flat().map(receivedOf));
    expect(await batchFiles(peer.directory)).toEqual([
      'gridport-dstA2-1000002100-1000002106.json',
      'gridport-dstA2-1000002109-1000002118.json',
      'gridport-dstA2-1000002121-1000002124.json',
    ]);
    expect(await fs.readFile(`${peer.directory}/gridport-dstA2-1000002121-1000002124.json`, 'utf8')).toBe(JSON.stringify(batches[2]));
  });

  it('uploads qos CSV files', async () => {
    const deliverer = ftpsDeliverer(settingsOf({ ...peer.settings, format: 'qos' }), deliveryContext(true, 'dstQ2'));
    const batch = forwardedBatch(710, 6);
    await deliverer.deliver(batch);
    await deliverer.close();
    expect(await fs.readFile(`${peer.directory}/gridport-dstQ2-1000002130-1000002145.csv`, 'utf8')).toBe(qosCsv(batch));
    expect(await receivedOfBatch(peer, batch)).toEqual(batch.map(receivedOf));
  });

  it('a batch delivered twice replaces its file: one file, no partial file left', async () => {
    const deliverer = ftpsDeliverer(settingsOf(peer.settings), deliveryContext(true, 'dstB2'));
    const batch = forwardedBatch(720, 3);
    await deliverer.deliver(batch);
    await deliverer.deliver(batch);
    await deliverer.close();
    expect((await fs.readdir(peer.directory)).filter((name) => name.includes('dstB2'))).toEqual(['gridport-dstB2-1000002160-1000002166.json']);
  });

  it('fails, saying what the server answered, while the directory cannot be written, and uploads again once it can', async () => {
    const deliverer = ftpsDeliverer(settingsOf(peer.settings), deliveryContext(true, 'dstC2'));
    await deliverer.deliver(forwardedBatch(730, 1));
    await peer.break();
    const batch = forwardedBatch(731, 2);
    await expect(deliverer.deliver(batch)).rejects.toThrow(/^FTPS 127\.0\.0\.1:\d+ failed: 553 Could not create file\.$/);
    await peer.heal();
    await deliverer.deliver(batch);
    await deliverer.close();
    expect(await receivedOfBatch(peer, batch)).toEqual(batch.map(receivedOf));
  });

  it("refuses the server's certificate without the CA that signed it", async () => {
    const { tlsCaCertificate: _ca, ...untrusting } = peer.settings;
    const deliverer = ftpsDeliverer(settingsOf(untrusting), deliveryContext(true, 'dstD2'));
    await expect(deliverer.deliver(forwardedBatch(740, 1))).rejects.toThrow(/^FTPS 127\.0\.0\.1:\d+ failed: self[- ]signed certificate/);
    await deliverer.close();
  });

  it('says the login failed without the password', async () => {
    const deliverer = ftpsDeliverer(settingsOf({ ...peer.settings, password: 'wrong-password' }), deliveryContext(true));
    const failure = deliverer.deliver(forwardedBatch(750, 1));
    await expect(failure).rejects.toThrow(/^FTPS 127\.0\.0\.1:\d+ failed: 530 Login incorrect\.$/);
    await deliverer.close();
  });

  it.each([['127.0.0.1'], ['localhost']])('refuses %s with destination_address_not_allowed before connecting when private networks are off', async (host) => {
    const counter = await connectionCounter();
    const deliverer = ftpsDeliverer(settingsOf({ ...peer.settings, host, port: counter.port }), deliveryContext(false));
    const failure = deliverer.deliver(forwardedBatch(760, 1));
    await expect(failure).rejects.toBeInstanceOf(GridportError);
    await expect(failure).rejects.toMatchObject({ key: 'destination_address_not_allowed' });
    await deliverer.close();
    expect(counter.connections()).toBe(0);
    await counter.close();
  });
});

describeWithPeer(ftpsPeer, __filename)('the ftps deliverer with implicit TLS', () => {
  let peer: FtpsPeer;

  beforeAll(async () => {
    peer = await ftpsPeer.startImplicitTls();
  }, 30_000);
  afterAll(async () => {
    await peer?.stop();
  });

  it('speaks TLS from the first byte when implicitTls is set', async () => {
    const deliverer = ftpsDeliverer(settingsOf(peer.settings), deliveryContext(true, 'dstI2'));
    const batch = forwardedBatch(800, 3);
    await deliverer.deliver(batch);
    await deliverer.close();
    expect(await peer.received()).toEqual(batch.map(receivedOf));
  });
});
