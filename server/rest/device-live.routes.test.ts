import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exampleDeviceConfig } from '../../contracts/device';
import { GatewayClient } from '../../edge/gateway-client/client';
import { provision } from '../../edge/gateway-client/provision';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, buildDevice } from '../../test-support/factories';

const statistics = { success: 1, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };

/** Reads server-sent events from a fetch response until `count` events have come. */
async function readEvents(response: Response, count: number): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: { event: string; data: Record<string, unknown> }[] = [];
  let text = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) {
      break;
    }
    text += decoder.decode(value, { stream: true });
    let end = text.indexOf('\n\n');
    while (end !== -1) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (event && data) {
        events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
      }
      end = text.indexOf('\n\n');
    }
  }
  await reader.cancel();
  return events;
}

describe('GET /console-admin/v1/device/{hashId}/server-sent-events', () => {
  let t: TestApp;
  let baseUrl: string;
  let folder: string;

  beforeAll(async () => {
    t = await testApp({}, { hub: true });
    baseUrl = await t.listen();
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-sse-'));
  });

  afterAll(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("streams the device's presence and stored reports as they happen, to staff only", async () => {
    const { hashId: organizationHashId } = await anOrganization(t.services, { name: 'Live BV' });
    const { hashId, provisioningToken } = await buildDevice(t.services, { organizationHashId, name: 'Live gateway', config: exampleDeviceConfig });
    const ops = await t.signIn(['gridport.ops']);
    const identity = await provision({ baseUrl, token: provisioningToken, identifier: 'gw-live-1', directory: path.join(folder, 'identity') });

    const customer = await fetch(`${baseUrl}/console-admin/v1/device/${hashId}/server-sent-events`, {
      headers: { cookie: await t.signIn(['customer.write'], organizationHashId) },
    });
    expect(customer.status).toBe(403);
    const missing = await fetch(`${baseUrl}/console-admin/v1/device/nope/server-sent-events`, { headers: { cookie: ops } });
    expect(missing.status).toBe(404);

    const stream = await fetch(`${baseUrl}/console-admin/v1/device/${hashId}/server-sent-events`, { headers: { cookie: ops } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = readEvents(stream, 3);

    const client = new GatewayClient({ baseUrl, identity, storeDirectory: path.join(folder, 'reports'), networkInterface: 'cellular', minBackoffMs: 50 });
    await client.start();
    await client.connected();
    const at = new Date().toISOString();
    await client.report({ type: 'meterPower', at, asset: 2, observations: { activePower: 4200, connectionStatistics: statistics } });
    await client.report({ type: 'batteryPower', at, asset: 3, observations: { activePower: -1000, stateOfCharge: 55.5, connectionStatistics: statistics } });
    const received = await events;
    expect(received.map((event) => event.event)).toEqual(['presence', 'report', 'report']);
    expect(received[0]?.data).toEqual({ deviceHashId: hashId, online: true, networkInterface: 'cellular' });
    expect(received[1]?.data).toMatchObject({ deviceHashId: hashId, type: 'meterPower', at, assetIndex: 2, body: { observations: { activePower: 4200 } } });
    await client.stop();

    // A stream still open when the server stops is ended by it, with a last event, and does not hold the stop up.
    const open = await fetch(`${baseUrl}/console-admin/v1/device/${hashId}/server-sent-events`, { headers: { cookie: ops } });
    // Read to the stream's end: the stopped gateway's offline presence may still arrive before it.
    const last = readEvents(open, 10);
    const started = Date.now();
    await t.hub?.close();
    await t.app.close();
    expect(Date.now() - started).toBeLessThan(5000);
    const names = (await last).map((event) => event.event);
    expect(names.at(-1)).toBe('end');
    expect(names.slice(0, -1).every((name) => name === 'presence')).toBe(true);
  });
});
