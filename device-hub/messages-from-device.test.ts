import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { gatewayPath } from '../contracts/hub/protocol';
import { provision, signChallenge } from '../edge/gateway-client/provision';
import { testApp, type TestApp } from '../test-support/app';
import { buildDevice } from '../test-support/factories';

/** The next envelope the socket receives. */
function nextFrame(socket: WebSocket): Promise<{ id: string; type: string; payload: Record<string, unknown> }> {
  return new Promise((resolve) =>
    socket.once('message', (data) => resolve(JSON.parse(data.toString()) as { id: string; type: string; payload: Record<string, unknown> })),
  );
}

/** Waits until `probe` answers true; fails after `withinMs`. */
async function eventually(what: string, probe: () => Promise<boolean>, withinMs = 10_000): Promise<void> {
  const until = Date.now() + withinMs;
  while (!(await probe())) {
    if (Date.now() > until) {
      throw new Error(`waited ${withinMs} ms for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * messageFromDevice audit entries (console.md section 3) are written whether monitors run or
 * not: for the device's error and alarm reports and for each error envelope its gateway sends,
 * and for nothing else it reports.
 */
describe.each([
  ['on', { sweepSeconds: 60 }],
  ['off', false],
] as const)('messages from a device with monitors %s', (_, monitors) => {
  let t: TestApp;
  let baseUrl: string;
  let folder: string;

  beforeAll(async () => {
    t = await testApp({}, { hub: true, monitors });
    baseUrl = await t.listen();
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-messages-'));
  });

  afterAll(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('audits error and alarm reports and error envelopes as messageFromDevice, and no measurement', async () => {
    expect(t.hub?.monitors === null).toBe(monitors === false);
    const device = await buildDevice(t.services, { name: `Messages ${monitors === false ? 'off' : 'on'}` });
    const identity = await provision({
      baseUrl,
      token: device.provisioningToken,
      identifier: `gw-messages-${device.id}`,
      directory: path.join(folder, String(device.id)),
    });
    const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}${gatewayPath}`);
    const challenge = await nextFrame(socket);
    const signature = await signChallenge(identity.privateKey, String(challenge.payload.nonce));
    socket.send(JSON.stringify({ id: 'auth', type: 'authenticate', payload: { certificate: identity.certificatePem, signature } }));
    expect((await nextFrame(socket)).type).toBe('welcome');

    const at = (second: number) => new Date(Date.now() - 60_000 + second * 1000).toISOString();
    const reports = [
      { type: 'error', at: at(1), observations: { code: 'disk_full', message: 'the report store is full' } },
      { type: 'alarm', at: at(2), observations: { code: 'E042', level: 'fault', active: true } },
      { type: 'assetIdentifiers', at: at(3), observations: { assets: [{ asset: 0, identifier: 'SN-1' }] } },
    ];
    const acks: string[] = [];
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; payload: { ids?: string[] } };
      if (frame.type === 'ack') {
        acks.push(...(frame.payload.ids ?? []));
      }
    });
    reports.forEach((report, index) => socket.send(JSON.stringify({ id: `r${index}`, type: 'report', payload: report })));
    socket.send(JSON.stringify({ id: 'err-7', type: 'error', payload: { ids: ['1043'], key: 'payload_invalid', message: 'message 1043 has no type' } }));
    await eventually('the reports acknowledged', async () => acks.length >= 3);

    const entries = async () =>
      (await t.database.db('audit_log').where({ object_type: 'devices', object_id: device.id, change_type: 'messageFromDevice' }).orderBy('id')) as {
        diff: { type: string; name: string; newValue: Record<string, unknown> }[];
      }[];
    await eventually('three messages audited', async () => (await entries()).length >= 3);
    await t.services.messagesFromDevice.idle();
    const audited = await entries();
    expect(audited.map((entry) => entry.diff.map((d) => [d.type, d.name]))).toEqual(
      expect.arrayContaining([[['json', 'error']], [['json', 'alarm']], [['json', 'errorEnvelope']]]),
    );
    expect(audited).toHaveLength(3);
    const envelope = audited.find((entry) => entry.diff[0]?.name === 'errorEnvelope');
    expect(envelope?.diff[0]?.newValue).toEqual({ id: 'err-7', ids: ['1043'], key: 'payload_invalid', message: 'message 1043 has no type' });
    const error = audited.find((entry) => entry.diff[0]?.name === 'error');
    expect(error?.diff[0]?.newValue).toMatchObject({ type: 'error', observations: { code: 'disk_full' } });
    socket.close();
  });
});
