import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import WebSocket from 'ws';
import { exampleDeviceConfig } from '../contracts/device';
import { closeCodes, envelopeTypes, gatewayPath, hubLimits } from '../contracts/hub/protocol';
import { provision, signChallenge, type GatewayIdentity } from '../edge/gateway-client/provision';
import { testApp, type TestApp } from '../test-support/app';
import { anOrganization, buildDevice } from '../test-support/factories';

/**
 * The gateway protocol fuzzed (issue 14, "Keep it fixed"): each run opens an authenticated
 * connection and sends a generated sequence of frames: good reports (some sent again), and bad
 * frames of every kind (not JSON, not an envelope, wrong ids, unknown types, hostile keys, deep
 * nesting, envelopes only the cloud sends, bad acks, binary, reports off their schema or
 * implausible), optionally ending in a frame over the size limit. Every bad frame must be
 * answered with its documented error (docs/gateway-protocol.md, sections 2, 4 and 6), or the
 * connection closed with its documented code, and every good report stored exactly once.
 * FUZZ_SEED replays a run; FUZZ_RUNS runs more of them.
 */

const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const numRuns = Number(process.env.FUZZ_RUNS ?? 40);

/** What the cloud must answer to a frame. */
type Expectation = { answer: 'ack'; id: string } | { answer: 'error'; key: string; ids?: string[] } | { answer: 'none' } | { answer: 'close'; code: number };

interface Frame {
  kind: string;
  data: string | Buffer;
  expect: Expectation;
}

/** A frame as generated, before it gets its unique ids. */
type Step =
  | { kind: 'good'; asset: number; ageSeconds: number }
  | { kind: 'resend'; pick: number }
  | { kind: 'notJson'; text: string }
  | { kind: 'notEnvelope'; value: unknown }
  | { kind: 'badId'; id: unknown }
  | { kind: 'unknownType'; type: string }
  | { kind: 'hostileKey'; key: string; where: 'report' | 'observations' }
  | { kind: 'deep'; depth: number; where: 'frame' | 'payload' | 'parameters' }
  | { kind: 'cloudType'; type: string }
  | { kind: 'badAck'; ids: unknown }
  | { kind: 'unknownAck'; id: string }
  | { kind: 'gatewayError'; message: string }
  | { kind: 'binary'; bytes: Uint8Array }
  | { kind: 'offSchema'; observations: Record<string, unknown> }
  | { kind: 'implausible'; at: string | null; asset: number }
  | { kind: 'unstorable'; text: string };

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('good' as const),
      asset: fc.integer({ min: 0, max: exampleDeviceConfig.assets.length - 1 }),
      ageSeconds: fc.integer({ min: 0, max: 30 * 24 * 3600 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('resend' as const), pick: fc.nat() }) },
  fc.record({ kind: fc.constant('notJson' as const), text: fc.string({ unit: 'binary', maxLength: 200 }).filter((text) => !isJson(text)) }),
  fc.record({
    kind: fc.constant('notEnvelope' as const),
    value: fc.jsonValue({ maxDepth: 4 }).filter((value) => typeof value !== 'object' || value === null || Array.isArray(value)),
  }),
  fc.record({
    kind: fc.constant('badId' as const),
    id: fc.oneof(
      fc.constant(''),
      fc.constant('x'.repeat(hubLimits.idLength + 1)),
      fc.constant('nul\u0000'),
      fc.constant('\ud800'),
      fc.integer(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(fc.string(), { maxLength: 2 }),
    ),
  }),
  fc.record({
    kind: fc.constant('unknownType' as const),
    type: fc.string({ maxLength: 20 }).filter((type) => !(envelopeTypes as readonly string[]).includes(type)),
  }),
  fc.record({
    kind: fc.constant('hostileKey' as const),
    key: fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'),
    where: fc.constantFrom('report' as const, 'observations' as const),
  }),
  fc.record({
    kind: fc.constant('deep' as const),
    depth: fc.integer({ min: 40, max: 50_000 }),
    where: fc.constantFrom('frame' as const, 'payload' as const, 'parameters' as const),
  }),
  fc.record({ kind: fc.constant('cloudType' as const), type: fc.constantFrom('challenge', 'welcome', 'message', 'authenticate') }),
  fc.record({
    kind: fc.constant('badAck' as const),
    ids: fc.oneof(
      fc.constant([]),
      fc.constant('1'),
      fc.array(
        fc.string().filter((id) => !/^\d{1,18}$/.test(id)),
        { minLength: 1, maxLength: 3 },
      ),
      fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
    ),
  }),
  fc.record({ kind: fc.constant('unknownAck' as const), id: fc.bigInt({ min: 10n ** 12n, max: 10n ** 15n }).map(String) }),
  fc.record({ kind: fc.constant('gatewayError' as const), message: fc.string({ maxLength: 50 }) }),
  fc.record({ kind: fc.constant('binary' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }) }),
  fc.record({ kind: fc.constant('offSchema' as const), observations: fc.object({ maxDepth: 2 }) }),
  fc.record({ kind: fc.constant('unstorable' as const), text: fc.constantFrom('nul \u0000', '\ud800 alone', 'late \udc00') }),
  fc.record({
    kind: fc.constant('implausible' as const),
    at: fc.constantFrom('9999-01-01T00:00:00Z', '0001-01-01T00:00:00Z', null),
    asset: fc.integer({ min: exampleDeviceConfig.assets.length, max: 10_000 }),
  }),
);

const statistics = { success: 1, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout: 0, responseError: 0 };
const meter = (at: string, asset: number) => ({
  type: 'meterPower',
  at,
  asset,
  observations: { activePower: 1000 + asset, frequency: 50, connectionStatistics: statistics },
});

/** One authenticated connection and every frame the cloud sent on it. */
interface Session {
  socket: WebSocket;
  received: { id: string; type: string; payload: Record<string, unknown> }[];
  closed: Promise<number>;
}

describe('the gateway protocol, fuzzed', () => {
  let t: TestApp;
  let baseUrl: string;
  let folder: string;
  let identity: GatewayIdentity;
  let deviceId = 0;
  let sequence = 0;
  /** Every good report sent, by `id@at`: what the database must hold, each once. */
  const good = new Map<string, { id: string; at: string }>();
  const counts: Record<string, number> = {};

  beforeAll(async () => {
    // One gateway reconnects at every run: more often than the reconnect throttle lets a device.
    t = await testApp({}, { hub: true, reconnectThrottle: { attempts: 10_000, windowMs: 60_000 } });
    baseUrl = await t.listen();
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-fuzz-'));
    const organizationHashId = (await anOrganization(t.services, { name: 'Fuzz BV' })).hashId;
    const ops = await t.signIn(['gridport.ops']);
    const { hashId, id, provisioningToken } = await buildDevice(t.services, { organizationHashId, name: 'Fuzzed gateway' });
    deviceId = id;
    identity = await provision({ baseUrl, token: provisioningToken, identifier: 'gw-fuzz', directory: path.join(folder, 'identity') });
    const configured = await t.call('PUT', `/console-admin/v1/device/${hashId}`, ops, { config: exampleDeviceConfig });
    expect(configured.statusCode).toBe(200);
  });

  afterAll(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function connect(): Promise<Session> {
    const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}${gatewayPath}`);
    const received: Session['received'] = [];
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.on('message', (data) => void received.push(JSON.parse(data.toString()) as Session['received'][number]));
    const challenge = await until(() => received.find((frame) => frame.type === 'challenge'), 'the challenge');
    const signature = await signChallenge(identity.privateKey, String(challenge.payload.nonce));
    socket.send(JSON.stringify({ id: 'auth', type: 'authenticate', payload: { certificate: identity.certificatePem, signature } }));
    await until(() => received.find((frame) => frame.type === 'welcome'), 'the welcome');
    return { socket, received, closed };
  }

  /** Polls `find` until it answers something; fails after five seconds. */
  async function until<T>(find: () => T | undefined | false, what: string): Promise<T> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = find();
      if (found) {
        return found;
      }
      if (Date.now() > deadline) {
        throw new Error(`no ${what} within 5 s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** The concrete frame of a step, with fresh unique ids; `sent` holds this run's good reports so far. */
  function frameOf(given: Step, sent: { id: string; at: string; asset: number }[]): Frame {
    sequence += 1;
    const id = `f${sequence}`;
    const envelope = (type: string, payload: unknown) => JSON.stringify({ id, type, payload });
    const invalid = (): Expectation => ({ answer: 'error', key: 'payload_invalid', ids: [id] });
    const notJson: Expectation = { answer: 'error', key: 'payload_not_json' };
    const now = Date.now();
    switch (given.kind) {
      case 'good': {
        const at = new Date(now - given.ageSeconds * 1000).toISOString();
        sent.push({ id, at, asset: given.asset });
        good.set(`${id}@${at}`, { id, at });
        return { kind: given.kind, data: envelope('report', meter(at, given.asset)), expect: { answer: 'ack', id } };
      }
      case 'resend': {
        const again = sent[given.pick % Math.max(sent.length, 1)];
        if (!again) {
          return frameOf({ kind: 'good', asset: 0, ageSeconds: 1 }, sent);
        }
        return {
          kind: given.kind,
          data: JSON.stringify({ id: again.id, type: 'report', payload: meter(again.at, again.asset) }),
          expect: { answer: 'ack', id: again.id },
        };
      }
      case 'notJson':
        return { kind: given.kind, data: given.text, expect: notJson };
      case 'notEnvelope':
        return { kind: given.kind, data: JSON.stringify(given.value), expect: notJson };
      case 'badId':
        return { kind: given.kind, data: JSON.stringify({ id: given.id, type: 'report', payload: meter(new Date(now).toISOString(), 0) }), expect: notJson };
      case 'unknownType':
        return { kind: given.kind, data: JSON.stringify({ id, type: given.type, payload: {} }), expect: notJson };
      case 'hostileKey': {
        // Written as text: an object literal cannot carry __proto__ as an own key.
        const hostile = `${JSON.stringify(given.key)}:{"polluted":true}`;
        const report =
          given.where === 'report'
            ? `{"type":"meterPower","at":"${new Date(now).toISOString()}","asset":0,${hostile},"observations":{"connectionStatistics":${JSON.stringify(statistics)}}}`
            : `{"type":"meterPower","at":"${new Date(now).toISOString()}","asset":0,"observations":{${hostile},"connectionStatistics":${JSON.stringify(statistics)}}}`;
        return { kind: given.kind, data: `{"id":"${id}","type":"report","payload":${report}}`, expect: invalid() };
      }
      case 'deep': {
        const nested = `${'['.repeat(given.depth)}${']'.repeat(given.depth)}`;
        if (given.where === 'frame') {
          return { kind: given.kind, data: nested, expect: notJson };
        }
        if (given.where === 'payload') {
          return { kind: given.kind, data: `{"id":"${id}","type":"report","payload":${nested}}`, expect: invalid() };
        }
        const report = `{"type":"executedAssetParameters","at":"${new Date(now).toISOString()}","asset":0,"observations":{"parameters":{"deep":${nested}}}}`;
        return { kind: given.kind, data: `{"id":"${id}","type":"report","payload":${report}}`, expect: invalid() };
      }
      case 'cloudType':
        return { kind: given.kind, data: envelope(given.type, {}), expect: invalid() };
      case 'badAck':
        return { kind: given.kind, data: envelope('ack', { ids: given.ids }), expect: invalid() };
      case 'unknownAck':
        return { kind: given.kind, data: envelope('ack', { ids: [given.id] }), expect: { answer: 'none' } };
      case 'gatewayError':
        return { kind: given.kind, data: envelope('error', { key: 'noise', message: given.message }), expect: { answer: 'none' } };
      case 'binary':
        return { kind: given.kind, data: Buffer.from(given.bytes), expect: notJson };
      case 'offSchema':
        // connectionStatistics is required in a meter report, and a generated object never holds a valid one.
        return {
          kind: given.kind,
          data: envelope('report', { type: 'meterPower', at: new Date(now).toISOString(), asset: 0, observations: given.observations }),
          expect: invalid(),
        };
      case 'unstorable':
        return {
          kind: given.kind,
          data: envelope('report', { type: 'journal', at: new Date(now).toISOString(), observations: { lines: ['fine', given.text] } }),
          expect: invalid(),
        };
      case 'implausible':
        return {
          kind: given.kind,
          data: envelope('report', given.at === null ? meter(new Date(now).toISOString(), given.asset) : meter(given.at, 0)),
          expect: invalid(),
        };
    }
  }

  /** An error as comparable text: its key and the ids it names. */
  const errorText = (key: string, ids: unknown) => `${key} ${JSON.stringify(ids ?? null)}`;
  const expectedErrorsOf = (frames: Frame[]) =>
    frames.flatMap((frame) => (frame.expect.answer === 'error' ? [errorText(frame.expect.key, frame.expect.ids)] : [])).sort();
  const errorsOf = (session: Session) =>
    session.received
      .filter((frame) => frame.type === 'error')
      .map((frame) => errorText(String(frame.payload.key), frame.payload.ids))
      .sort();

  it(`answers every bad frame with its documented error or close code, and stores every good report once (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 60 }), fc.boolean(), async (steps, endHuge) => {
        const session = await connect();
        const sent: { id: string; at: string; asset: number }[] = [];
        const frames = steps.map((given) => frameOf(given, sent));
        if (endHuge) {
          frames.push({ kind: 'huge', data: 'x'.repeat(hubLimits.maxFrameBytes + 1), expect: { answer: 'close', code: closeCodes.tooBig } });
        }
        for (const frame of frames) {
          counts[frame.kind] = (counts[frame.kind] ?? 0) + 1;
          session.socket.send(frame.data);
        }
        if (endHuge) {
          expect(await session.closed).toBe(closeCodes.tooBig);
          // Every frame before it was answered before the close; acks may be lost with the
          // connection, but what they acknowledge is stored all the same.
          expect(errorsOf(session)).toEqual(expectedErrorsOf(frames));
          const ids = [...new Set(frames.flatMap((frame) => (frame.expect.answer === 'ack' ? [frame.expect.id] : [])))];
          const deadline = Date.now() + 5000;
          while (
            (await t.database.db('device_reports').where('device_id', deviceId).whereIn('report_id', ids).pluck('report_id')).length < ids.length &&
            Date.now() < deadline
          ) {
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        } else {
          // A good report last: once it is acknowledged, everything sent before it has been answered.
          const sentinel = frameOf({ kind: 'good', asset: 0, ageSeconds: 0 }, sent);
          session.socket.send(sentinel.data);
          frames.push(sentinel);
          const sentinelId = sentinel.expect.answer === 'ack' ? sentinel.expect.id : '';
          await until(
            () => session.received.some((frame) => frame.type === 'ack' && (frame.payload.ids as string[]).includes(sentinelId)),
            'ack of the last report',
          );
          expect(errorsOf(session)).toEqual(expectedErrorsOf(frames));
          const acked = new Set(session.received.filter((frame) => frame.type === 'ack').flatMap((frame) => frame.payload.ids as string[]));
          const expectedAcks = new Set(frames.flatMap((frame) => (frame.expect.answer === 'ack' ? [frame.expect.id] : [])));
          expect([...acked].sort()).toEqual([...expectedAcks].sort());
          expect(session.socket.readyState).toBe(WebSocket.OPEN);
          session.socket.close();
          await session.closed;
        }
      }),
      { seed, numRuns, endOnFailure: true },
    );

    // Every good report once, and nothing of the bad ones.
    const stored = (await t.database.db('device_reports').where('device_id', deviceId).select('report_id', 'at')) as { report_id: string; at: Date }[];
    const keys = stored.map((row) => `${row.report_id}@${row.at.toISOString()}`).sort();
    expect(keys).toEqual([...good.keys()].sort());
    process.stdout.write(
      `gateway fuzz: seed ${seed}, ${numRuns} runs, ${Object.values(counts).reduce((sum, count) => sum + count, 0)} frames ${JSON.stringify(counts)}, ${stored.length} reports stored\n`,
    );
  }, 120_000);
});
