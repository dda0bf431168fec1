import { testDatabase, type TestDatabase } from '../test-support/database';
import { ensureMonthPartition, listReportPartitions } from './partitions';
import { applyRetention, rollUp } from './rollups';
import type { HistorySettings } from '../contracts/history';

interface AggregateRow {
  count: number;
  sum: number;
  min: number;
  max: number;
  last: number;
}

describe('report roll-ups', () => {
  let database: TestDatabase;
  let sequence = 0;

  beforeAll(async () => {
    database = await testDatabase();
  });

  afterAll(async () => {
    await database.close();
  });

  async function report(
    deviceId: number,
    at: string,
    receivedAt: string,
    observations: Record<string, unknown>,
    type = 'meterPower',
    asset: number | null = 1,
  ): Promise<void> {
    sequence += 1;
    await database.db('device_reports').insert({
      device_id: deviceId,
      report_id: `r${sequence}`,
      type,
      at,
      asset_index: asset,
      received_at: receivedAt,
      body: { type, at, asset, observations },
    });
  }

  async function aggregate(
    table: 'report_minutes' | 'report_hours',
    deviceId: number,
    field: string,
    at: string,
    type = 'meterPower',
  ): Promise<AggregateRow | undefined> {
    const column = table === 'report_minutes' ? 'minute' : 'hour';
    const row = (await database
      .db(table)
      .where({ device_id: deviceId, field, type, [column]: at })
      .select('count', 'sum', 'min', 'max', 'last')
      .first()) as AggregateRow | undefined;
    return row;
  }

  it('aggregates every numeric observation per minute and per hour: count, sum, min, max and last', async () => {
    await report(10, '2026-11-22T10:00:00Z', '2026-11-22T10:00:01Z', { activePower: 100, frequency: 50, phaseVoltage: { l1: 230, l2: null } });
    await report(10, '2026-11-22T10:00:45Z', '2026-11-22T10:00:46Z', { activePower: 400, frequency: 50.1, phaseVoltage: { l1: 232 } });
    await report(10, '2026-11-22T10:00:15Z', '2026-11-22T10:00:47Z', { activePower: 200, frequency: null });
    await report(10, '2026-11-22T10:00:30Z', '2026-11-22T10:00:48Z', { activePower: 300 });
    await report(10, '2026-11-22T10:01:05Z', '2026-11-22T10:01:06Z', { activePower: -50 });
    await report(
      10,
      '2026-11-22T10:02:00Z',
      '2026-11-22T10:02:01Z',
      { setpoints: { desired: { cloud: 5000 }, confirmed: 4000, effective: null }, stateOfCharge: 55 },
      'batteryPower',
      0,
    );
    // Another device in the same minute is aggregated apart.
    await report(11, '2026-11-22T10:00:20Z', '2026-11-22T10:00:21Z', { activePower: 7 });

    const passes = await rollUp(database.db, new Date('2026-11-22T10:05:00Z'));
    expect(passes).toHaveLength(1);

    expect(await aggregate('report_minutes', 10, 'activePower', '2026-11-22T10:00:00Z')).toEqual({ count: 4, sum: 1000, min: 100, max: 400, last: 400 });
    expect(await aggregate('report_minutes', 10, 'activePower', '2026-11-22T10:01:00Z')).toEqual({ count: 1, sum: -50, min: -50, max: -50, last: -50 });
    expect(await aggregate('report_minutes', 10, 'frequency', '2026-11-22T10:00:00Z')).toEqual({ count: 2, sum: 100.1, min: 50, max: 50.1, last: 50.1 });
    expect(await aggregate('report_minutes', 10, 'phaseVoltage.l1', '2026-11-22T10:00:00Z')).toEqual({ count: 2, sum: 462, min: 230, max: 232, last: 232 });
    expect(await aggregate('report_minutes', 10, 'phaseVoltage.l2', '2026-11-22T10:00:00Z')).toBeUndefined();
    expect(await aggregate('report_minutes', 10, 'setpoints.desired.cloud', '2026-11-22T10:02:00Z', 'batteryPower')).toEqual({
      count: 1,
      sum: 5000,
      min: 5000,
      max: 5000,
      last: 5000,
    });
    expect(await aggregate('report_minutes', 11, 'activePower', '2026-11-22T10:00:00Z')).toEqual({ count: 1, sum: 7, min: 7, max: 7, last: 7 });
    expect(await aggregate('report_hours', 10, 'activePower', '2026-11-22T10:00:00Z')).toEqual({ count: 5, sum: 950, min: -50, max: 400, last: -50 });
    const minute = (await database.db('report_minutes').where({ device_id: 10, field: 'activePower' }).first()) as {
      asset_index: number;
      controller_index: number | null;
    };
    expect(minute).toMatchObject({ asset_index: 1, controller_index: null });
  });

  it('folds a late report into the minute and hour it belongs to, and counts nothing twice when passes overlap', async () => {
    await report(10, '2026-11-22T10:00:50Z', '2026-11-22T11:00:00Z', { activePower: 1000 });
    await rollUp(database.db, new Date('2026-11-22T11:01:00Z'));
    expect(await aggregate('report_minutes', 10, 'activePower', '2026-11-22T10:00:00Z')).toEqual({ count: 5, sum: 2000, min: 100, max: 1000, last: 1000 });
    expect(await aggregate('report_hours', 10, 'activePower', '2026-11-22T10:00:00Z')).toEqual({ count: 6, sum: 1950, min: -50, max: 1000, last: -50 });
    await rollUp(database.db, new Date('2026-11-22T11:02:00Z'));
    expect(await aggregate('report_minutes', 10, 'activePower', '2026-11-22T10:00:00Z')).toEqual({ count: 5, sum: 2000, min: 100, max: 1000, last: 1000 });
    expect(await aggregate('report_hours', 10, 'activePower', '2026-11-22T10:00:00Z')).toEqual({ count: 6, sum: 1950, min: -50, max: 1000, last: -50 });
  });

  it('drops a month of raw reports past retention only once it is rolled up, and keeps its aggregates', async () => {
    const settings: HistorySettings = { rawRetentionDays: 90, minuteRetentionDays: 130, rollupIntervalSeconds: 60 };
    await ensureMonthPartition(database.db, new Date('2026-06-01T00:00:00Z'));
    await ensureMonthPartition(database.db, new Date('2026-07-01T00:00:00Z'));
    await ensureMonthPartition(database.db, new Date('2026-09-01T00:00:00Z'));
    await report(12, '2026-06-10T08:00:00Z', '2026-11-22T11:10:00Z', { activePower: 60 });
    await report(12, '2026-07-20T08:00:00Z', '2026-11-22T11:20:00Z', { activePower: 70 });
    await report(12, '2026-09-20T08:00:00Z', '2026-11-22T11:05:00Z', { activePower: 90 });
    await rollUp(database.db, new Date('2026-11-22T11:15:00Z'));

    // July's report arrived after the last pass: July stays; September is within the 90 days.
    const first = await applyRetention(database.db, settings, new Date('2026-11-22T12:00:00Z'));
    expect(first).toEqual({ droppedPartitions: ['device_reports_y2026m06'], keptPartitions: ['device_reports_y2026m07'], deletedMinutes: 1 });
    expect(await aggregate('report_minutes', 12, 'activePower', '2026-06-10T08:00:00Z')).toBeUndefined();
    expect(await aggregate('report_hours', 12, 'activePower', '2026-06-10T08:00:00Z')).toEqual({ count: 1, sum: 60, min: 60, max: 60, last: 60 });

    await rollUp(database.db, new Date('2026-11-22T11:30:00Z'));
    const second = await applyRetention(database.db, settings, new Date('2026-11-22T12:00:00Z'));
    expect(second).toEqual({ droppedPartitions: ['device_reports_y2026m07'], keptPartitions: [], deletedMinutes: 0 });
    expect((await listReportPartitions(database.db)).map((partition) => partition.name)).toEqual(['device_reports_y2026m09']);
    expect(await aggregate('report_minutes', 12, 'activePower', '2026-07-20T08:00:00Z')).toEqual({ count: 1, sum: 70, min: 70, max: 70, last: 70 });

    // A report for a month already dropped is not rolled up over what the month's reports made, and is not kept.
    await report(12, '2026-07-20T08:00:10Z', '2026-11-22T11:40:00Z', { activePower: 1 });
    await rollUp(database.db, new Date('2026-11-22T11:45:00Z'));
    expect(await aggregate('report_minutes', 12, 'activePower', '2026-07-20T08:00:00Z')).toEqual({ count: 1, sum: 70, min: 70, max: 70, last: 70 });
    await applyRetention(database.db, settings, new Date('2026-11-22T12:00:00Z'));
    const stranded = (await database.db('device_reports').where({ device_id: 12 }).count('* as count')) as { count: string | number }[];
    expect(Number(stranded[0]?.count)).toBe(1);
  });
});
