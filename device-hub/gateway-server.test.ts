import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { exampleDeviceConfig } from '../contracts/device';
import { closeCodes, gatewayPath, hubLimits, retryAfterOfReason } from '../contracts/hub/protocol';
import { until as waitUntil } from '../test-support/until';
import { GatewayClient, type IncomingMessage } from '../edge/gateway-client/client';
import { provision, signChallenge, type GatewayIdentity } from '../edge/gateway-client/provision';
import { testApp, type TestApp } from '../test-support/app';
import { createDeviceHub } from './hub';
import { ReportIngest } from './ingest';
import { RedisPubSub } from './redis-pubsub';
import { reachable, requireServices } from '../test-support/services';
import { anOrganization, buildDevice } from '../test-support/factories';

const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
/** The case of two nodes counting through Redis runs when Redis answers (or must: REQUIRE_SERVICES). */
const redisAvailable = requireServices || reachable(redisUrl, 6379);

/** Reports are dated an hour ago and on: within the window around the server's clock (reportTimeWindow). */
const reportsFrom = Date.now() - 60 * 60 * 1000;
const meterReport = (second: number, activePower = 1500) => ({
  type: 'meterPower',
  at: new Date(reportsFrom + second * 1000).toISOString(),
  asset: 2,
  observations: {
    activePower,
    reactivePower: 10,
    frequency: 50,
    phaseVoltage: { l1: 230, l2: 231, l3: 229 },
    connectionStatistics: { success: 10, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 },
  },
});

/** Resolves with the close code once the socket closes. */
function closed(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.once('close', (code) => resolve(code)));
}

/** The next envelope the socket receives. */
function nextFrame(socket: WebSocket): Promise<{ id: string; type: string; payload: Record<string, unknown> }> {
  return new Promise((resolve) =>
    socket.once('message', (data) => resolve(JSON.parse(data.toString()) as { id: string; type: string; payload: Record<string, unknown> })),
  );
}

/** Gateways over a real websocket: provisioning, the handshake, reports in, the outbox out, and the limits. */
describe('the device hub', () => {
  let t: TestApp;
  let baseUrl: string;
  let folder: string;
  let organizationHashId: string;
  let ops: string;
  let gateways = 0;
  const clients: GatewayClient[] = [];

  beforeAll(async () => {
    t = await testApp({}, { hub: true });
    baseUrl = await t.listen();
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-hub-'));
    organizationHashId = (await anOrganization(t.services, { name: 'Hub Test BV' })).hashId;
    ops = await t.signIn(['gridport.ops']);
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.stop()));
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** A shipped, provisioned gateway with the example config: its hash id, id, identity and a store folder. */
  async function aGateway(
    config: Record<string, unknown> = exampleDeviceConfig,
  ): Promise<{ hashId: string; deviceId: number; identifier: string; identity: GatewayIdentity; directory: string }> {
    gateways += 1;
    const identifier = `gw-hub-${gateways}`;
    const { hashId, provisioningToken } = await buildDevice(t.services, { organizationHashId, name: `Hub gateway ${gateways}` });
    const directory = path.join(folder, identifier);
    const identity = await provision({ baseUrl, token: provisioningToken, identifier, directory: path.join(directory, 'identity') });
    const configured = await t.call('PUT', `/console-admin/v1/device/${hashId}`, ops, { config });
    expect(configured.json()).toMatchObject({ hashId });
    return { hashId, deviceId: t.hashIds.decode('device', hashId) ?? 0, identifier, identity, directory };
  }

  function aClient(
    gateway: { identity: GatewayIdentity; directory: string },
    onMessage?: (message: IncomingMessage) => void,
    onError?: (error: { key: string }) => void,
  ): GatewayClient {
    const client = new GatewayClient({
      baseUrl,
      identity: gateway.identity,
      storeDirectory: path.join(gateway.directory, 'reports'),
      networkInterface: 'eth0',
      version: '1.2.3',
      minBackoffMs: 50,
      maxBackoffMs: 200,
      onMessage,
      onError,
    });
    clients.push(client);
    return client;
  }

  const device = (deviceId: number) =>
    t.database.db('devices').where('id', deviceId).first() as Promise<{ online: boolean; network_interface: string | null; version: string | null }>;

  it('lets a provisioned gateway in, tracks it online with its interface, stores its reports and acknowledges them after the commit', async () => {
    const gateway = await aGateway();
    const client = aClient(gateway);
    await client.start();
    await client.connected();
    expect(client.identifier).toBe(gateway.identifier);
    expect(client.keepAliveSeconds).toBe(exampleDeviceConfig.cloudKeepAliveIntervalInSec);
    expect(await device(gateway.deviceId)).toMatchObject({ online: true, network_interface: 'eth0', version: '1.2.3' });

    for (let second = 0; second < 50; second += 1) {
      await client.report(meterReport(second));
    }
    await client.drained();
    const rows = (await t.database.db('device_reports').where('device_id', gateway.deviceId).orderBy('at')) as {
      type: string;
      asset_index: number;
      body: { observations: { activePower: number } };
    }[];
    expect(rows).toHaveLength(50);
    expect(rows[0]).toMatchObject({ type: 'meterPower', asset_index: 2, body: { observations: { activePower: 1500 } } });

    await client.stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await device(gateway.deviceId)).toMatchObject({ online: false });
  });

  it('answers a bad report with an error naming it, stores nothing of it, and keeps the connection', async () => {
    const gateway = await aGateway();
    const errors: { key: string; ids?: string[]; details?: unknown }[] = [];
    const client = aClient(gateway, undefined, (error) => errors.push(error));
    await client.start();
    await client.connected();
    const bad = await client.report({ ...meterReport(1), observations: { ...meterReport(1).observations, activePower: 'lots' } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(errors).toEqual([
      {
        key: 'payload_invalid',
        message: 'The report does not match its schema.',
        ids: [bad],
        details: [{ path: 'observations.activePower', message: 'observations.activePower must be a finite number or null' }],
      },
    ]);
    await client.report(meterReport(2));
    // The refused report is dropped by the gateway once told (it can never be stored); the good one is acknowledged.
    await client.drained();
    const rows = await t.database.db('device_reports').where('device_id', gateway.deviceId);
    expect(rows).toHaveLength(1);
    expect(client.connections).toBe(1);
    await client.stop();
  });

  it('refuses reports dated 9999 or 0001, or for an asset or loop the running config lacks, stores nothing of them, and keeps the connection', async () => {
    // A config of three assets and no control loop.
    const standalone = exampleDeviceConfig.assets.filter((asset) => !/AssetIndex|environmentalSensors/.test(JSON.stringify(asset)));
    const gateway = await aGateway({ ...exampleDeviceConfig, assets: standalone.slice(0, 3), activeControl: [] });
    const errors: { key: string; message?: string; ids?: string[]; details?: unknown }[] = [];
    const client = aClient(gateway, undefined, (error) => errors.push(error));
    await client.start();
    await client.connected();
    const good = meterReport(10);
    const outsideWindow = {
      path: 'at',
      message: expect.stringMatching(/^at must lie between \S+ and \S+ \(366 days before to 15 minutes after the server's clock\)$/) as unknown,
    };
    const probes = [
      { report: { ...good, at: '9999-01-01T00:00:00Z' }, details: [outsideWindow] },
      { report: { ...good, at: '0001-01-01T00:00:00Z' }, details: [outsideWindow] },
      { report: { ...good, asset: 999 }, details: [{ path: 'asset', message: "asset must be an index of the running config's assets: 0 to 2" }] },
      { report: { ...good, asset: 3 }, details: [{ path: 'asset', message: "asset must be an index of the running config's assets: 0 to 2" }] },
      {
        report: { type: 'powerLimiterStatus', at: good.at, controller: 0, observations: { state: 'idle' } },
        details: [{ path: 'controller', message: "controller must be an index of the running config's control loops, and it has none" }],
      },
    ];
    const ids: string[] = [];
    for (const probe of probes) {
      ids.push(await client.report(probe.report));
    }
    const kept = await client.report({ ...good, asset: 2 });
    await client.drained();
    expect(errors).toEqual(
      probes.map((probe, index) => ({
        key: 'payload_invalid',
        message: 'The report cannot be true: its time or index is out of range.',
        ids: [ids[index]],
        details: probe.details,
      })),
    );
    const rows = (await t.database.db('device_reports').where('device_id', gateway.deviceId).pluck('report_id')) as string[];
    expect(rows).toEqual([kept]);
    expect(client.connections).toBe(1);

    // The device says it runs a config of four assets now: asset 3 is its own from then on.
    await client.report({
      type: 'config',
      at: good.at,
      observations: { source: 'local', config: { ...exampleDeviceConfig, assets: standalone.slice(0, 4), activeControl: [] } },
    });
    const fourth = await client.report({ ...good, asset: 3 });
    await client.drained();
    expect(errors).toHaveLength(probes.length);
    expect(await t.database.db('device_reports').where({ device_id: gateway.deviceId, report_id: fourth }).first()).toMatchObject({ asset_index: 3 });
    await client.stop();
  });

  it('delivers the outbox in order, also what was queued while the gateway was away, until each message is acknowledged', async () => {
    const gateway = await aGateway();
    const received: IncomingMessage[] = [];
    // The config queued at shipping time waits for the first connection.
    const client = aClient(gateway, (message) => void received.push(message));
    await client.start();
    await client.connected();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received.map((message) => (message.payload as { type: string }).type)).toEqual(['setConfig']);

    const reboot = await t.call('POST', `/console-admin/v1/device/${gateway.hashId}/send-message`, ops, { message: { type: 'getJournal', lines: 20 } });
    expect(reboot.statusCode).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received.map((message) => (message.payload as { type: string }).type)).toEqual(['setConfig', 'getJournal']);

    await client.stop();
    await t.call('POST', `/console-admin/v1/device/${gateway.hashId}/send-message`, ops, { message: { type: 'getSignalQuality' } });
    await t.call('POST', `/console-admin/v1/device/${gateway.hashId}/send-message`, ops, { message: { type: 'reboot', hard: false } });
    const later = aClient(gateway, (message) => void received.push(message));
    await later.start();
    await later.connected();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.map((message) => (message.payload as { type: string }).type)).toEqual(['setConfig', 'getJournal', 'getSignalQuality', 'reboot']);
    expect(await t.services.deviceOutbox.pending(gateway.deviceId)).toEqual([]);
    await later.stop();
  });

  /** A websocket that went through the handshake by hand, as a gateway would. */
  async function rawAuthenticated(identity: GatewayIdentity, base = baseUrl.replace('http', 'ws')): Promise<WebSocket> {
    const socket = new WebSocket(`${base}${gatewayPath}`);
    const challenge = await nextFrame(socket);
    const signature = await signChallenge(identity.privateKey, String(challenge.payload.nonce));
    socket.send(JSON.stringify({ id: 'auth', type: 'authenticate', payload: { certificate: identity.certificatePem, signature } }));
    const welcome = await nextFrame(socket);
    expect(welcome.type).toBe('welcome');
    return socket;
  }

  /** The close a gateway gets that answers the challenge as rawAuthenticated does and is turned away. */
  async function refusedAuthentication(identity: GatewayIdentity, base = baseUrl.replace('http', 'ws')): Promise<{ code: number; reason: string }> {
    const socket = new WebSocket(`${base}${gatewayPath}`);
    const challenge = await nextFrame(socket);
    const refused = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    const signature = await signChallenge(identity.privateKey, String(challenge.payload.nonce));
    socket.send(JSON.stringify({ id: 'auth', type: 'authenticate', payload: { certificate: identity.certificatePem, signature } }));
    return refused;
  }

  /** Every envelope a socket receives from now on. */
  function frames(socket: WebSocket): { id: string; type: string; payload: Record<string, unknown> }[] {
    const received: { id: string; type: string; payload: Record<string, unknown> }[] = [];
    socket.on('message', (data) => void received.push(JSON.parse(data.toString()) as { id: string; type: string; payload: Record<string, unknown> }));
    return received;
  }

  /** Waits until `done` holds, polling; fails the test with `what` when it does not within 20 s. */
  async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await done())) {
      if (Date.now() > deadline) {
        throw new Error(`waited 20 s for ${what}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('lets two gateways that authenticate at once in, each with its own outbox and session (the handshakes share their queries)', async () => {
    const [first, second] = [await aGateway(), await aGateway()];
    for (const gateway of [first, second]) {
      const sent = await t.call('POST', `/console-admin/v1/device/${gateway.hashId}/send-message`, ops, { message: { type: 'getJournal', lines: 5 } });
      expect(sent.statusCode).toBe(201);
    }
    const opened = jest.spyOn(t.services.devicePresence, 'connectedMany');
    const read = jest.spyOn(t.services.deviceOutbox, 'pendingMany');
    try {
      const url = `${baseUrl.replace('http', 'ws')}${gatewayPath}`;
      const sockets = [new WebSocket(url), new WebSocket(url)];
      const challenges = await Promise.all(sockets.map((socket) => nextFrame(socket)));
      const signatures = await Promise.all(
        [first, second].map((gateway, index) => signChallenge(gateway.identity.privateKey, String(challenges[index]?.payload.nonce))),
      );
      const received = sockets.map((socket) => frames(socket));
      // Both authenticate envelopes leave in the same tick.
      [first, second].forEach((gateway, index) =>
        sockets[index]?.send(
          JSON.stringify({
            id: 'auth',
            type: 'authenticate',
            payload: { certificate: gateway.identity.certificatePem, signature: signatures[index], networkInterface: index === 0 ? 'eth1' : 'cellular' },
          }),
        ),
      );
      const types = (index: number) => (received[index] ?? []).map((frame) => (frame.type === 'message' ? String(frame.payload.type) : frame.type));
      await until(() => types(0).length >= 3 && types(1).length >= 3, 'both welcomes and outboxes');
      expect([types(0), types(1)]).toEqual([
        ['welcome', 'setConfig', 'getJournal'],
        ['welcome', 'setConfig', 'getJournal'],
      ]);
      expect(received.map((frames) => frames[0]?.payload.identifier)).toEqual([first.identifier, second.identifier]);
      expect(await device(first.deviceId)).toMatchObject({ online: true, network_interface: 'eth1' });
      expect(await device(second.deviceId)).toMatchObject({ online: true, network_interface: 'cellular' });
      const sessions = opened.mock.calls.flatMap(([batch]) => batch.map((session) => session.deviceId));
      expect(sessions.sort()).toEqual([first.deviceId, second.deviceId].sort());
      const reads = read.mock.calls.flatMap(([batch]) => batch.map((request) => request.deviceId));
      expect(new Set(reads)).toEqual(new Set([first.deviceId, second.deviceId]));
      sockets.forEach((socket) => socket.close());
    } finally {
      opened.mockRestore();
      read.mockRestore();
    }
  });

  it('wakes only the connection of the device an outbox message is queued for', async () => {
    const quiet = { ...exampleDeviceConfig, cloudKeepAliveIntervalInSec: 60 };
    const [addressed, bystander] = [await aGateway(quiet), await aGateway(quiet)];
    const messages: { addressed: string[]; bystander: string[] } = { addressed: [], bystander: [] };
    const addressedClient = aClient(addressed, (message) => void messages.addressed.push((message.payload as { type: string }).type));
    const bystanderClient = aClient(bystander, (message) => void messages.bystander.push((message.payload as { type: string }).type));
    await Promise.all([addressedClient.start(), bystanderClient.start()]);
    await Promise.all([addressedClient.connected(), bystanderClient.connected()]);
    // Their configs delivered and acknowledged, and the reads that follow an ack done.
    for (const gateway of [addressed, bystander]) {
      await until(async () => (await t.services.deviceOutbox.pending(gateway.deviceId)).length === 0, 'the config acknowledged');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const read = jest.spyOn(t.services.deviceOutbox, 'pendingMany');
    try {
      const sent = await t.call('POST', `/console-admin/v1/device/${addressed.hashId}/send-message`, ops, { message: { type: 'getSignalQuality' } });
      expect(sent.statusCode).toBe(201);
      await until(async () => (await t.services.deviceOutbox.pending(addressed.deviceId)).length === 0, 'the message acknowledged');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(messages).toEqual({ addressed: ['setConfig', 'getSignalQuality'], bystander: ['setConfig'] });
      const reads = read.mock.calls.flatMap(([batch]) => batch.map((request) => request.deviceId));
      expect(reads.length).toBeGreaterThan(0);
      expect(new Set(reads)).toEqual(new Set([addressed.deviceId]));
    } finally {
      read.mockRestore();
      await Promise.all([addressedClient.stop(), bystanderClient.stop()]);
    }
  });

  it('paces a gateway that sends a backlog beyond the burst at once instead of closing it: every report stored and acknowledged, in one connection', async () => {
    const gateway = await aGateway();
    const socket = await rawAuthenticated(gateway.identity);
    const received = frames(socket);
    let closedWith: number | null = null;
    socket.on('close', (code) => {
      closedWith = code;
    });
    const backlog = hubLimits.framesBurst + 400;
    const ids = Array.from({ length: backlog }, (_, index) => `b${index}`);
    ids.forEach((id, index) => socket.send(JSON.stringify({ id, type: 'report', payload: meterReport(index) })));
    const acknowledged = () => new Set(received.flatMap((frame) => (frame.type === 'ack' ? (frame.payload.ids as string[]) : [])));
    await until(() => acknowledged().size === backlog || closedWith !== null, 'every report acknowledged');
    expect(closedWith).toBeNull();
    expect([...acknowledged()].sort()).toEqual([...ids].sort());
    expect(received.filter((frame) => frame.type === 'error')).toEqual([]);
    expect(await t.database.db('device_reports').where('device_id', gateway.deviceId).count({ n: '*' })).toEqual([{ n: backlog }]);
    socket.close();
  });

  it('stops reading from every gateway while the ingest is behind (not a byte more leaves the kernel), and acknowledges all it held back, in order, once the database catches up', async () => {
    const hub = t.hub;
    if (!hub) {
      throw new Error('the test app runs no hub');
    }
    const gateways: Awaited<ReturnType<typeof aGateway>>[] = [];
    // Together beyond what the ingest writes and queues before it pushes back (2 × 2,000 + 4,000).
    for (let index = 0; index < 10; index += 1) {
      gateways.push(await aGateway());
    }
    // The server's end of each gateway's TCP connection: how much it has read, and read but not handled.
    const upgraded: Socket[] = [];
    const onUpgrade = (_request: unknown, socket: Socket) => void upgraded.push(socket);
    t.app.server.on('upgrade', onUpgrade);
    const sockets = await Promise.all(gateways.map((gateway) => rawAuthenticated(gateway.identity))).finally(() => t.app.server.off('upgrade', onUpgrade));
    expect(upgraded).toHaveLength(gateways.length);
    const received = sockets.map((socket) => frames(socket));
    // The database stalls the ingest's writes until let go.
    let letGo: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const ingest = hub.ingest as unknown as { insert(...args: unknown[]): Promise<unknown> };
    const insert = ingest.insert.bind(ingest);
    const slowWrites = jest.spyOn(ingest, 'insert').mockImplementation(async (...args) => {
      await stalled;
      return insert(...args);
    });
    const pausesBefore = hub.ingest.stats.pauses;
    const submitted: string[] = [];
    try {
      // Within each connection's burst (the authenticate frame took one), together beyond what the ingest queues before it pushes back.
      const first = 990;
      sockets.forEach((socket, gateway) => {
        for (let index = 0; index < first; index += 1) {
          socket.send(JSON.stringify({ id: `g${gateway}-${index}`, type: 'report', payload: meterReport(index) }));
        }
      });
      await until(() => hub.ingest.stats.pauses > pausesBefore, 'the ingest to push back');
      const readAtPause = upgraded.map((socket) => socket.bytesRead);
      const submit = jest.spyOn(hub.ingest, 'submit');
      submit.mockImplementation((report) => {
        submitted.push(report.reportId);
        return ReportIngest.prototype.submit.call(hub.ingest, report);
      });
      sockets.forEach((socket, gateway) => {
        for (let index = 0; index < 100; index += 1) {
          socket.send(JSON.stringify({ id: `after-g${gateway}-${index}`, type: 'report', payload: meterReport(first + index) }));
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Nothing sent after the push-back was read, nothing is acknowledged before its commit, and the queue stayed within its bound.
      // What each gateway sent and the server had not read when it pushed back (the rest of its first reports, the 100 after
      // them) stays in TCP: not a byte more is read into the server (a paused stream alone read on to its 16 KiB high-water
      // mark and one read of up to 64 KiB per socket).
      expect(upgraded.map((socket, index) => socket.bytesRead - (readAtPause[index] ?? 0))).toEqual(upgraded.map(() => 0));
      expect(upgraded.map((socket) => socket.readableLength)).toEqual(upgraded.map(() => 0));
      expect(submitted.filter((id) => id.startsWith('after-'))).toEqual([]);
      expect(received.flat().filter((frame) => frame.type === 'ack')).toEqual([]);
      expect(hub.ingest.stats.queuedMax).toBeLessThanOrEqual(hubLimits.ingestQueueMax);

      letGo();
      const acknowledged = (gateway: number) => (received[gateway] ?? []).flatMap((frame) => (frame.type === 'ack' ? (frame.payload.ids as string[]) : []));
      await until(() => gateways.every((_, gateway) => acknowledged(gateway).length >= first + 100), 'every report acknowledged');
      expect(received.flat().filter((frame) => frame.type === 'error')).toEqual([]);
      // Each report acknowledged once, in the order its gateway sent it.
      gateways.forEach((_, gateway) =>
        expect(acknowledged(gateway)).toEqual([
          ...Array.from({ length: first }, (_, index) => `g${gateway}-${index}`),
          ...Array.from({ length: 100 }, (_, index) => `after-g${gateway}-${index}`),
        ]),
      );
      expect(submitted.filter((id) => id.startsWith('after-'))).toHaveLength(gateways.length * 100);
      const stored = (await t.database
        .db('device_reports')
        .whereIn(
          'device_id',
          gateways.map((gateway) => gateway.deviceId),
        )
        .count({ n: '*' })) as { n: string | number }[];
      expect(Number(stored[0]?.n)).toBe(gateways.length * (first + 100));
    } finally {
      letGo();
      slowWrites.mockRestore();
      jest.restoreAllMocks();
      sockets.forEach((socket) => socket.close());
    }
  });

  it('logs a pause for the ingest at most once a minute, naming the pauses it did not log', () => {
    const hub = t.hub;
    if (!hub) {
      throw new Error('the test app runs no hub');
    }
    const message = 'the ingest is behind: reading from gateways paused (logged at most once a minute; gridport_ingest_pauses_total counts every pause)';
    const logged = () => t.logs.lines.filter((line) => line.msg === message);
    const before = logged().length;
    // The ingest pushes back and lets go, three times in a row (under sustained load, several times a second).
    const ingest = hub.ingest as unknown as { press(pressed: boolean): void };
    const pauseLog = hub.gateways as unknown as { pauseLog: { at: number; unlogged: number } };
    pauseLog.pauseLog = { at: Number.NEGATIVE_INFINITY, unlogged: 0 };
    for (let pause = 0; pause < 3; pause += 1) {
      ingest.press(true);
      ingest.press(false);
    }
    expect(logged().slice(before)).toEqual([expect.objectContaining({ level: 40, pausesNotLogged: 0 })]);
    // A minute later, the next pause is logged with the two between.
    pauseLog.pauseLog.at -= hubLimits.ingestPauseLogMs;
    ingest.press(true);
    ingest.press(false);
    expect(logged().slice(before)).toEqual([expect.objectContaining({ pausesNotLogged: 0 }), expect.objectContaining({ level: 40, pausesNotLogged: 2 })]);
  });

  it('replaces an older connection of the same device with a newer one (4003), and keeps the device online', async () => {
    const gateway = await aGateway();
    const older = await rawAuthenticated(gateway.identity);
    const olderClosed = closed(older);
    const newer = aClient(gateway);
    await newer.start();
    await newer.connected();
    expect(await olderClosed).toBe(closeCodes.replaced);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await device(gateway.deviceId)).toMatchObject({ online: true });
    await newer.stop();
  });

  it('lets a connection on another node replace this one, and the older one leaving does not mark the device offline', async () => {
    const gateway = await aGateway();
    // A second node: its own hub and HTTP server, on the same database and pub/sub.
    const otherNode = createDeviceHub({ db: t.database.db, services: t.services, log: t.logs.log });
    const server = createServer();
    otherNode.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as AddressInfo).port;
    try {
      const older = await rawAuthenticated(gateway.identity);
      const olderClosed = closed(older);
      const newer = await rawAuthenticated(gateway.identity, `ws://127.0.0.1:${port}`);
      expect(await olderClosed).toBe(closeCodes.replaced);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await device(gateway.deviceId)).toMatchObject({ online: true });
      newer.close();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await device(gateway.deviceId)).toMatchObject({ online: false });
    } finally {
      await otherNode.close();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    }
  });

  (redisAvailable ? it : it.skip)(
    "counts a device's reconnects across nodes through Redis: its attempts on two nodes share one window, and either refuses the next with 4029",
    async () => {
      const gateway = await aGateway();
      // Two nodes of one install: each its own hub, HTTP server and Redis connections, one Redis key prefix.
      const prefix = `gridport-hub-test-${randomBytes(4).toString('hex')}:`;
      const nodes = await Promise.all(
        [0, 1].map(async () => {
          const redis = new RedisPubSub({ url: redisUrl, log: t.logs.log, prefix });
          await redis.ready();
          const hub = createDeviceHub({
            db: t.database.db,
            services: t.services,
            log: t.logs.log,
            redis,
            reconnectThrottle: { attempts: 4, windowMs: 60_000 },
          });
          const server = createServer();
          hub.attach(server);
          await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
          return { redis, hub, server, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}` };
        }),
      );
      const [one, two] = nodes as [(typeof nodes)[number], (typeof nodes)[number]];
      try {
        for (const node of [one, two, one, two]) {
          const socket = await rawAuthenticated(gateway.identity, node.url);
          const gone = closed(socket);
          socket.close();
          await gone;
        }
        for (const node of [one, two]) {
          const { code, reason } = await refusedAuthentication(gateway.identity, node.url);
          expect(code).toBe(closeCodes.reconnectThrottled);
          expect(retryAfterOfReason(reason)).toBeGreaterThan(0);
          expect(retryAfterOfReason(reason)).toBeLessThanOrEqual(60);
        }
      } finally {
        for (const node of nodes) {
          await node.hub.close();
          await new Promise((resolve) => node.server.close(() => resolve(undefined)));
          await node.redis.close();
        }
      }
    },
  );

  it('takes its sessions back when its lease ran out while its connections lived (a stall), and announces them online again', async () => {
    const gateway = await aGateway();
    // A node with a one-second heartbeat, on the same database and pub/sub.
    const stalled = createDeviceHub({ db: t.database.db, services: t.services, log: t.logs.log, presence: { heartbeatSeconds: 1, leaseSeconds: 2 } });
    const server = createServer();
    stalled.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const announced: unknown[] = [];
    const stop = t.services.pubsub.subscribe('device-presence', (message) => void announced.push(message));
    try {
      const socket = await rawAuthenticated(gateway.identity, `ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect(await device(gateway.deviceId)).toMatchObject({ online: true });
      // As if the node had not renewed its lease for a minute: another node's sweep closes the session.
      await t.database
        .db('hub_nodes')
        .where('id', stalled.node.nodeId)
        .update({ lease_expires_at: new Date(Date.now() - 60_000) });
      expect(await t.services.devicePresence.sweep()).toContain(gateway.deviceId);
      expect(await device(gateway.deviceId)).toMatchObject({ online: false });
      // Its next heartbeat finds the lease gone and takes the session back: the connection still lives.
      const deadline = Date.now() + 5000;
      while (!(await device(gateway.deviceId)).online && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await device(gateway.deviceId)).toMatchObject({ online: true, network_interface: null });
      expect(announced).toEqual(
        expect.arrayContaining([
          { deviceId: gateway.deviceId, online: false, networkInterface: null },
          expect.objectContaining({ deviceId: gateway.deviceId, online: true }),
        ]),
      );
      expect(t.logs.lines.some((line) => line.msg === "presence: this node's lease had run out (a stall or the database away); taking its sessions back")).toBe(
        true,
      );
      expect(socket.readyState).toBe(WebSocket.OPEN);
      socket.close();
    } finally {
      stop();
      await stalled.close();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    }
  });

  it('refuses a wrong signature (4001), a frame that is not an envelope before authentication (1008) and oversized frames (1009)', async () => {
    const gateway = await aGateway();
    const url = `${baseUrl.replace('http', 'ws')}${gatewayPath}`;

    const forger = new WebSocket(url);
    await nextFrame(forger);
    forger.send(
      JSON.stringify({
        id: 'a1',
        type: 'authenticate',
        payload: { certificate: gateway.identity.certificatePem, signature: Buffer.alloc(64, 1).toString('base64') },
      }),
    );
    expect(await closed(forger)).toBe(closeCodes.authenticationFailed);

    const rude = new WebSocket(url);
    await nextFrame(rude);
    rude.send('hello there');
    expect(await closed(rude)).toBe(closeCodes.policyViolation);

    const big = new WebSocket(url);
    await nextFrame(big);
    big.send('x'.repeat(hubLimits.maxFrameBytes + 1));
    expect(await closed(big)).toBe(closeCodes.tooBig);
  });

  it('refuses a gateway reconnecting in a tight loop with 4029 and a retry-after once its connections in the window are spent, before its device is looked up; its client stays away', async () => {
    const gateway = await aGateway();
    for (let attempt = 0; attempt < hubLimits.reconnectsPerWindow; attempt += 1) {
      const socket = await rawAuthenticated(gateway.identity);
      const gone = closed(socket);
      socket.close();
      await gone;
    }
    const lookups = jest.spyOn(t.services.provisioning, 'verifyDeviceCertificates');
    const { code, reason } = await refusedAuthentication(gateway.identity);
    expect(code).toBe(closeCodes.reconnectThrottled);
    const retryAfter = retryAfterOfReason(reason);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(hubLimits.reconnectWindowMs / 1000);
    expect(lookups).not.toHaveBeenCalled();
    lookups.mockRestore();

    // Another device is not held back by this one's loop.
    const other = await aGateway();
    (await rawAuthenticated(other.identity)).close();

    const errors: string[] = [];
    const client = aClient(gateway, undefined, (error) => errors.push(error.key));
    await client.start();
    await waitUntil('the client to be told to stay away', () => client.throttledFor !== null, 20_000);
    expect(client.throttledFor).toBeGreaterThan(0);
    expect(client.connections).toBe(0);
    expect(errors).toContain('too_many_requests');
    await client.stop();
  });

  it('closes a gateway that sends faster than allowed (4008)', async () => {
    const gateway = await aGateway();
    const flood = await rawAuthenticated(gateway.identity);
    const code = closed(flood);
    // Beyond the burst, faster than the refill; on a busy machine sending takes a while (the bucket refills meanwhile), so keep going until the close.
    let frame = 0;
    while (flood.readyState === flood.OPEN && frame < hubLimits.framesBurst * 20) {
      for (const end = frame + hubLimits.framesBurst; frame < end; frame += 1) {
        flood.send(JSON.stringify({ id: `f${frame}`, type: 'error', payload: { key: 'noise', message: 'noise' } }));
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await code).toBe(closeCodes.rateLimited);
  });
});
