import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import { reachable, requireServices } from '../test-support/services';
import { sleep, until } from '../test-support/until';
import { RedisPubSub } from './redis-pubsub';
import { ReconnectThrottle, ReconnectWindows } from './reconnect-throttle';

describe("the reconnect throttle's count on one node", () => {
  it('lets a device connect `attempts` times in its window, refuses the next with the seconds left, and lets it in again once the window ends', () => {
    let now = 1_000_000;
    const throttle = new ReconnectWindows({ attempts: 3, windowMs: 60_000 }, () => now);
    expect([throttle.attempt('a'), throttle.attempt('a'), throttle.attempt('a')]).toEqual([null, null, null]);
    now += 15_500;
    expect(throttle.attempt('a')).toBe(45);
    expect(throttle.attempt('b')).toBeNull();
    now += 44_000;
    expect(throttle.attempt('a')).toBe(1);
    now += 500;
    expect(throttle.attempt('a')).toBeNull();
    expect(throttle.attempt('a')).toBeNull();
  });

  it('forgets windows that have ended as new ones start', () => {
    let now = 0;
    const throttle = new ReconnectWindows({ attempts: 1, windowMs: 1000 }, () => now);
    for (let device = 0; device < 1000; device += 1) {
      throttle.attempt(`d${device}`);
    }
    now = 5000;
    throttle.attempt('late');
    expect((throttle as unknown as { windows: Map<string, unknown> }).windows.size).toBe(1);
  });
});

const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const redisAvailable = reachable(redisUrl, 6379);
if (!redisAvailable && !requireServices) {
  process.stderr.write(`reconnect-throttle.test.ts: the Redis cases skipped, Redis at ${redisUrl} is unreachable (REQUIRE_SERVICES=1 makes this a failure)\n`);
}
const describeWithRedis = redisAvailable || requireServices ? describe : describe.skip;

/** A log that keeps its lines' messages. */
function messages(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push((JSON.parse(line) as { msg: string }).msg) });
  return { log, lines };
}

const outageLogged =
  "reconnect throttle: Redis failed or answered late; each node counts a device's attempts alone until it answers again (logged once for the outage)";

describeWithRedis('the reconnect throttle across nodes, through Redis', () => {
  // A prefix of this run's own, so parallel runs (and other users of this Redis) keep their counts apart.
  const prefix = `gridport-throttle-test-${randomBytes(4).toString('hex')}:`;
  let admin: Redis;
  /** Two nodes' pub/subs: the throttles count through their publishing connections. */
  let one: RedisPubSub;
  let two: RedisPubSub;

  beforeAll(async () => {
    if (!redisAvailable) {
      throw new Error(`Redis at ${redisUrl} is unreachable and REQUIRE_SERVICES is set`);
    }
    admin = new Redis(redisUrl, { lazyConnect: true });
    await admin.connect();
  });

  beforeEach(async () => {
    one = new RedisPubSub({ url: redisUrl, log: pino({ level: 'silent' }), prefix });
    two = new RedisPubSub({ url: redisUrl, log: pino({ level: 'silent' }), prefix });
    await Promise.all([one.ready(), two.ready()]);
  });

  afterEach(async () => {
    await Promise.all([one, two].filter((pubsub) => pubsub !== undefined).map((pubsub) => pubsub.close()));
  });

  afterAll(async () => {
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) {
      await admin.del(...keys);
    }
    await admin.quit();
  });

  it('shares a device window between two nodes: 10 attempts across both, the 11th refused on either with the seconds left', async () => {
    const settings = { attempts: 10, windowMs: 60_000 };
    const nodeOne = new ReconnectThrottle(settings, { log: pino({ level: 'silent' }), redis: one });
    const nodeTwo = new ReconnectThrottle(settings, { log: pino({ level: 'silent' }), redis: two });
    const answers: (number | null)[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      answers.push(await (attempt % 2 === 0 ? nodeOne : nodeTwo).attempt('fingerprint-a'));
    }
    expect(answers).toEqual(Array(10).fill(null));
    const refusedOnTwo = await nodeTwo.attempt('fingerprint-a');
    const refusedOnOne = await nodeOne.attempt('fingerprint-a');
    const left = await admin.pttl(`${prefix}reconnect-throttle:fingerprint-a`);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(60_000);
    for (const refused of [refusedOnTwo, refusedOnOne]) {
      expect(refused).toBeGreaterThanOrEqual(Math.ceil(left / 1000));
      expect(refused).toBeLessThanOrEqual(60);
    }
    expect(await admin.get(`${prefix}reconnect-throttle:fingerprint-a`)).toBe('12');
    // Another device is not held back by this one's attempts.
    expect(await nodeOne.attempt('fingerprint-b')).toBeNull();
  });

  it('lets the device in again once its window has ended', async () => {
    const settings = { attempts: 2, windowMs: 400 };
    const nodeOne = new ReconnectThrottle(settings, { log: pino({ level: 'silent' }), redis: one });
    const nodeTwo = new ReconnectThrottle(settings, { log: pino({ level: 'silent' }), redis: two });
    expect([await nodeOne.attempt('d'), await nodeTwo.attempt('d'), await nodeOne.attempt('d')]).toEqual([null, null, 1]);
    await sleep(500);
    expect(await admin.exists(`${prefix}reconnect-throttle:d`)).toBe(0);
    expect([await nodeTwo.attempt('d'), await nodeOne.attempt('d'), await nodeTwo.attempt('d')]).toEqual([null, null, 1]);
  });

  it('gives a refunded attempt back to every node, and never counts below nothing', async () => {
    const settings = { attempts: 2, windowMs: 60_000 };
    const nodeOne = new ReconnectThrottle(settings, { log: pino({ level: 'silent' }), redis: one });
    const nodeTwo = new ReconnectThrottle(settings, { log: pino({ level: 'silent' }), redis: two });
    const key = `${prefix}reconnect-throttle:r`;
    expect([await nodeOne.attempt('r'), await nodeOne.attempt('r')]).toEqual([null, null]);
    nodeOne.refund('r');
    await until('the refund to reach Redis', async () => (await admin.get(key)) === '1', 5000);
    expect(await nodeTwo.attempt('r')).toBeNull();
    expect(await nodeTwo.attempt('r')).toBeGreaterThan(0);
    // Refunds of a window that has no attempts left to give back leave it at zero, with its expiry.
    await admin.set(key, '0', 'PX', 60_000);
    nodeTwo.refund('r');
    nodeTwo.refund('nobody');
    await sleep(100);
    expect(await admin.get(key)).toBe('0');
    expect(await admin.pttl(key)).toBeGreaterThan(0);
    expect(await admin.exists(`${prefix}reconnect-throttle:nobody`)).toBe(0);
  });

  it("takes Redis's answer that arrived while this node was busy (its event loop held past redisWaitMs), rather than calling Redis late", async () => {
    const { log, lines } = messages();
    const throttle = new ReconnectThrottle({ attempts: 1, windowMs: 60_000 }, { log, redis: one, redisWaitMs: 50 });
    // Another node has spent the device's attempts: Redis refuses it, this node's own count would not.
    await admin.set(`${prefix}reconnect-throttle:busy`, '5', 'PX', 60_000);
    const pending = throttle.attempt('busy');
    setImmediate(() => {
      const until = performance.now() + 400;
      while (performance.now() < until) {
        // The handshakes of a storm, holding the event loop.
      }
    });
    expect(await pending).toBeGreaterThan(0);
    expect(lines).toEqual([]);
  });

  it('counts on this node alone while Redis is unreachable, without waiting for it, and logs the outage once', async () => {
    const nowhere = new RedisPubSub({ url: 'redis://127.0.0.1:1', log: pino({ level: 'silent' }), prefix });
    const { log, lines } = messages();
    try {
      const throttle = new ReconnectThrottle({ attempts: 2, windowMs: 60_000 }, { log, redis: nowhere, redisRetryMs: 0, now: () => 1_000_000 });
      expect([await throttle.attempt('x'), await throttle.attempt('x')]).toEqual([null, null]);
      throttle.refund('x');
      expect([await throttle.attempt('x'), await throttle.attempt('x'), await throttle.attempt('y')]).toEqual([null, 60, null]);
      expect(lines).toEqual([outageLogged]);
    } finally {
      await nowhere.close();
    }
  });

  it('does not wait beyond redisWaitMs for a Redis that takes commands but does not answer, asks it again after redisRetryMs, and logs when it answers again', async () => {
    // A Redis that connects and answers the connection's own commands, but never a count: a stalled server.
    let counts = 0;
    let stalled = true;
    /** Counts not answered while stalled: answered, in order, once the server answers again (replies go in the order of the commands). */
    let owed = 0;
    const server = createServer((socket) => {
      socket.on('data', (data: Buffer) => {
        for (const [, command] of data.toString('latin1').matchAll(/\*\d+\r\n\$\d+\r\n([A-Za-z]+)\r\n/g)) {
          if (/^eval(sha)?$/i.test(command ?? '')) {
            counts += 1;
            owed += 1;
            if (!stalled) {
              socket.write('*2\r\n:1\r\n:60000\r\n'.repeat(owed));
              owed = 0;
            }
            continue;
          }
          socket.write('+OK\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const connection = new Redis(`redis://127.0.0.1:${(server.address() as AddressInfo).port}`, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    await new Promise<void>((resolve) => connection.once('ready', () => resolve()));
    const { log, lines } = messages();
    let now = 1_000_000;
    try {
      const throttle = new ReconnectThrottle(
        { attempts: 1, windowMs: 60_000 },
        { log, redis: { commands: connection, prefix }, redisWaitMs: 100, redisRetryMs: 5_000, now: () => now },
      );
      // The first attempt waits for Redis (100 ms) and goes on with this node's count; the next ones within redisRetryMs do not ask.
      expect(await throttle.attempt('s')).toBeNull();
      expect([await throttle.attempt('s'), await throttle.attempt('t')]).toEqual([60, null]);
      expect(counts).toBe(1);
      expect(lines).toEqual([outageLogged]);
      // Past redisRetryMs, Redis is asked again; it answers, and decides again.
      stalled = false;
      now += 5_000;
      expect(await throttle.attempt('u')).toBeNull();
      expect(counts).toBe(2);
      expect(lines).toEqual([outageLogged, 'reconnect throttle: Redis answers again; the nodes share the counts again']);
    } finally {
      connection.disconnect();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
