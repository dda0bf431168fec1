import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { exampleDeviceConfig } from '../contracts/device';
import { tunnelHeaders, tunnelPath } from '../contracts/hub/protocol';
import { GatewayClient, type IncomingMessage } from '../edge/gateway-client/client';
import { provision, signChallenge, type GatewayIdentity } from '../edge/gateway-client/provision';
import { openTunnel } from '../edge/gateway-client/tunnel';
import { testApp, type TestApp } from '../test-support/app';
import { anOrganization, buildApiKey, buildDevice } from '../test-support/factories';

/** /v1/device/web-socket/tunnel: a TCP stream relayed through a device to a host on its network. */
describe('the developer tunnel', () => {
  let t: TestApp;
  let baseUrl: string;
  let folder: string;
  let developer: string;
  let echo: net.Server;
  let echoPort: number;
  const gateways: GatewayClient[] = [];

  beforeAll(async () => {
    t = await testApp({}, { hub: true, tunnelOpenTimeoutMs: 1_500 });
    baseUrl = await t.listen();
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-tunnel-'));
    developer = (await buildApiKey(t.services, { name: 'Tunnel developer', rights: ['gridport.developer'] })).apiKey;
    // A host on the site's network: answers every chunk with "echo:" and the chunk.
    echo = net.createServer((socket) => socket.on('data', (data) => socket.write(Buffer.concat([Buffer.from('echo:'), data]))));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoPort = (echo.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await new Promise((resolve) => echo.close(resolve));
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** A provisioned device; connected, with a gateway that opens tunnels when asked unless `answerTunnels` is false. */
  async function aDevice(name: string, { connect = true, answerTunnels = true } = {}): Promise<{ hashId: string; identity: GatewayIdentity }> {
    const { hashId: organizationHashId } = await anOrganization(t.services, { name: `${name} BV` });
    const { hashId, provisioningToken } = await buildDevice(t.services, { organizationHashId, name, config: exampleDeviceConfig });
    const identity = await provision({
      baseUrl,
      token: provisioningToken,
      identifier: `gw-${name.toLowerCase().replace(/\W+/g, '-')}`,
      directory: path.join(folder, name, 'identity'),
    });
    if (connect) {
      const onMessage = async ({ payload }: IncomingMessage) => {
        const message = payload as { type: string; tunnelId?: string; destination?: string };
        if (message.type === 'openTunnel' && answerTunnels && message.tunnelId && message.destination) {
          await openTunnel({ baseUrl, identity, tunnelId: message.tunnelId, destination: message.destination, log: () => undefined }).catch(() => undefined);
        }
      };
      const gateway = new GatewayClient({ baseUrl, identity, storeDirectory: path.join(folder, name, 'reports'), minBackoffMs: 50, onMessage });
      gateways.push(gateway);
      await gateway.start();
      await gateway.connected();
    }
    return { hashId, identity };
  }

  function upgrade(query: string): Promise<{ status: number; body: unknown; socket?: WebSocket }> {
    return new Promise((resolve) => {
      const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/v1/device/web-socket/tunnel${query}`, {
        headers: { authorization: `Bearer ${developer}` },
      });
      socket.on('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(body) as unknown }));
      });
      socket.on('open', () => resolve({ status: 101, body: null, socket }));
    });
  }

  function nextMessage(socket: WebSocket): Promise<string> {
    return new Promise((resolve) => socket.once('message', (data: Buffer) => resolve(data.toString())));
  }

  it('relays bytes both ways between the developer and a host on the device network, until one side closes', async () => {
    const { hashId } = await aDevice('Tunnelled');
    const opened = await upgrade(`?deviceId=${hashId}&destination=127.0.0.1:${echoPort}`);
    expect(opened.status).toBe(101);
    const tunnel = opened.socket as WebSocket;
    const first = nextMessage(tunnel);
    tunnel.send(Buffer.from('hello'));
    expect(await first).toBe('echo:hello');
    const large = Buffer.alloc(200_000, 'x');
    let received = 0;
    const all = new Promise<void>((resolve) =>
      tunnel.on('message', (data: Buffer) => {
        received += data.length;
        if (received >= large.length + 'echo:'.length) {
          resolve();
        }
      }),
    );
    tunnel.send(large);
    await all;
    expect(received).toBeGreaterThanOrEqual(large.length + 5);
    const closed = new Promise<number>((resolve) => tunnel.once('close', (code) => resolve(code)));
    tunnel.close();
    expect(await closed).toBe(1005);
  });

  it('answers device_tunnel_timeout when the device is offline, does not dial back, or cannot reach the destination', async () => {
    const offline = await aDevice('Offline', { connect: false });
    expect(await upgrade(`?deviceId=${offline.hashId}&destination=127.0.0.1:${echoPort}`)).toEqual({
      status: 400,
      body: { key: 'device_tunnel_timeout', details: { reason: 'the device is offline' } },
    });

    const silent = await aDevice('Silent', { answerTunnels: false });
    expect(await upgrade(`?deviceId=${silent.hashId}&destination=127.0.0.1:${echoPort}`)).toEqual({
      status: 400,
      body: { key: 'device_tunnel_timeout', details: { reason: 'the device did not set up the tunnel within 1.5 s' } },
    });

    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const { hashId } = await aDevice('Unreachable');
    expect(await upgrade(`?deviceId=${hashId}&destination=127.0.0.1:${closedPort}`)).toEqual({
      status: 400,
      body: { key: 'device_tunnel_timeout', details: { reason: `the device could not open the tunnel: 127.0.0.1:${closedPort}: ECONNREFUSED` } },
    });
  });

  it('refuses a bad destination, and a dial-back that does not prove the device', async () => {
    const { hashId, identity } = await aDevice('Checked', { connect: false });
    expect(await upgrade(`?deviceId=${hashId}&destination=nowhere`)).toEqual({
      status: 400,
      body: { key: 'query_invalid', details: [{ path: 'destination', message: 'destination must be host:port' }] },
    });

    const tunnelId = 'A'.repeat(32);
    const dial = (headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}${tunnelPath}?tunnelId=${tunnelId}`, { headers });
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        socket.on('open', () => resolve(101));
      });
    const certificate = Buffer.from(identity.certificatePem).toString('base64');
    const otherSignature = await signChallenge(identity.privateKey, Buffer.from('B'.repeat(32)).toString('base64'));
    expect(await dial({})).toBe(401);
    expect(await dial({ [tunnelHeaders.certificate]: certificate, [tunnelHeaders.signature]: otherSignature })).toBe(401);
    // A proven device, but no developer waits for this tunnel id.
    const signature = await signChallenge(identity.privateKey, Buffer.from(tunnelId).toString('base64'));
    expect(await dial({ [tunnelHeaders.certificate]: certificate, [tunnelHeaders.signature]: signature })).toBe(404);
  });
});
