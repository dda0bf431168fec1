import { promises as fs } from 'node:fs';
import https from 'node:https';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GridportError } from '../../../contracts/errors';
import { destinationSettingsSchemas } from '../../../contracts/forwarding';
import { forwardedBatch } from '../../../test-support/forwarding-peers/messages';
import { connectionCounter, deliveryContext, describeWithPeer, receivedOf } from '../../../test-support/forwarding-peers/peer';
import { httpPeer, type HttpPeer } from '../../../test-support/forwarding-peers/http';
import { selfSignedCertificate } from '../../../test-support/forwarding-peers/http-and-files-support';
import { httpDeliverer } from './http';

function settingsOf(settings: Record<string, unknown>) {
  return destinationSettingsSchemas.http.validateSync(settings);
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describeWithPeer(httpPeer, __filename)('the http deliverer', () => {
  let peer: HttpPeer;

  beforeAll(async () => {
    peer = await httpPeer.start();
  });
  afterAll(async () => {
    await peer?.stop();
  });

  it('posts each batch as a JSON array with the settings headers, and the peer gets every message as sent', async () => {
    const deliverer = httpDeliverer(settingsOf(peer.settings), deliveryContext(true));
    const batches = [forwardedBatch(100, 3), forwardedBatch(103, 4), forwardedBatch(107, 2)];
    for (const batch of batches) {
      await deliverer.deliver(batch);
    }
    await deliverer.close();

    expect(await peer.received()).toEqual(batches.flat().map(receivedOf));
    const last = peer.requests[peer.requests.length - 1];
    expect(last).toMatchObject({ method: 'POST', path: '/ingest/gridport?source=test', status: 200 });
    expect(last?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(last?.body ?? '')).toEqual(JSON.parse(JSON.stringify(batches[2])));
  });

  it('sends PUT when the settings say so', async () => {
    const deliverer = httpDeliverer(settingsOf({ ...peer.settings, method: 'PUT' }), deliveryContext(true));
    await deliverer.deliver(forwardedBatch(120, 1));
    await deliverer.close();
    expect(peer.requests[peer.requests.length - 1]).toMatchObject({ method: 'PUT', status: 200 });
  });

  it('sends credentials written in the URL as basic auth, and never names them in an error', async () => {
    const counter = await connectionCounter();
    const deliverer = httpDeliverer(settingsOf({ url: `http://user:pa55@127.0.0.1:${counter.port}/in?key=k3y`, timeoutMs: 1000 }), deliveryContext(true));
    const failure = deliverer.deliver(forwardedBatch(125, 1));
    await expect(failure).rejects.toThrow(`HTTP destination http://127.0.0.1:${counter.port}/in failed:`);
    await failure.catch((error: Error) => expect(error.message).not.toMatch(/pa55|k3y/));
    await deliverer.close();
    await counter.close();

    const recording: (string | undefined)[] = [];
    const server = http.createServer((request, response) => {
      recording.push(request.headers.authorization);
      request.resume().on('end', () => response.writeHead(204).end());
    });
    const port = await listen(server);
    const withCredentials = httpDeliverer(settingsOf({ url: `http://user:pa55@127.0.0.1:${port}/in` }), deliveryContext(true));
    await withCredentials.deliver(forwardedBatch(126, 1));
    await withCredentials.close();
    await closeServer(server);
    expect(recording).toEqual([`Basic ${Buffer.from('user:pa55').toString('base64')}`]);
  });

  it('a batch delivered twice reaches the receiver twice (it tells them apart by device and id, or by position)', async () => {
    const before = (await peer.received()).length;
    const deliverer = httpDeliverer(settingsOf(peer.settings), deliveryContext(true));
    const batch = forwardedBatch(130, 2);
    await deliverer.deliver(batch);
    await deliverer.deliver(batch);
    await deliverer.close();
    expect((await peer.received()).slice(before)).toEqual([...batch, ...batch].map(receivedOf));
  });

  it('fails with the status while the receiver answers errors, and delivers again once it is back', async () => {
    const deliverer = httpDeliverer(settingsOf(peer.settings), deliveryContext(true));
    const batch = forwardedBatch(140, 2);
    await peer.break();
    const failure = deliverer.deliver(batch);
    await expect(failure).rejects.toThrow(/^HTTP destination http:\/\/127\.0\.0\.1:\d+\/ingest\/gridport answered 503$/);
    await failure.catch((error: Error) => expect(error.message).not.toContain('peer-token'));
    await peer.heal();
    await deliverer.deliver(batch);
    await deliverer.close();
    expect((await peer.received()).slice(-2)).toEqual(batch.map(receivedOf));
  });

  it('does not follow a redirect: a 3xx fails the batch, naming the status', async () => {
    let redirected = 0;
    const server = http.createServer((_request, response) => {
      redirected++;
      response.writeHead(307, { location: String(peer.settings.url) }).end();
    });
    const port = await listen(server);
    const before = peer.requests.length;
    const deliverer = httpDeliverer(settingsOf({ ...peer.settings, url: `http://127.0.0.1:${port}/moved` }), deliveryContext(true));
    await expect(deliverer.deliver(forwardedBatch(150, 1))).rejects.toThrow(
      `HTTP destination http://127.0.0.1:${port}/moved answered 307 (redirects are not followed: set the URL it redirects to)`,
    );
    await deliverer.close();
    await closeServer(server);
    expect(redirected).toBe(1);
    expect(peer.requests.length).toBe(before);
  });

  it('gives up after timeoutMs when the receiver does not answer', async () => {
    const server = http.createServer(() => undefined);
    const port = await listen(server);
    const deliverer = httpDeliverer(settingsOf({ url: `http://127.0.0.1:${port}/`, timeoutMs: 300 }), deliveryContext(true));
    await expect(deliverer.deliver(forwardedBatch(160, 1))).rejects.toThrow(`HTTP destination http://127.0.0.1:${port}/ failed: no answer within 300 ms`);
    await deliverer.close();
    await closeServer(server);
  });

  it('trusts a server certificate that chains to tlsCaCertificate, and refuses it without', async () => {
    const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'gridport-http-tls-'));
    const certificate = selfSignedCertificate(directory);
    const bodies: string[] = [];
    const server = https.createServer({ cert: await certificate.cert, key: await certificate.key }, (request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        bodies.push(body);
        response.writeHead(204).end();
      });
    });
    const port = await listen(server);
    try {
      const batch = forwardedBatch(170, 2);
      const trusting = httpDeliverer(settingsOf({ url: `https://localhost:${port}/in`, tlsCaCertificate: await certificate.cert }), deliveryContext(true));
      await trusting.deliver(batch);
      await trusting.close();
      expect(bodies).toEqual([JSON.stringify(batch)]);

      const untrusting = httpDeliverer(settingsOf({ url: `https://localhost:${port}/in` }), deliveryContext(true));
      await expect(untrusting.deliver(batch)).rejects.toThrow(/^HTTP destination https:\/\/localhost:\d+\/in failed: .*(self[- ]signed|certificate)/i);
      await untrusting.close();
      expect(bodies.length).toBe(1);
    } finally {
      await closeServer(server);
      await fs.rm(directory, { recursive: true, force: true });
    }
  });

  it.each([['127.0.0.1'], ['localhost']])('refuses %s with destination_address_not_allowed before connecting when private networks are off', async (host) => {
    const counter = await connectionCounter();
    const deliverer = httpDeliverer(settingsOf({ ...peer.settings, url: `http://${host}:${counter.port}/in` }), deliveryContext(false));
    const failure = deliverer.deliver(forwardedBatch(180, 1));
    await expect(failure).rejects.toBeInstanceOf(GridportError);
    await expect(failure).rejects.toMatchObject({ key: 'destination_address_not_allowed' });
    await deliverer.close();
    expect(counter.connections()).toBe(0);
    await counter.close();
  });

  it('closes twice without throwing', async () => {
    const deliverer = httpDeliverer(settingsOf(peer.settings), deliveryContext(true));
    await deliverer.deliver(forwardedBatch(190, 1));
    await deliverer.close();
    await expect(deliverer.close()).resolves.toBeUndefined();
  });
});
