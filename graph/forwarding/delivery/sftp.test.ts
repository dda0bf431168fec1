import { promises as fs } from 'node:fs';
import { GridportError } from '../../../contracts/errors';
import { destinationSettingsSchemas } from '../../../contracts/forwarding';
import { forwardedBatch } from '../../../test-support/forwarding-peers/messages';
import { connectionCounter, deliveryContext, describeWithPeer, receivedOf, receivedOfBatch } from '../../../test-support/forwarding-peers/peer';
import { sftpPeer, type SftpPeer } from '../../../test-support/forwarding-peers/sftp';
import { batchFiles, run } from '../../../test-support/forwarding-peers/http-and-files-support';
import { sftpDeliverer } from './sftp';
import { qosCsv } from './files';

function settingsOf(settings: Record<string, unknown>) {
  return destinationSettingsSchemas.sftp.validateSync(settings);
}

describeWithPeer(sftpPeer, __filename)('the sftp deliverer', () => {
  let peer: SftpPeer;

  beforeAll(async () => {
    peer = await sftpPeer.start();
  }, 30_000);
  afterAll(async () => {
    await peer?.stop();
  });

  it('writes one JSON file per batch, named after the destination and its first and last positions', async () => {
    const deliverer = sftpDeliverer(settingsOf(peer.settings), deliveryContext(true, 'dstA1'));
    const batches = [forwardedBatch(600, 3), forwardedBatch(603, 4), forwardedBatch(607, 2)];
    for (const batch of batches) {
      await deliverer.deliver(batch);
    }
    await deliverer.close();

    expect(await peer.received()).toEqual(batches.flat().map(receivedOf));
    expect(await batchFiles(peer.directory)).toEqual([
      'gridport-dstA1-1000001800-1000001806.json',
      'gridport-dstA1-1000001809-1000001818.json',
      'gridport-dstA1-1000001821-1000001824.json',
    ]);
    expect(await fs.readFile(`${peer.directory}/gridport-dstA1-1000001809-1000001818.json`, 'utf8')).toBe(JSON.stringify(batches[1]));
  });

  it('writes qos CSV files: fixed columns, then one per flattened value, sorted', async () => {
    const deliverer = sftpDeliverer(settingsOf({ ...peer.settings, format: 'qos' }), deliveryContext(true, 'dstQ1'));
    const batch = forwardedBatch(610, 5);
    await deliverer.deliver(batch);
    await deliverer.close();

    const text = await fs.readFile(`${peer.directory}/gridport-dstQ1-1000001830-1000001842.csv`, 'utf8');
    expect(text).toBe(qosCsv(batch));
    expect(text.split('\r\n')[0]).toBe(
      'position,messageType,version,deviceHashId,assetIndex,at,id,active,activePowerW,cellTemperaturesC.0,cellTemperaturesC.1,cellTemperaturesC.2,' +
        'dcVoltageV,energyExportedWh,exportedEnergyWh,importedEnergyWh,kind,message,phases.0.currentA,phases.0.voltageV,phases.1.currentA,' +
        'phases.1.voltageV,phases.2.currentA,phases.2.voltageV,reactivePowerVar,severity,stateOfChargePercent,stateOfHealthPercent,status',
    );
    expect(await receivedOfBatch(peer, batch)).toEqual(batch.map(receivedOf));
  });

  it('a batch delivered twice replaces its file: one file, the same contents, no partial file left', async () => {
    const deliverer = sftpDeliverer(settingsOf(peer.settings), deliveryContext(true, 'dstB1'));
    const batch = forwardedBatch(620, 3);
    await deliverer.deliver(batch);
    await deliverer.deliver(batch);
    await deliverer.close();
    const names = (await fs.readdir(peer.directory)).filter((name) => name.includes('dstB1'));
    expect(names).toEqual(['gridport-dstB1-1000001860-1000001866.json']);
  });

  it('fails, saying what the server answered, while the directory cannot be written, and writes again once it can', async () => {
    const deliverer = sftpDeliverer(settingsOf(peer.settings), deliveryContext(true, 'dstC1'));
    await deliverer.deliver(forwardedBatch(630, 1));
    await peer.break();
    const batch = forwardedBatch(631, 2);
    await expect(deliverer.deliver(batch)).rejects.toThrow(/^SFTP 127\.0\.0\.1:\d+ failed: (No such file|Failure)/);
    await peer.heal();
    await deliverer.deliver(batch);
    await deliverer.close();
    expect(await receivedOfBatch(peer, batch)).toEqual(batch.map(receivedOf));
  });

  it('refuses a server whose host key is not the one in hostKey', async () => {
    const otherKey = `${peer.directory}-other-host-key`;
    run('/usr/bin/ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', otherKey]);
    const other = await fs.readFile(`${otherKey}.pub`, 'utf8');
    const deliverer = sftpDeliverer(settingsOf({ ...peer.settings, hostKey: other }), deliveryContext(true, 'dstD1'));
    await expect(deliverer.deliver(forwardedBatch(640, 1))).rejects.toThrow(
      /^SFTP 127\.0\.0\.1:\d+: the server's host key is not the one in the hostKey setting$/,
    );
    await deliverer.close();
    expect((await fs.readdir(peer.directory)).filter((name) => name.includes('dstD1'))).toEqual([]);
  });

  it('logs in with an encrypted private key opened with privateKeyPassphrase', async () => {
    const keyFile = `${peer.directory}-encrypted-client-key`;
    run('/usr/bin/ssh-keygen', ['-q', '-t', 'ed25519', '-N', 'open sesame 7', '-C', 'gridport-test-encrypted', '-f', keyFile]);
    await peer.authorize(await fs.readFile(`${keyFile}.pub`, 'utf8'));
    const privateKey = await fs.readFile(keyFile, 'utf8');
    expect(privateKey).toContain('BEGIN OPENSSH PRIVATE KEY');
    const deliverer = sftpDeliverer(settingsOf({ ...peer.settings, privateKey, privateKeyPassphrase: 'open sesame 7' }), deliveryContext(true, 'dstE1'));
    const batch = forwardedBatch(670, 2);
    await deliverer.deliver(batch);
    await deliverer.close();
    expect(await receivedOfBatch(peer, batch)).toEqual(batch.map(receivedOf));
  });

  it('says the key cannot be opened when privateKeyPassphrase is wrong or missing, without quoting it', async () => {
    const keyFile = `${peer.directory}-encrypted-client-key-2`;
    run('/usr/bin/ssh-keygen', ['-q', '-t', 'ed25519', '-N', 'right passphrase', '-f', keyFile]);
    await peer.authorize(await fs.readFile(`${keyFile}.pub`, 'utf8'));
    const privateKey = await fs.readFile(keyFile, 'utf8');
    const wrong = sftpDeliverer(settingsOf({ ...peer.settings, privateKey, privateKeyPassphrase: 'wrong passphrase' }), deliveryContext(true, 'dstF1'));
    const failure = wrong.deliver(forwardedBatch(680, 1));
    await expect(failure).rejects.toThrow(
      /^SFTP 127\.0\.0\.1:\d+ failed: the privateKey setting cannot be read with privateKeyPassphrase: OpenSSH key integrity check failed -- bad passphrase\?$/,
    );
    await wrong.close();
    const missing = sftpDeliverer(settingsOf({ ...peer.settings, privateKey }), deliveryContext(true, 'dstF1'));
    await expect(missing.deliver(forwardedBatch(680, 1))).rejects.toThrow(
      /^SFTP 127\.0\.0\.1:\d+ failed: the privateKey setting cannot be read: Encrypted private OpenSSH key detected, but no passphrase given$/,
    );
    await missing.close();
    expect((await fs.readdir(peer.directory)).filter((name) => name.includes('dstF1'))).toEqual([]);
  });

  it('refuses privateKeyPassphrase without a privateKey when the settings are checked', () => {
    const { privateKey: _key, ...withoutKey } = peer.settings;
    expect(() => settingsOf({ ...withoutKey, password: 'pw', privateKeyPassphrase: 'open sesame 7' })).toThrow('privateKeyPassphrase goes with a privateKey');
  });

  it('says which login failed without the key', async () => {
    const deliverer = sftpDeliverer(settingsOf({ ...peer.settings, username: 'nobody' }), deliveryContext(true));
    const failure = deliverer.deliver(forwardedBatch(650, 1));
    await expect(failure).rejects.toThrow(/^SFTP 127\.0\.0\.1:\d+ failed: All configured authentication methods failed$/);
    await deliverer.close();
  });

  it.each([['127.0.0.1'], ['localhost']])('refuses %s with destination_address_not_allowed before connecting when private networks are off', async (host) => {
    const counter = await connectionCounter();
    const deliverer = sftpDeliverer(settingsOf({ ...peer.settings, host, port: counter.port }), deliveryContext(false));
    const failure = deliverer.deliver(forwardedBatch(660, 1));
    await expect(failure).rejects.toBeInstanceOf(GridportError);
    await expect(failure).rejects.toMatchObject({ key: 'destination_address_not_allowed' });
    await deliverer.close();
    expect(counter.connections()).toBe(0);
    await counter.close();
  });
});
