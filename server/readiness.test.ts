import knex, { type Knex } from 'knex';
import pino from 'pino';
import { RedisPubSub } from '../device-hub/redis-pubsub';
import { testApp, type TestApp } from '../test-support/app';
import { reachable, requireServices } from '../test-support/services';
import { Readiness } from './readiness';

const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const redisAvailable = reachable(redisUrl, 6379);
if (!redisAvailable && !requireServices) {
  process.stderr.write(`readiness.test.ts: the Redis case skipped, Redis at ${redisUrl} is unreachable (REQUIRE_SERVICES=1 makes this a failure)\n`);
}
const itWithRedis = redisAvailable || requireServices ? it : it.skip;

const allWell = { database: 'ok', migrations: 'ok', redis: 'not configured', shutdown: 'ok' };

describe('liveness and readiness', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('answer 200 while the node can serve', async () => {
    const live = await t.call('GET', '/livez');
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'live' });
    const ready = await t.call('GET', '/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: allWell });
  });

  it('readiness names the migrations the database lacks', async () => {
    const last = (await t.database.db('knex_migrations').orderBy('id', 'desc').first()) as { id: number; name: string; batch: number; migration_time: Date };
    await t.database.db('knex_migrations').where('id', last.id).delete();
    try {
      const ready = await t.call('GET', '/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        key: 'service_unavailable',
        details: { failing: ['migrations'], checks: { ...allWell, migrations: 'failing' }, pendingMigrations: [last.name] },
      });
    } finally {
      await t.database.db('knex_migrations').insert(last);
    }
    expect((await t.call('GET', '/readyz')).statusCode).toBe(200);
  });

  it('readiness fails once the node is shutting down, while liveness still answers', async () => {
    const stopping = new Readiness({ db: t.database.db, schema: t.database.schema });
    stopping.shuttingDown();
    expect(await stopping.check()).toEqual({ ready: false, checks: { ...allWell, shutdown: 'failing' } });
  });

  it('readiness fails when configured Redis does not answer', async () => {
    const silent = new Readiness({ db: t.database.db, schema: t.database.schema, redis: async () => false });
    expect(await silent.check()).toEqual({ ready: false, checks: { ...allWell, redis: 'failing' } });
    const hanging = new Readiness({ db: t.database.db, schema: t.database.schema, redis: () => new Promise<boolean>(() => undefined), timeoutMs: 50 });
    expect(await hanging.check()).toEqual({ ready: false, checks: { ...allWell, redis: 'failing' } });
  });

  itWithRedis('readiness asks the real Redis, and fails for one that is not there', async () => {
    const log = pino({ level: 'silent' });
    const up = new RedisPubSub({ url: redisUrl, log, prefix: 'gridport-readiness-test:' });
    const down = new RedisPubSub({ url: 'redis://127.0.0.1:1', log, prefix: 'gridport-readiness-test:' });
    try {
      await up.ready();
      const withUp = new Readiness({ db: t.database.db, schema: t.database.schema, redis: () => up.answers() });
      expect(await withUp.check()).toEqual({ ready: true, checks: { ...allWell, redis: 'ok' } });
      const withDown = new Readiness({ db: t.database.db, schema: t.database.schema, redis: () => down.answers() });
      expect(await withDown.check()).toEqual({ ready: false, checks: { ...allWell, redis: 'failing' } });
    } finally {
      await up.close();
      await down.close();
    }
  });
});

describe('readiness with the database down', () => {
  let away: Knex;
  let t: TestApp;

  beforeAll(async () => {
    // Nothing listens on port 1: every connection is refused, as with a stopped PostgreSQL.
    const quiet = () => undefined;
    away = knex({
      client: 'pg',
      connection: 'postgresql://postgres@127.0.0.1:1/gridport',
      pool: { min: 0, max: 1 },
      log: { warn: quiet, error: quiet, debug: quiet, deprecate: quiet },
    });
    t = await testApp({ readiness: new Readiness({ db: away, schema: 'public', timeoutMs: 500 }) });
  });

  afterAll(async () => {
    await t.close();
    await away.destroy();
  });

  it('answers 503 service_unavailable naming the database, and does not look at migrations; liveness still answers', async () => {
    const ready = await t.call('GET', '/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      key: 'service_unavailable',
      details: { failing: ['database'], checks: { database: 'failing', migrations: 'not checked', redis: 'not configured', shutdown: 'ok' } },
    });
    expect((await t.call('GET', '/livez')).statusCode).toBe(200);
  });
});
