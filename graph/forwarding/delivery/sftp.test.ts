import { promises as fs } from 'node:fs';
import { GridportError } from '../../../contracts/errors';
import { destinationSettingsSchemas } from '../../../contracts/forwarding';
import { connectionCounter, deliveryContext, describeWithPeer, receivedOf } from '../../../test-support/forwarding-peers/peer';
import { sftpPeer, type SftpPeer } from '../../../test-support/forwarding-peers/sftp';
import { batchFiles, buildMessages, run } from '../../../test-support/forwarding-peers/http-and-files-support';
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
    const batches = [buildMessages(3, 600), buildMessages(4, 603), buildMessages(2, 607)];
    for (const batch of batches) {
      await deliverer.deliver(batch);
    }
    await deliverer.close();

    expect(await peer.received()).toEqual(batches.flat().map(receivedOf));
    expect(await batchFiles(peer.directory)).toEqual(['gridport-dstA1-600-602.json', 'gridport-dstA1-603-606.json', 'gridport-dstA1-607-608.json']);
    expect(await fs.readFile(`${peer.directory}/gridport-dstA1-603-606.json`, 'utf8')).toBe(JSON.stringify(batches[1]));
  });

  it('writes qos CSV files: fixed columns, then one per flattened value, sorted', async () => {
    const deliverer = sftpDeliverer(settingsOf({ ...peer.settings, format: 'qos' }), deliveryContext(true, 'dstQ1'));
    const batch = buildMessages(5, 610);
    await deliverer.deliver(batch);
    await deliverer.close();

    const text = await fs.readFile(`${peer.directory}/gridport-dstQ1-610-614.csv`, 'utf8');
    expect(text).toBe(qosCsv(batch));
    expect(text.split('\r\n')[0]).toBe(
      'position,messageType,version,deviceHashId,assetIndex,at,id,active,activePower,charging,code,dcInputs.0.current,dcInputs.0.voltage,' +
        'energyTotal,frequency,phaseCurrent.l1,phaseCurrent.l2,phaseCurrent.l3,phaseVoltage.l1,phaseVoltage.l2,phaseVoltage.l3,' +
        'reactivePower,severity,state,stateOfCharge,temperature,text',
    );
    expect((await peer.received()).filter((message) => Number(message.position) >= 610)).toEqual(batch.map(receivedOf));
  });

  it('a batch delivered twice replaces its file: one file, the same contents, no partial file left', async () => {
    const deliverer = sftpDeliverer(settingsOf(peer.settings), deliveryContext(true, 'dstB1'));
    const batch = buildMessages(3, 620);
    await deliverer.deliver(batch);
    await deliverer.deliver(batch);
    await deliverer.close();
    const names = (await fs.readdir(peer.directory)).filter((name) => name.includes('dstB1'));
    expect(names).toEqual(['gridport-dstB1-620-622.json']);
  });

  it('fails, saying what the server answered, while the directory cannot be written, and writes again once it can', async () => {
    const deliverer = sftpDeliverer(settingsOf(peer.settings), deliveryContext(true, 'dstC1'));
    await deliverer.deliver(buildMessages(1, 630));
    await peer.break();
    const batch = buildMessages(2, 631);
    await expect(deliverer.deliver(batch)).rejects.toThrow(/^SFTP 127\.0\.0\.1:\d+ failed: (No such file|Failure)/);
    await peer.heal();
    await deliverer.deliver(batch);
    await deliverer.close();
    expect((await peer.received()).filter((message) => ['631', '632'].includes(message.position))).toEqual(batch.map(receivedOf));
  });

  it('refuses a server whose host key is not the one in hostKey', async () => {
    const otherKey = `${peer.directory}-other-host-key`;
    run('/usr/bin/ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', otherKey]);
    const other = await fs.readFile(`${otherKey}.pub`, 'utf8');
    const deliverer = sftpDeliverer(settingsOf({ ...peer.settings, hostKey: other }), deliveryContext(true, 'dstD1'));
    await expect(deliverer.deliver(buildMessages(1, 640))).rejects.toThrow(
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
    const batch = buildMessages(2, 670);
    await deliverer.deliver(batch);
    await deliverer.close();
    expect((await peer.received()).filter((message) => ['670', '671'].includes(message.position))).toEqual(batch.map(receivedOf));
  });

  it('says the key cannot be opened when privateKeyPassphrase is wrong or missing, without quoting it', async () => {
    const keyFile = `${peer.directory}-encrypted-client-key-2`;
    run('/usr/bin/ssh-keygen', ['-q', '-t', 'ed25519', '-N', 'right passphrase', '-f', keyFile]);
    await peer.authorize(await fs.readFile(`${keyFile}.pub`, 'utf8'));
    const privateKey = await fs.readFile(keyFile, 'utf8');
    const wrong = sftpDeliverer(settingsOf({ ...peer.settings, privateKey, privateKeyPassphrase: 'wrong passphrase' }), deliveryContext(true, 'dstF1'));
    const failure = wrong.deliver(buildMessages(1, 680));
    await expect(failure).rejects.toThrow(
      /^SFTP 127\.0\.0\.1:\d+ failed: the privateKey setting cannot be read with privateKeyPassphrase: OpenSSH key integrity check failed -- bad passphrase\?$/,
    );
    await wrong.close();
    const missing = sftpDeliverer(settingsOf({ ...peer.settings, privateKey }), deliveryContext(true, 'dstF1'));
    await expect(missing.deliver(buildMessages(1, 680))).rejects.toThrow(
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
    const failure = deliverer.deliver(buildMessages(1, 650));
    await expect(failure).rejects.toThrow(/^SFTP 127\.0\.0\.1:\d+ failed: All configured authentication methods failed$/);
    await deliverer.close();
  });

  it.each([['127.0.0.1'], ['localhost']])('refuses %s with destination_address_not_allowed before connecting when private networks are off', async (host) => {
    const counter = await connectionCounter();
    const deliverer = sftpDeliverer(settingsOf({ ...peer.settings, host, port: counter.port }), deliveryContext(false));
    const failure = deliverer.deliver(buildMessages(1, 660));
    await expect(failure).rejects.toBeInstanceOf(GridportError);
    await expect(failure).rejects.toMatchObject({ key: 'destination_address_not_allowed' });
    await deliverer.close();
    expect(counter.connections()).toBe(0);
    await counter.close();
  });
});
