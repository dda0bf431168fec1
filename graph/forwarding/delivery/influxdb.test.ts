import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GridportError } from '../../../contracts/errors';
import { destinationSettingsSchemas } from '../../../contracts/forwarding';
import { connectionCounter, deliveryContext, describeWithPeer, receivedOf } from '../../../test-support/forwarding-peers/peer';
import { influxdbPeer, type InfluxPeer } from '../../../test-support/forwarding-peers/influxdb';
import { buildMessages, caSignedCertificate } from '../../../test-support/forwarding-peers/http-and-files-support';
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
    const [message] = buildMessages(1, 4);
    expect(message && influxLine(message)).toBe(
      'solarPower,device=aP9mZt,asset=0 activePower=4242,energyTotal=1234571,phaseVoltage_l1=230.5,phaseVoltage_l2=229.8,phaseVoltage_l3=231.4,' +
        'dcInputs_0_voltage=612.5,dcInputs_0_current=3.25,state="producing",id="r-4",position="4",version=3i 1795168806000000000',
    );
  });

  it('escapes spaces, commas and quotes, and leaves the asset tag out of a device report', () => {
    const [alarm] = buildMessages(4, 0).filter((message) => message.messageType === 'alarm');
    expect(alarm && influxLine({ ...alarm, device: { ...alarm.device, hashId: 'a b,c=d' } })).toBe(
      'alarm,device=a\\ b\\,c\\=d code="E103",severity="warning",text="Inverter \\"INV-2\\", fan blocked",active=false,id="r-3",position="3",version=1i 1795168804500000000',
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
    const batches = [buildMessages(4, 400), buildMessages(5, 404), buildMessages(3, 409)];
    for (const batch of batches) {
      await deliverer.deliver(batch);
    }
    await deliverer.close();

    expect(await peer.received()).toEqual(batches.flat().map(withoutValues));
    const answer = await peer.query(`SELECT "phaseVoltage_l1", "state", "version", "asset" FROM "gridport_test"."gridport"."solarPower" WHERE "id" = 'r-404'`);
    expect(answer.results[0]?.series?.[0]?.values).toEqual([[Date.parse(batches[1]?.[0]?.at ?? ''), 230.1 + 40.4, 'producing', 3, '0']]);
  });

  it('a batch written twice leaves the same points (same measurement, tags and time)', async () => {
    const deliverer = influxdbDeliverer(settingsOf(peer.settings), deliveryContext(true));
    const before = (await peer.received()).length;
    const batch = buildMessages(3, 420);
    await deliverer.deliver(batch);
    await deliverer.deliver(batch);
    await deliverer.close();
    const received = await peer.received();
    expect(received.length).toBe(before + 3);
    expect(received.slice(-3)).toEqual(batch.map(withoutValues));
  });

  it("fails with InfluxDB's answer while the writer may not write, and writes again once it may", async () => {
    const deliverer = influxdbDeliverer(settingsOf(peer.settings), deliveryContext(true));
    const batch = buildMessages(2, 430);
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
    const failure = deliverer.deliver(buildMessages(1, 440));
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
    const batch = buildMessages(4, 700);
    await deliverer.deliver(batch);
    await deliverer.close();
    expect(await peer.received()).toEqual(batch.map(withoutValues));
  });

  it('fails naming the certificate problem with another CA or none, and writes nothing', async () => {
    const { caCertificate: otherCa } = await caSignedCertificate(directory, 'other');
    for (const tlsCaCertificate of [otherCa, undefined]) {
      const deliverer = influxdbDeliverer(settingsOf({ ...peer.settings, tlsCaCertificate }), deliveryContext(true));
      await expect(deliverer.deliver(buildMessages(1, 710))).rejects.toThrow(
        /^InfluxDB https:\/\/localhost:\d+\/write failed: unable to verify the first certificate \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)$/,
      );
      await deliverer.close();
    }
    expect((await peer.received()).map((message) => message.position)).not.toContain('710');
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
    const batch = buildMessages(2, 500);
    await deliverer.deliver(batch);
    await deliverer.close();
    await new Promise((resolve) => server.close(resolve));
    expect(requests).toEqual([
      { url: '/influx/api/v2/write?org=acme&bucket=plants&precision=ns', authorization: 'Token tok-123', body: `${batch.map(influxLine).join('\n')}\n` },
    ]);
  });
});
