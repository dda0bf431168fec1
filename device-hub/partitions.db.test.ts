import { testDatabase, type TestDatabase } from '../test-support/database';
import { ensureMonthPartition, ensureReportPartitions, listReportPartitions, partitionName } from './partitions';

describe('report partitions', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await testDatabase();
  });

  afterAll(async () => {
    await database.close();
  });

  async function insertReports(deviceId: number, ats: string[]): Promise<void> {
    await database.db('device_reports').insert(
      ats.map((at, index) => ({
        device_id: deviceId,
        report_id: `r${index}`,
        type: 'meterPower',
        at,
        asset_index: 0,
        body: { type: 'meterPower', at, asset: 0, observations: { activePower: index } },
      })),
    );
  }

  /** Where each report of the device is stored, by partition name. */
  async function placement(deviceId: number): Promise<Record<string, number>> {
    const result = (await database.db.raw(
      'select tableoid::regclass::text as partition, count(*)::int as count from device_reports where device_id = ? group by 1',
      [deviceId],
    )) as { rows: { partition: string; count: number }[] };
    return Object.fromEntries(result.rows.map((row) => [row.partition.replace(/^.*\./, ''), row.count]));
  }

  it('names a partition after its month in UTC', () => {
    expect(partitionName(new Date('2026-01-31T23:59:59.999Z'))).toBe('device_reports_y2026m01');
    expect(partitionName(new Date('2026-12-01T00:00:00Z'))).toBe('device_reports_y2026m12');
  });

  it('creates this month and the next two ahead, so that reports land in their month; a second run creates nothing', async () => {
    const created = await ensureReportPartitions(database.db, new Date('2026-11-22T03:00:00Z'));
    expect(created).toEqual(['device_reports_y2026m11', 'device_reports_y2026m12', 'device_reports_y2027m01']);
    expect(await ensureReportPartitions(database.db, new Date('2026-11-30T23:00:00Z'))).toEqual([]);
    const partitions = await listReportPartitions(database.db);
    expect(partitions.map((partition) => [partition.name, partition.from.toISOString(), partition.to.toISOString()])).toEqual([
      ['device_reports_y2026m11', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
      ['device_reports_y2026m12', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
      ['device_reports_y2027m01', '2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z'],
    ]);
    await insertReports(1, ['2026-11-30T23:59:59.999Z', '2026-12-01T00:00:00Z', '2027-01-15T12:00:00Z', '2027-03-01T00:00:00Z']);
    expect(await placement(1)).toEqual({ device_reports_y2026m11: 1, device_reports_y2026m12: 1, device_reports_y2027m01: 1, device_reports_default: 1 });
  });

  it('moves the reports of a month out of the default partition when it creates that month, losing none, keeping the primary key', async () => {
    const ats = Array.from({ length: 50 }, (_, index) => new Date(Date.UTC(2027, 4, 1 + (index % 31), index % 24)).toISOString());
    await insertReports(2, [...ats, '2027-06-01T00:00:00Z']);
    expect(await placement(2)).toEqual({ device_reports_default: 51 });
    expect(await ensureMonthPartition(database.db, new Date('2027-05-17T00:00:00Z'))).toBe(true);
    expect(await placement(2)).toEqual({ device_reports_y2027m05: 50, device_reports_default: 1 });
    // A report sent again is still a no-op in the partition the rows were moved to.
    const again = (await database.db.raw(
      `insert into device_reports (device_id, report_id, type, at, body) values (2, 'r0', 'meterPower', ?, '{}') on conflict do nothing returning report_id`,
      [ats[0] ?? ''],
    )) as { rows: unknown[] };
    expect(again.rows).toEqual([]);
    expect(await ensureMonthPartition(database.db, new Date('2027-05-01T00:00:00Z'))).toBe(false);
  });

  it('creates partitions for earlier months whose reports sit in the default partition', async () => {
    await insertReports(3, ['2026-08-10T00:00:00Z', '2026-08-11T00:00:00Z', '2026-09-01T00:00:00Z']);
    const created = await ensureReportPartitions(database.db, new Date('2026-11-22T03:00:00Z'));
    expect(created).toEqual(['device_reports_y2026m08', 'device_reports_y2026m09']);
    expect(await placement(3)).toEqual({ device_reports_y2026m08: 2, device_reports_y2026m09: 1 });
  });

  it('creates a partition once when several nodes run at the same time', async () => {
    await insertReports(4, ['2027-09-09T09:00:00Z', '2027-10-10T10:00:00Z']);
    const runs = await Promise.all(Array.from({ length: 4 }, () => ensureReportPartitions(database.db, new Date('2027-09-05T00:00:00Z'))));
    // The months before, stranded in the default partition by the tests above, come along.
    expect(runs.flat().sort()).toEqual([
      'device_reports_y2027m03',
      'device_reports_y2027m06',
      'device_reports_y2027m09',
      'device_reports_y2027m10',
      'device_reports_y2027m11',
    ]);
    expect(await placement(4)).toEqual({ device_reports_y2027m09: 1, device_reports_y2027m10: 1 });
  });

  it('loses no report that arrives for the month while its partition is being created from the default one', async () => {
    await insertReports(5, ['2028-02-01T00:00:00Z']);
    const ats = Array.from({ length: 200 }, (_, index) => new Date(Date.UTC(2028, 1, 2, 0, 0, index)).toISOString());
    const writes = ats.map((at, index) =>
      database
        .db('device_reports')
        .insert({ device_id: 5, report_id: `w${index}`, type: 'meterPower', at, body: { type: 'meterPower', at, observations: {} } }),
    );
    const [created] = await Promise.all([ensureMonthPartition(database.db, new Date('2028-02-01T00:00:00Z')), ...writes]);
    expect(created).toBe(true);
    expect(await placement(5)).toEqual({ device_reports_y2028m02: 201 });
  });
});
