import { testDatabase, type TestDatabase } from '../test-support/database';
import { insertDeviceRow } from '../test-support/factories';
import { ReportIngest, type IncomingReport } from './ingest';
import type { StoredReport } from '../contracts/hub/reports';
import { channels, InProcessPubSub } from '../graph/common/pubsub';
import type { Knex } from 'knex';
import { GridportError } from '../contracts/errors';
import { hubLimits } from '../contracts/hub/protocol';
import { noMetrics } from '../graph/common/metrics';

describe('report ingest', () => {
  let database: TestDatabase;
  let deviceId: number;

  beforeAll(async () => {
    database = await testDatabase();
    deviceId = await insertDeviceRow(database.db, { name: 'Ingested' });
  });

  afterAll(async () => {
    await database.close();
  });

  const report = (reportId: string, at: string, body: Record<string, unknown> = {}): IncomingReport => ({
    deviceId,
    reportId,
    type: 'meterPower',
    at: new Date(at),
    assetIndex: 2,
    controllerIndex: null,
    body: { type: 'meterPower', at, asset: 2, observations: { activePower: 1200.5, frequency: 50.01 }, ...body },
  });

  it('stores reports arriving together in one batch, resolves each after the commit, and publishes each once', async () => {
    const pubsub = new InProcessPubSub();
    const published: StoredReport[] = [];
    pubsub.subscribe(channels.reports(deviceId), (message) => published.push(message as StoredReport));
    const ingest = new ReportIngest(database.db, pubsub);
    const reports = Array.from({ length: 300 }, (_, index) => report(`r${index}`, new Date(Date.UTC(2026, 10, 22, 10, 0, index)).toISOString()));
    await Promise.all(reports.map((one) => ingest.submit(one)));
    expect(ingest.stats.batches).toBe(1);
    const rows = (await database.db('device_reports').where('device_id', deviceId).count('* as count')) as { count: string | number }[];
    expect(Number(rows[0]?.count)).toBe(300);
    expect(published).toHaveLength(300);
    const stored = (await database.db('device_reports').where({ device_id: deviceId, report_id: 'r7' }).first()) as {
      body: { observations: { activePower: number } };
      asset_index: number;
      type: string;
    };
    expect(stored).toMatchObject({ type: 'meterPower', asset_index: 2, body: { observations: { activePower: 1200.5 } } });
    await ingest.close();
  });

  it('stores a report sent again once, even twice within one batch, and still resolves every submission', async () => {
    const pubsub = new InProcessPubSub();
    const ingest = new ReportIngest(database.db, pubsub);
    const at = '2026-11-22T11:00:00.000Z';
    await ingest.submit(report('again', at));
    await Promise.all([ingest.submit(report('again', at)), ingest.submit(report('again', at, { observations: { activePower: 1 } }))]);
    const rows = (await database.db('device_reports').where({ device_id: deviceId, report_id: 'again' })) as {
      body: { observations: { activePower: number } };
    }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.body.observations.activePower).toBe(1200.5);
    expect(ingest.stats.duplicates).toBe(2);
    await ingest.close();
  });

  it('rejects every submission of a batch that cannot be written, so that nothing is acknowledged that is not stored', async () => {
    const ingest = new ReportIngest(database.db, new InProcessPubSub());
    const unstorable = { ...report('orphan', '2026-11-22T12:00:00.000Z'), body: { bad: '\u0000' } };
    await expect(ingest.submit(unstorable)).rejects.toThrow();
    await ingest.close();
    await expect(ingest.submit(report('late', '2026-11-22T12:00:00.000Z'))).rejects.toThrow('ingest is closed');
  });
});

describe('report ingest with a report the database refuses', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await testDatabase();
  });

  afterAll(async () => {
    await database.close();
  });

  it('stores the rest of its batch, of every device, and refuses only that report', async () => {
    const ids: number[] = [];
    for (const name of ['First', 'Second']) {
      ids.push(await insertDeviceRow(database.db, { name }));
    }
    const ingest = new ReportIngest(database.db, new InProcessPubSub());
    const at = '2026-11-22T12:00:00.000Z';
    const one = (deviceId: number, reportId: string, body: Record<string, unknown>): IncomingReport => ({
      deviceId,
      reportId,
      type: 'journal',
      at: new Date(at),
      assetIndex: null,
      controllerIndex: null,
      body,
    });
    const outcomes = await Promise.allSettled([
      ingest.submit(one(ids[0] ?? 0, 'good-1', { lines: ['fine'] })),
      ingest.submit(one(ids[0] ?? 0, 'poison', { lines: ['nul \u0000 here'] })),
      ingest.submit(one(ids[1] ?? 0, 'good-2', { lines: ['fine too'] })),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await database.db('device_reports').orderBy('report_id').pluck('report_id')) as string[]).toEqual(['good-1', 'good-2']);
    expect(ingest.stats).toMatchObject({ isolatedBatches: 1, reports: 2 });
    await ingest.close();
  });

  it('keeps the batch position of the reports stored beside refused ones: a batch made later, written meanwhile, comes after them', async () => {
    const deviceId = await insertDeviceRow(database.db, { name: 'Poisoned first batch' });
    const pubsub = new InProcessPubSub();
    const published: string[] = [];
    pubsub.subscribe(channels.reports(deviceId), (message) => published.push((message as StoredReport).reportId));
    const ingest = new ReportIngest(database.db, pubsub);
    // Two batches in flight: the first holds the refused report, so its insert fails while the second is already positioned.
    const count = hubLimits.ingestBatchMax + 10;
    const poisoned = [5, 6, 1500];
    const outcomes = await Promise.allSettled(
      Array.from({ length: count }, (_, index) =>
        ingest.submit({
          deviceId,
          reportId: `p${index}`,
          type: 'journal',
          at: new Date(Date.UTC(2026, 10, 23, 1, 0, 0, index)),
          assetIndex: null,
          controllerIndex: null,
          body: { lines: [poisoned.includes(index) ? 'nul \u0000 here' : `line ${index}`] },
        }),
      ),
    );
    const expected = Array.from({ length: count }, (_, index) => index).filter((index) => !poisoned.includes(index));
    expect(outcomes.map((outcome, index) => (outcome.status === 'rejected' ? index : -1)).filter((index) => index >= 0)).toEqual(poisoned);
    const positions = (await database.db('device_reports').where('device_id', deviceId).orderBy(['tx', 'seq']).select('report_id')) as { report_id: string }[];
    expect(positions.map((row) => row.report_id)).toEqual(expected.map((index) => `p${index}`));
    expect(published).toEqual(expected.map((index) => `p${index}`));
    expect(ingest.stats).toMatchObject({ isolatedBatches: 1, batches: 2, reports: count - poisoned.length });
    await ingest.close();
  });
});

describe('report ingest on a database that falls behind', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await testDatabase();
  });

  afterAll(async () => {
    await database.close();
  });

  it('writes two batches at once, the later one inserting after the earlier one, so positions follow the order they were made; answers in that order', async () => {
    const deviceId = await insertDeviceRow(database.db, { name: 'Two at once' });
    let letFirstGo: () => void = () => undefined;
    const firstHeld = new Promise<void>((resolve) => {
      letFirstGo = resolve;
    });
    let transactions = 0;
    // The first batch's transaction waits to begin: the second batch, made meanwhile, must not take earlier positions.
    const slowFirst = new Proxy(database.db, {
      get(target, property, receiver) {
        if (property === 'transaction') {
          return async (...args: Parameters<Knex['transaction']>) => {
            transactions += 1;
            if (transactions === 1) {
              await firstHeld;
            }
            return target.transaction(...args);
          };
        }
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const pubsub = new InProcessPubSub();
    const published: string[] = [];
    pubsub.subscribe(channels.reports(deviceId), (message) => published.push((message as StoredReport).reportId));
    const ingest = new ReportIngest(slowFirst, pubsub);
    const report = (index: number): IncomingReport => ({
      deviceId,
      reportId: `o${index}`,
      type: 'meterPower',
      at: new Date(Date.UTC(2026, 10, 23, 0, 0, 0, index)),
      assetIndex: 2,
      controllerIndex: null,
      body: { type: 'meterPower', asset: 2, observations: { activePower: index } },
    });
    const count = hubLimits.ingestBatchMax + 10;
    const resolved: number[] = [];
    const all = Array.from({ length: count }, (_, index) => ingest.submit(report(index)).then(() => void resolved.push(index)));
    const stored = async () => Number(((await database.db('device_reports').where('device_id', deviceId).count({ n: '*' })) as { n: string | number }[])[0]?.n);
    const deadline = Date.now() + 20_000;
    while (transactions < 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Both batches are handed out (two writes in flight); the second waits for the first's insert.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await stored()).toBe(0);
    expect(resolved).toEqual([]);
    letFirstGo();
    await Promise.all(all);
    const order = Array.from({ length: count }, (_, index) => index);
    expect(resolved).toEqual(order);
    expect(published).toEqual(order.map((index) => `o${index}`));
    const positions = (await database.db('device_reports').where('device_id', deviceId).orderBy(['tx', 'seq']).select('report_id')) as { report_id: string }[];
    expect(positions.map((row) => row.report_id)).toEqual(order.map((index) => `o${index}`));
    expect(transactions).toBe(2);
    expect(ingest.stats).toMatchObject({ batches: 2, reports: count });
    await ingest.close();
  });

  it('keeps its queue bounded: tells the hub to stop reading, refuses beyond the bound, loses nothing it took, and stores the refused reports when sent again', async () => {
    const deviceId = await insertDeviceRow(database.db, { name: 'Slow database' });
    // The database stalls every write until it is let go.
    let letGo: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const slow = new Proxy(database.db, {
      get(target, property, receiver) {
        if (property === 'transaction') {
          return async (...args: Parameters<Knex['transaction']>) => {
            await stalled;
            return target.transaction(...args);
          };
        }
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    let pausesCounted = 0;
    const ingest = new ReportIngest(slow, new InProcessPubSub(), undefined, { ...noMetrics, ingestPaused: () => void (pausesCounted += 1) });
    const pressure: boolean[] = [];
    ingest.onPressure((pressed) => pressure.push(pressed));
    const report = (index: number): IncomingReport => ({
      deviceId,
      reportId: `s${index}`,
      type: 'meterPower',
      at: new Date(Date.UTC(2026, 10, 22, 0, 0, 0, index)),
      assetIndex: 2,
      controllerIndex: null,
      body: { type: 'meterPower', asset: 2, observations: { activePower: index } },
    });
    // The batches being written (stalled), the queue full behind them, and 500 more.
    const accepted = hubLimits.ingestWritesInFlight * hubLimits.ingestBatchMax + hubLimits.ingestQueueMax;
    const stored = async () => Number(((await database.db('device_reports').where('device_id', deviceId).count({ n: '*' })) as { n: string | number }[])[0]?.n);
    const outcomes = Array.from({ length: accepted + 500 }, (_, index) => ingest.submit(report(index)));
    expect(ingest.queued).toBe(hubLimits.ingestQueueMax);
    expect(pressure).toEqual([true]);
    const refused = await Promise.allSettled(outcomes.slice(accepted));
    expect(
      refused.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof GridportError && outcome.reason.key === 'service_unavailable'),
    ).toBe(true);
    expect(ingest.stats).toMatchObject({ refused: 500, queuedMax: hubLimits.ingestQueueMax, pauses: 1 });
    expect(pausesCounted).toBe(1);
    expect(await stored()).toBe(0);

    letGo();
    await Promise.all(outcomes.slice(0, accepted));
    expect(pressure).toEqual([true, false]);
    expect(await stored()).toBe(accepted);
    // The gateway sends the refused reports again (it keeps them until acknowledged): each is stored once.
    await Promise.all(Array.from({ length: 500 }, (_, index) => ingest.submit(report(accepted + index))));
    expect(await stored()).toBe(accepted + 500);
    expect(ingest.stats).toMatchObject({ reports: accepted + 500, duplicates: 0 });
    await ingest.close();
  });
});
