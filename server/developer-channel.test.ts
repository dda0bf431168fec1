import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { exampleDeviceConfig } from '../contracts/device';
import { GatewayClient, type IncomingMessage } from '../edge/gateway-client/client';
import { provision } from '../edge/gateway-client/provision';
import { testApp, type TestApp } from '../test-support/app';
import { anOrganization, buildApiKey, buildDevice } from '../test-support/factories';

const statistics = { success: 1, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };

/** /v1/device/web-socket: a developer's live channel to one device. */
describe('the developer channel', () => {
  let t: TestApp;
  let baseUrl: string;
  let folder: string;

  beforeAll(async () => {
    t = await testApp({}, { hub: true });
    baseUrl = await t.listen();
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-developer-'));
  });

  afterAll(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** An API key of the provider organisation with these staff rights (as `gridport api-key create --rights`). */
  async function aKey(rights: ('gridport.developer' | 'gridport.employee')[]): Promise<string> {
    return (await buildApiKey(t.services, { name: `Key ${rights.join(' ')} ${Date.now()}`, rights })).apiKey;
  }

  function upgrade(query: string, headers: Record<string, string>): Promise<{ status: number; body: string; socket?: WebSocket }> {
    return new Promise((resolve) => {
      const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/v1/device/web-socket${query}`, { headers });
      socket.on('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      socket.on('open', () => resolve({ status: 101, body: '', socket }));
    });
  }

  it('streams what the device reports and queues messages for it; refuses other keys, sessions, unknown devices and plain requests', async () => {
    const { hashId: organizationHashId } = await anOrganization(t.services, { name: 'Developer BV' });
    const { hashId, provisioningToken } = await buildDevice(t.services, { organizationHashId, name: 'Developed gateway', config: exampleDeviceConfig });
    const ops = await t.signIn(['gridport.ops']);
    const identity = await provision({ baseUrl, token: provisioningToken, identifier: 'gw-developer', directory: path.join(folder, 'identity') });
    const developer = await aKey(['gridport.developer']);

    const plain = await fetch(`${baseUrl}/v1/device/web-socket?deviceId=${hashId}`, { headers: { authorization: `Bearer ${developer}` } });
    expect({ status: plain.status, body: (await plain.json()) as unknown }).toEqual({
      status: 400,
      body: { key: 'upgrade_failed', details: { reason: 'this path takes a websocket upgrade only' } },
    });
    expect((await upgrade(`?deviceId=${hashId}`, { authorization: `Bearer ${await aKey(['gridport.employee'])}` })).status).toBe(403);
    expect((await upgrade(`?deviceId=${hashId}`, { cookie: ops })).status).toBe(403);
    expect((await upgrade(`?deviceId=${hashId}`, {})).status).toBe(401);
    const unknown = await upgrade('?deviceId=nope', { authorization: `Bearer ${developer}` });
    expect({ status: unknown.status, body: JSON.parse(unknown.body) as unknown }).toEqual({
      status: 404,
      body: { key: 'not_found', details: { deviceId: 'nope' } },
    });

    const opened = await upgrade(`?deviceId=${hashId}`, { authorization: `Bearer ${developer}` });
    expect(opened.status).toBe(101);
    const channel = opened.socket as WebSocket;
    const frames: Record<string, unknown>[] = [];
    channel.on('message', (data) => frames.push(JSON.parse(data.toString()) as Record<string, unknown>));

    const received: IncomingMessage[] = [];
    const gateway = new GatewayClient({
      baseUrl,
      identity,
      storeDirectory: path.join(folder, 'reports'),
      minBackoffMs: 50,
      onMessage: (message) => void received.push(message),
    });
    await gateway.start();
    await gateway.connected();
    await gateway.report({ type: 'meterPower', at: new Date().toISOString(), asset: 2, observations: { activePower: 7, connectionStatistics: statistics } });
    await gateway.drained();

    channel.send(JSON.stringify({ type: 'message', message: { type: 'debugPing', payload: 'hello' } }));
    channel.send(JSON.stringify({ type: 'message', message: { type: 'fly' } }));
    channel.send('not json');
    await new Promise((resolve) => setTimeout(resolve, 400));

    expect(frames.map((frame) => frame.type)).toEqual(expect.arrayContaining(['presence', 'report', 'queued', 'error']));
    expect(frames.find((frame) => frame.type === 'report')).toMatchObject({
      deviceHashId: hashId,
      report: { type: 'meterPower', body: { observations: { activePower: 7 } } },
    });
    expect(frames.filter((frame) => frame.type === 'error').map((frame) => frame.key)).toEqual(['payload_invalid', 'payload_not_json']);
    expect(received.map((message) => (message.payload as { type: string }).type)).toContain('debugPing');
    channel.close();
    await gateway.stop();
  });
});
