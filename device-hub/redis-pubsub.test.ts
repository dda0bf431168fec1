import { reachable, requireServices } from '../test-support/services';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { RedisPubSub } from './redis-pubsub';

const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

const available = reachable(redisUrl, 6379);
if (!available && !requireServices) {
  process.stderr.write(`redis-pubsub.test.ts: skipped, Redis at ${redisUrl} is unreachable (REQUIRE_SERVICES=1 makes this a failure)\n`);
}
const describeWithRedis = available || requireServices ? describe : describe.skip;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const until = async (check: () => boolean, timeoutMs = 5000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error('timed out waiting');
    }
    await sleep(10);
  }
};

describeWithRedis('RedisPubSub against a real Redis', () => {
  // A prefix of this run's own, so tests (and other users of this Redis) do not hear each other.
  const prefix = `gridport-test-${randomBytes(4).toString('hex')}:`;
  const logLines: { level: number; msg: string }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line) as { level: number; msg: string }) });
  let admin: Redis;
  let one: RedisPubSub;
  let two: RedisPubSub;

  const subscribers = async (channel: string): Promise<number> => {
    const answer = (await admin.call('pubsub', 'numsub', prefix + channel)) as [string, number];
    return Number(answer[1]);
  };

  beforeAll(async () => {
    if (!available) {
      throw new Error(`Redis at ${redisUrl} is unreachable and REQUIRE_SERVICES is set`);
    }
    admin = new Redis(redisUrl, { lazyConnect: true });
    await admin.connect();
  });

  beforeEach(async () => {
    logLines.length = 0;
    one = new RedisPubSub({ url: redisUrl, log, prefix });
    two = new RedisPubSub({ url: redisUrl, log, prefix });
    await Promise.all([one.ready(), two.ready()]);
  });

  afterEach(async () => {
    // Undefined when beforeEach failed.
    await Promise.all([one, two].filter((pubsub) => pubsub !== undefined).map((pubsub) => pubsub.close()));
  });

  afterAll(async () => {
    await admin?.quit();
  });

  it('two nodes see each other’s messages, in order, and a node sees its own exactly once', async () => {
    const onOne: unknown[] = [];
    const onTwo: unknown[] = [];
    one.subscribe('device-outbox', (message) => onOne.push(message));
    two.subscribe('device-outbox', (message) => onTwo.push(message));
    await sleep(50);
    expect(await subscribers('device-outbox')).toBe(2);

    for (let deviceId = 1; deviceId <= 100; deviceId += 1) {
      one.publish('device-outbox', { deviceId });
    }
    two.publish('device-outbox', { deviceId: 'from two' });
    await until(() => onOne.length === 101 && onTwo.length === 101);
    // Give a second copy time to show up, were there one.
    await sleep(100);

    const fromOne = Array.from({ length: 100 }, (_, index) => ({ deviceId: index + 1 }));
    // Each node hears its own message at once, the other's when Redis brings it.
    expect(onOne).toEqual([...fromOne, { deviceId: 'from two' }]);
    expect(onTwo).toEqual([{ deviceId: 'from two' }, ...fromOne]);
  });

  it('a node without a handler on a channel is not subscribed to it, and unsubscribing the last handler stops delivery', async () => {
    const first: unknown[] = [];
    const second: unknown[] = [];
    expect(await subscribers('device-presence')).toBe(0);
    const stopFirst = two.subscribe('device-presence', (message) => first.push(message));
    const stopSecond = two.subscribe('device-presence', (message) => second.push(message));
    await sleep(50);
    expect(await subscribers('device-presence')).toBe(1);

    stopFirst();
    stopFirst();
    one.publish('device-presence', { deviceId: 1 });
    await until(() => second.length === 1);
    expect(first).toEqual([]);

    stopSecond();
    await sleep(50);
    expect(await subscribers('device-presence')).toBe(0);
    one.publish('device-presence', { deviceId: 2 });
    two.publish('device-presence', { deviceId: 3 });
    await sleep(100);
    expect(second).toEqual([{ deviceId: 1 }]);

    // Subscribing again after the last handler left works.
    const third: unknown[] = [];
    two.subscribe('device-presence', (message) => third.push(message));
    await sleep(50);
    one.publish('device-presence', { deviceId: 4 });
    await until(() => third.length === 1);
    expect(third).toEqual([{ deviceId: 4 }]);
  });

  it('a handler that throws is logged, and the other handlers still get the message', async () => {
    const got: unknown[] = [];
    two.subscribe('device-reports:7', () => {
      throw new Error('handler bug');
    });
    two.subscribe('device-reports:7', (message) => got.push(message));
    one.subscribe('device-reports:7', () => {
      throw new Error('local handler bug');
    });
    await sleep(50);

    one.publish('device-reports:7', { reportId: 'a' });
    one.publish('device-reports:7', { reportId: 'b' });
    await until(() => got.length === 2);
    expect(got).toEqual([{ reportId: 'a' }, { reportId: 'b' }]);
    expect(logLines.filter((line) => line.msg === 'a pub/sub handler failed')).toHaveLength(4);
  });

  it('after the connections are cut it reconnects and subscribes again; a message published meanwhile reaches local handlers only', async () => {
    const remote: unknown[] = [];
    const local: unknown[] = [];
    two.subscribe('device-outbox', (message) => remote.push(message));
    one.subscribe('device-outbox', (message) => local.push(message));
    await sleep(50);

    // Cut this test's connections only (by their names), as a Redis restart or a network blip would.
    const list = (await admin.call('client', 'list')) as string;
    const ours = list
      .split('\n')
      .filter((line) => line.includes(`name=gridport-pubsub-${one.origin.slice(0, 8)} `) || line.includes(`name=gridport-pubsub-${two.origin.slice(0, 8)} `))
      .map((line) => /\bid=(\d+)/.exec(line)?.[1]);
    expect(ours).toHaveLength(4);
    for (const id of ours) {
      await admin.call('client', 'kill', 'id', String(id));
    }
    one.publish('device-outbox', { deviceId: 'during the blip' });
    expect(local).toEqual([{ deviceId: 'during the blip' }]);

    await Promise.all([one.ready(), two.ready()]);
    // The subscription comes back with the connection.
    let delivered = false;
    for (let attempt = 0; attempt < 50 && !delivered; attempt += 1) {
      one.publish('device-outbox', { deviceId: 'after', attempt });
      await sleep(50);
      delivered = remote.some((message) => (message as { deviceId: string }).deviceId === 'after');
    }
    expect(delivered).toBe(true);
    expect(remote).not.toContainEqual({ deviceId: 'during the blip' });
    expect(logLines.some((line) => line.msg === 'pub/sub: the Redis connection is down; reconnecting')).toBe(true);
    expect(logLines.some((line) => line.msg === 'pub/sub: the Redis connection is back')).toBe(true);
  });

  it('close quits both connections, stops delivery, and is safe to call twice', async () => {
    const got: unknown[] = [];
    two.subscribe('device-outbox', (message) => got.push(message));
    await sleep(50);
    expect(await subscribers('device-outbox')).toBe(1);

    await two.close();
    await two.close();
    expect(await subscribers('device-outbox')).toBe(0);
    one.publish('device-outbox', { deviceId: 1 });
    two.publish('device-outbox', { deviceId: 2 });
    await sleep(100);
    expect(got).toEqual([]);
    const list = (await admin.call('client', 'list')) as string;
    expect(list).not.toContain(`name=gridport-pubsub-${two.origin.slice(0, 8)} `);
  });

  it('ready() says so when Redis does not answer', async () => {
    const nowhere = new RedisPubSub({ url: 'redis://127.0.0.1:1', log: pino({ level: 'silent' }), prefix });
    await expect(nowhere.ready(300)).rejects.toThrow('Redis did not answer within 300 ms');
    await nowhere.close();
  });
});
