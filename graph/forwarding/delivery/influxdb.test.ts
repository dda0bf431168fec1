import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GridportError } from '../../../contracts/errors';
import { destinationSettingsSchemas } from '../../../contracts/forwarding';
import { forwardedBatch, forwardedMessage } from '../../../test-support/forwarding-peers/messages';
import { connectionCounter, deliveryContext, describeWithPeer, receivedOf, receivedOfBatch } from '../../../test-support/forwarding-peers/peer';
import { influxdbPeer, type InfluxPeer } from '../../../test-support/forwarding-peers/influxdb';
import { caSignedCertificate } from '../../../test-support/forwarding-peers/http-and-files-support';
import { influxdbDeliverer, influxLine } from './influxdb';

function settingsOf(settings: Record<string, unknown>) {
  return destinationSettingsSchemas.influxdb.validateSync(settings);
}

/** InfluxDB gives back no nested values: what it keeps of a message, values left out. */
function withoutValues(message: Parameters<typeof receivedOf>[0]) {
  const { values: _values, ...rest } = receivedOf(message);
  return rest;
}

describe('influxLine', () => {
  it('writes the type as measurement, device and asset as tags, the values flattened, and the time in nanoseconds', () => {
    expect(influxLine(forwardedMessage(2))).toBe(
      'meterPower,device=dv9pz4e5,asset=2 activePowerW=810.125,importedEnergyWh=9876545,exportedEnergyWh=1234567,' +
        'phases_0_voltageV=231.2,phases_0_currentA=3.12,phases_1_voltageV=229.8,phases_1_currentA=2.9,phases_2_voltageV=230.4,phases_2_currentA=3.05,' +
        'id="dv9pz4e5-r000002",position="1000000006",version=2i 1795593630222000000',
    );
  });

  it('escapes spaces, commas and quotes, turns line breaks into spaces, and leaves the asset tag out of a device report', () => {
    const alarm = forwardedMessage(3);
    expect(alarm.messageType).toBe('alarm');
    const text = 'Wechselrichter "INV-2",\nLüfter blockiert';
    expect(influxLine({ ...alarm, device: { ...alarm.device, hashId: 'a b,c=d' }, values: { ...alarm.values, message: text } })).toBe(
      'alarm,device=a\\ b\\,c\\=d kind="assetUnreachable",severity="major",active=false,message="Wechselrichter \\"INV-2\\", Lüfter blockiert",' +
        'id="TP-000481-r000003",position="1000000009",version=1i 1795593645333000000',
    );
  });
});

describeWithPeer(influxdbPeer, __filename)('the influxdb deliverer', () => {
  let peer: InfluxPeer;

  beforeAll(async () => {
    peer = await influxdbPeer.start();
  }, 30_000);
  afterAll(async () => {
    await peer?.stop();
  });

  it('writes every message as a point that reads back with its type, device, id, position and time', async () => {
    const deliverer = influxdbDeliverer(settingsOf(peer.settings), deliveryContext(true));
    const batches = [forwardedBatch(400, 4), forwardedBatch(404, 5), forwardedBatch(409, 3)];
    for (const batch of batches) {
      await deliverer.deliver(batch);
    }
    await deliverer.close();

    expect(await peer.received()).toEqual(batches.flat().map(withoutValues));
    const solar = forwardedMessage(404);
    expect(solar).toEqual(batches[1]?.[0]);
    const answer = await peer.query(
      `SELECT "activePowerW", "status", "version", "asset" FROM "gridport_test"."gridport"."solarPower" WHERE "id" = '${solar.id}'`,
    );
    expect(answer.results[0]?.series?.[0]?.values).toEqual([[Date.parse(solar.at), solar.values.activePowerW, 'running', 3, '0']]);
  });

  it('a batch written twice leaves the same points (same measurement, tags and time)', async () => {
    const deliverer = influxdbDeliverer(settingsOf(peer.settings), deliveryContext(true));
    const before = (await peer.received()).length;
    const batch = forwardedBatch(420, 3);
    await deliverer.deliver(batch);
    await deliverer.deliver(batch);
    await deliverer.close();
    const received = await peer.received();
    expect(received.length).toBe(before + 3);
    expect(received.slice(-3)).toEqual(batch.map(withoutValues));
  });

  it("fails with InfluxDB's answer while the writer may not write, and writes again once it may", async () => {
    const deliverer = influxdbDeliverer(settingsOf(peer.settings), deliveryContext(true));
    const batch = forwardedBatch(430, 2);
    await peer.break();
    const failure = deliverer.deliver(batch);
    await expect(failure).rejects.toThrow(/^InfluxDB http:\/\/127\.0\.0\.1:\d+\/write answered 403: .*not authorized/);
    await failure.catch((error: Error) => expect(error.message).not.toContain('writer-pass'));
    await peer.heal();
    await deliverer.deliver(batch);
    await deliverer.close();
    expect((await peer.received()).slice(-2)).toEqual(batch.map(withoutValues));
  });

  it.each([['127.0.0.1'], ['localhost']])('refuses %s with destination_address_not_allowed before connecting when private networks are off', async (host) => {
    const counter = await connectionCounter();
    const deliverer = influxdbDeliverer(settingsOf({ ...peer.settings, url: `http://${host}:${counter.port}` }), deliveryContext(false));
    const failure = deliverer.deliver(forwardedBatch(440, 1));
    await expect(failure).rejects.toBeInstanceOf(GridportError);
    await expect(failure).rejects.toMatchObject({ key: 'destination_address_not_allowed' });
    await deliverer.close();
    expect(counter.connections()).toBe(0);
    await counter.close();
  });
});

describeWithPeer(influxdbPeer, __filename)('the influxdb deliverer to an https server', () => {
  let directory: string;
  let peer: InfluxPeer;

  beforeAll(async () => {
    directory = await fs.mkdtemp(path.join(os.tmpdir(), 'gridport-influxdb-tls-'));
    peer = await influxdbPeer.start({ tls: await caSignedCertificate(directory) });
  }, 30_000);
  afterAll(async () => {
    await peer?.stop();
    await fs.rm(directory, { recursive: true, force: true });
  });

  it('trusts a server whose certificate a CA of its own signed, through tlsCaCertificate', async () => {
    expect(peer.settings.url).toMatch(/^https:\/\/localhost:\d+$/);
    const deliverer = influxdbDeliverer(settingsOf(peer.settings), deliveryContext(true));
    const batch = forwardedBatch(700, 4);
    await deliverer.deliver(batch);
    await deliverer.close();
    expect(await peer.received()).toEqual(batch.map(withoutValues));
  });

  it('fails naming the certificate problem with another CA or none, and writes nothing', async () => {
    const { caCertificate: otherCa } = await caSignedCertificate(directory, 'other');
    const refused = forwardedBatch(710, 1);
    for (const tlsCaCertificate of [otherCa, undefined]) {
      const deliverer = influxdbDeliverer(settingsOf({ ...peer.settings, tlsCaCertificate }), deliveryContext(true));
      await expect(deliverer.deliver(refused)).rejects.toThrow(
        /^InfluxDB https:\/\/localhost:\d+\/write failed: unable to verify the first certificate \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)$/,
      );
      await deliverer.close();
    }
    expect(await receivedOfBatch(peer, refused)).toEqual([]);
  });

  it('refuses a tlsCaCertificate that is not a PEM certificate when the settings are checked', () => {
    expect(() => settingsOf({ ...peer.settings, tlsCaCertificate: 'MIIB-not-a-certificate' })).toThrow(
      'tlsCaCertificate must be a PEM certificate (-----BEGIN CERTIFICATE----- …)',
    );
  });
});

describe('the influxdb deliverer with apiVersion 2', () => {
  it('writes to /api/v2/write with the organization, the bucket and a token (influxd 1.6 has no v2 API: a recording server stands in)', async () => {
    const requests: { url: string; authorization: string | undefined; body: string }[] = [];
    const server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        requests.push({ url: request.url ?? '', authorization: request.headers.authorization, body });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const deliverer = influxdbDeliverer(
      settingsOf({ url: `http://127.0.0.1:${port}/influx/`, apiVersion: 2, organization: 'acme', database: 'plants', token: 'tok-123' }),
      deliveryContext(true),
    );
    const batch = forwardedBatch(500, 2);
    await deliverer.deliver(batch);
    await deliverer.close();
    await new Promise((resolve) => server.close(resolve));
    expect(requests).toEqual([
      { url: '/influx/api/v2/write?org=acme&bucket=plants&precision=ns', authorization: 'Token tok-123', body: `${batch.map(influxLine).join('\n')}\n` },
    ]);
  });
});
