import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GridportError } from '../../../contracts/errors';
import { destinationSettingsSchemas } from '../../../contracts/forwarding';
import { forwardedBatch } from '../../../test-support/forwarding-peers/messages';
import { connectionCounter, deliveryContext, describeWithPeer, receivedOf } from '../../../test-support/forwarding-peers/peer';
import { grafanaLokiPeer, type LokiPeer } from '../../../test-support/forwarding-peers/grafana-loki';
import { caSignedCertificate } from '../../../test-support/forwarding-peers/http-and-files-support';
import { grafanaLokiDeliverer, lokiPushBody } from './grafana-loki';
import { epochNanoseconds } from './http-client';

function settingsOf(settings: Record<string, unknown>) {
  return destinationSettingsSchemas['grafana-loki'].validateSync(settings);
}

describeWithPeer(grafanaLokiPeer, __filename)('the grafana-loki deliverer', () => {
  let peer: LokiPeer;

  beforeAll(async () => {
    peer = await grafanaLokiPeer.start();
  });
  afterAll(async () => {
    await peer?.stop();
  });

  it('pushes each message as a line of its device and type stream, at the report time in nanoseconds', async () => {
    const deliverer = grafanaLokiDeliverer(settingsOf(peer.settings), deliveryContext(true));
    const batches = [forwardedBatch(200, 5), forwardedBatch(205, 3), forwardedBatch(208, 4)];
    for (const batch of batches) {
      await deliverer.deliver(batch);
    }
    await deliverer.close();

    const sent = batches.flat();
    // Loki keeps lines by stream: compare as sets, in position order.
    const byPosition = (a: { position: string }, b: { position: string }) => Number(a.position) - Number(b.position);
    expect((await peer.received()).sort(byPosition)).toEqual(sent.map(receivedOf));
    const first = sent[0];
    expect(peer.entries.find((entry) => entry.line === JSON.stringify(first))).toEqual({
      labels: { source: 'gridport', message_type: first?.messageType, device: first?.device.hashId },
      timestamp: epochNanoseconds(first?.at ?? ''),
      line: JSON.stringify(first),
    });
  });

  it('groups a batch into one stream per message type and device', () => {
    const batch = forwardedBatch(300, 12);
    const body = lokiPushBody(batch);
    expect(body.streams.length).toBe(new Set(batch.map((message) => `${message.messageType}/${message.device.hashId}`)).size);
    expect(body.streams.flatMap((stream) => stream.values).length).toBe(12);
  });

  it('keeps the digits past milliseconds of a time', () => {
    expect(epochNanoseconds('2026-11-20T10:00:00.123456789Z')).toBe('1795168800123456789');
    expect(epochNanoseconds('2026-11-20T10:00:00Z')).toBe('1795168800000000000');
  });

  it('a batch pushed twice is kept once (Loki drops a line with the same labels, time and text)', async () => {
    const before = peer.entries.length;
    const deliverer = grafanaLokiDeliverer(settingsOf(peer.settings), deliveryContext(true));
    const batch = forwardedBatch(220, 3);
    await deliverer.deliver(batch);
    await deliverer.deliver(batch);
    await deliverer.close();
    expect(peer.entries.length).toBe(before + 3);
  });

  it('fails while Loki is down, saying so, and pushes again once it is back', async () => {
    const deliverer = grafanaLokiDeliverer(settingsOf(peer.settings), deliveryContext(true));
    await deliverer.deliver(forwardedBatch(230, 1));
    await peer.break();
    const batch = forwardedBatch(231, 2);
    await expect(deliverer.deliver(batch)).rejects.toThrow(/^Loki http:\/\/127\.0\.0\.1:\d+\/loki\/api\/v1\/push failed: .*ECONNREFUSED/);
    await peer.heal();
    await deliverer.deliver(batch);
    await deliverer.close();
    expect((await peer.received()).slice(-2)).toEqual(batch.map(receivedOf));
  });

  it("quotes Loki's answer when it refuses a push, without the password", async () => {
    const deliverer = grafanaLokiDeliverer(settingsOf({ ...peer.settings, password: 'wrong-password' }), deliveryContext(true));
    const failure = deliverer.deliver(forwardedBatch(240, 1));
    await expect(failure).rejects.toThrow(/^Loki http:\/\/127\.0\.0\.1:\d+\/loki\/api\/v1\/push answered 401: authentication failed$/);
    await deliverer.close();
  });

  it.each([['127.0.0.1'], ['localhost']])('refuses %s with destination_address_not_allowed before connecting when private networks are off', async (host) => {
    const counter = await connectionCounter();
    const deliverer = grafanaLokiDeliverer(settingsOf({ ...peer.settings, url: `http://${host}:${counter.port}` }), deliveryContext(false));
    const failure = deliverer.deliver(forwardedBatch(250, 1));
    await expect(failure).rejects.toBeInstanceOf(GridportError);
    await expect(failure).rejects.toMatchObject({ key: 'destination_address_not_allowed' });
    await deliverer.close();
    expect(counter.connections()).toBe(0);
    await counter.close();
  });
});

describe('the grafana-loki deliverer to an https Loki', () => {
  let directory: string;
  let peer: LokiPeer;

  beforeAll(async () => {
    directory = await fs.mkdtemp(path.join(os.tmpdir(), 'gridport-loki-tls-'));
    peer = await grafanaLokiPeer.start({ tls: await caSignedCertificate(directory) });
  });
  afterAll(async () => {
    await peer?.stop();
    await fs.rm(directory, { recursive: true, force: true });
  });

  it('trusts a Loki whose certificate a CA of its own signed, through tlsCaCertificate', async () => {
    expect(peer.settings.url).toMatch(/^https:\/\/localhost:\d+$/);
    const deliverer = grafanaLokiDeliverer(settingsOf(peer.settings), deliveryContext(true));
    const batch = forwardedBatch(260, 3);
    await deliverer.deliver(batch);
    await deliverer.close();
    expect(await peer.received()).toEqual(batch.map(receivedOf));
  });

  it('fails naming the certificate problem with another CA or none, and pushes nothing', async () => {
    const { caCertificate: otherCa } = await caSignedCertificate(directory, 'other');
    const before = peer.entries.length;
    for (const tlsCaCertificate of [otherCa, undefined]) {
      const deliverer = grafanaLokiDeliverer(settingsOf({ ...peer.settings, tlsCaCertificate }), deliveryContext(true));
      await expect(deliverer.deliver(forwardedBatch(270, 1))).rejects.toThrow(
        /^Loki https:\/\/localhost:\d+\/loki\/api\/v1\/push failed: unable to verify the first certificate \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)$/,
      );
      await deliverer.close();
    }
    expect(peer.entries.length).toBe(before);
  });

  it('refuses a tlsCaCertificate that is not a PEM certificate when the settings are checked', () => {
    const withKey = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----';
    expect(() => settingsOf({ ...peer.settings, tlsCaCertificate: withKey })).toThrow(
      'tlsCaCertificate must be a PEM certificate (-----BEGIN CERTIFICATE----- …)',
    );
  });
});
