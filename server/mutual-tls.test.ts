import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import type { IncomingMessage } from 'node:http';
import { gatewayPath, hubLimits, parseEnvelope } from '../contracts/hub/protocol';
import { GatewayClient } from '../edge/gateway-client/client';
import { provision, type GatewayIdentity } from '../edge/gateway-client/provision';
import { testApp, type TestApp } from '../test-support/app';
import { anOrganization, buildDevice } from '../test-support/factories';
import { selfSigned } from '../test-support/tls';

/** fetch over https trusting `ca` (Node's fetch takes no CA of its own): enough for provisioning's one POST. */
function fetchTrusting(ca: string): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    return new Promise<Response>((resolve, reject) => {
      const request = https.request(url, { method: init?.method ?? 'GET', headers: init?.headers as Record<string, string>, ca }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const status = response.statusCode ?? 500;
          resolve(new Response(status === 204 ? null : Buffer.concat(chunks), { status }));
        });
      });
      request.on('error', reject);
      request.end(typeof init?.body === 'string' ? init.body : undefined);
    });
  }) as typeof fetch;
}

/** The first envelope the hub sends on a new gateway connection. */
function firstEnvelope(url: string, options: WebSocket.ClientOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    socket.once('message', (data: Buffer) => {
      resolve(parseEnvelope(data.toString())?.type ?? 'none');
      socket.close();
    });
    socket.once('error', reject);
  });
}

/** How the server answers an upgrade it refuses before any websocket: status, Retry-After and body. */
function refusedUpgrade(url: string, options: WebSocket.ClientOptions): Promise<{ status: number; retryAfter: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    socket.once('unexpected-response', (_request, response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'], body: Buffer.concat(chunks).toString() }),
      );
    });
    socket.once('open', () => reject(new Error('the upgrade was accepted')));
  });
}

/** HTTPS on the server: gateways prove themselves by mutual TLS, or by the signed challenge without a client certificate. */
describe('mutual TLS', () => {
  let folder: string;
  let t: TestApp;
  let baseUrl: string;
  let serverTls: ReturnType<typeof selfSigned>;
  let identity: GatewayIdentity;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-mtls-'));
    serverTls = selfSigned(folder, 'server');
    t = await testApp({}, { hub: true, tls: serverTls });
    baseUrl = await t.listen();
    const { hashId: organizationHashId } = await anOrganization(t.services, { name: 'Mutual BV' });
    const { provisioningToken } = await buildDevice(t.services, { organizationHashId, name: 'Mutual gateway' });
    identity = await provision({
      baseUrl,
      token: provisioningToken,
      identifier: 'gw-mutual',
      directory: path.join(folder, 'identity'),
      fetch: fetchTrusting(serverTls.certificatePem),
    });
  });

  afterAll(async () => {
    await t?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('serves HTTPS, and welcomes a gateway whose client certificate proves it without a challenge', async () => {
    const health = await fetchTrusting(serverTls.certificatePem)(`${baseUrl}/v1/health`);
    expect(health.status).toBe(204);
    const url = `${baseUrl.replace('https', 'wss')}${gatewayPath}`;
    expect(await firstEnvelope(url, { ca: serverTls.certificatePem, cert: identity.certificatePem, key: identity.privateKeyPem })).toBe('welcome');
    // No client certificate, or one the platform CA did not sign: the signed challenge, as over plain HTTP.
    expect(await firstEnvelope(url, { ca: serverTls.certificatePem })).toBe('challenge');
    const foreign = selfSigned(folder, 'foreign');
    expect(await firstEnvelope(url, { ca: serverTls.certificatePem, cert: foreign.certificatePem, key: foreign.privateKeyPem })).toBe('challenge');
  });

  it('connects the gateway client both ways: by mutual TLS with the key at hand, by the challenge without it', async () => {
    for (const withKey of [true, false]) {
      const client = new GatewayClient({
        baseUrl,
        identity: withKey ? identity : { certificatePem: identity.certificatePem, privateKey: identity.privateKey },
        serverCaPems: [serverTls.certificatePem],
        storeDirectory: path.join(folder, `reports-${withKey}`),
        version: '1.2.3',
        minBackoffMs: 50,
      });
      await client.start();
      await client.connected();
      expect(client.identifier).toBe('gw-mutual');
      await client.stop();
    }
    const device = await t.database.db('devices').where('identifier', 'gw-mutual').first('version');
    expect(device).toEqual({ version: '1.2.3' });
  });

  it("refuses a mutual-TLS upgrade beyond the device's reconnects in its window with 429 too_many_requests and Retry-After, before any websocket", async () => {
    const { hashId: organizationHashId } = await anOrganization(t.services, { name: 'Looping BV' });
    const { provisioningToken } = await buildDevice(t.services, { organizationHashId, name: 'Looping gateway' });
    const looping = await provision({
      baseUrl,
      token: provisioningToken,
      identifier: 'gw-mutual-looping',
      directory: path.join(folder, 'looping'),
      fetch: fetchTrusting(serverTls.certificatePem),
    });
    const url = `${baseUrl.replace('https', 'wss')}${gatewayPath}`;
    const options = { ca: serverTls.certificatePem, cert: looping.certificatePem, key: looping.privateKeyPem };
    for (let attempt = 0; attempt < hubLimits.reconnectsPerWindow; attempt += 1) {
      expect(await firstEnvelope(url, options)).toBe('welcome');
    }
    const refused = await refusedUpgrade(url, options);
    expect(refused).toEqual({ status: 429, retryAfter: expect.stringMatching(/^\d+$/) as unknown, body: JSON.stringify({ key: 'too_many_requests' }) });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(hubLimits.reconnectWindowMs / 1000);
    // The gateway of the other tests is not held back by this one's loop.
    expect(await firstEnvelope(url, { ca: serverTls.certificatePem, cert: identity.certificatePem, key: identity.privateKeyPem })).toBe('welcome');
  });

  it('paces a backlog beyond the burst over TLS: reading stops and starts again at the socket, and every report is acknowledged in order in one connection', async () => {
    const socket = new WebSocket(`${baseUrl.replace('https', 'wss')}${gatewayPath}`, {
      ca: serverTls.certificatePem,
      cert: identity.certificatePem,
      key: identity.privateKeyPem,
    });
    const acknowledged: string[] = [];
    const errors: unknown[] = [];
    let closedWith: number | null = null;
    const welcomed = new Promise<void>((resolve) =>
      socket.on('message', (data: Buffer) => {
        const envelope = parseEnvelope(data.toString());
        if (envelope?.type === 'welcome') {
          resolve();
        } else if (envelope?.type === 'ack') {
          acknowledged.push(...((envelope.payload as { ids: string[] }).ids ?? []));
        } else if (envelope?.type === 'error') {
          errors.push(envelope.payload);
        }
      }),
    );
    socket.on('close', (code) => {
      closedWith = code;
    });
    await welcomed;
    const at = Date.now() - 60 * 60 * 1000;
    const ids = Array.from({ length: hubLimits.framesBurst + 400 }, (_, index) => `tls${index}`);
    ids.forEach((id, index) =>
      socket.send(
        JSON.stringify({
          id,
          type: 'report',
          payload: {
            type: 'meterPower',
            at: new Date(at + index * 1000).toISOString(),
            asset: 2,
            observations: {
              activePower: index,
              reactivePower: 10,
              frequency: 50,
              phaseVoltage: { l1: 230, l2: 231, l3: 229 },
              connectionStatistics: { success: 10, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 },
            },
          },
        }),
      ),
    );
    const deadline = Date.now() + 20_000;
    while (acknowledged.length + errors.length < ids.length && closedWith === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect({ closedWith, errors }).toEqual({ closedWith: null, errors: [] });
    expect(acknowledged).toEqual(ids);
    socket.close();
  });
});
