import { rollUp } from '../../device-hub/rollups';
import { planMeasurementQuery } from '../../graph/fleet/services/measurement.service';
import { anOrganization, buildDevice } from '../../test-support/factories';
import { exampleDeviceConfig } from '../../contracts/device';
import { customerActor, staffActor, testGraph, type TestGraph } from '../../test-support/graphql';

interface Point {
  at: string;
  min: number;
  max: number;
  avg: number;
  last: number;
  count: number;
}

const hourMs = 60 * 60 * 1000;

/** deviceMeasurements: the history of one observation field, from raw reports or roll-ups, with the rights of `device`. */
describe('device measurements in GraphQL', () => {
  let g: TestGraph;
  let ownerId: number;
  let strangerId: number;
  let deviceHashId: string;
  let sql: string[] = [];
  /** Two hours of one report a second, activePower counting 0, 1, 2, ... from here. */
  let start: Date;

  const query = `query History($h: ID!, $field: String!, $type: String!, $asset: Int, $from: DateTimeISO!, $to: DateTimeISO!, $points: Int) {
    deviceMeasurements(hashId: $h, field: $field, reportType: $type, assetIndex: $asset, from: $from, to: $to, points: $points) { at min max avg last count }
  }`;

  const history = (actor = customerActor(ownerId), variables: Record<string, unknown> = {}) => {
    sql = [];
    return g.execute<{ deviceMeasurements: Point[] }>(actor, query, { h: deviceHashId, field: 'activePower', type: 'meterPower', asset: 1, ...variables });
  };

  const at = (offsetMs: number) => new Date(start.getTime() + offsetMs).toISOString();

  beforeAll(async () => {
    g = await testGraph();
    const owner = await anOrganization(g.services, { name: 'History Owner BV' });
    const stranger = await anOrganization(g.services, { name: 'History Stranger BV' });
    ownerId = g.hashIds.decode('organization', owner.hashId) ?? 0;
    strangerId = g.hashIds.decode('organization', stranger.hashId) ?? 0;
    const device = await buildDevice(g.services, {
      organizationHashId: owner.hashId,
      config: exampleDeviceConfig,
      isExposedToCustomer: true,
      cloudApi: 'READ_WRITE',
    });
    deviceHashId = device.hashId;
    start = new Date(Math.floor(Date.now() / hourMs) * hourMs - 3 * hourMs);
    await g.database.db.raw(
      `insert into device_reports (device_id, report_id, type, at, asset_index, body, received_at)
       select ?, 'r' || s, 'meterPower', t, 1,
              jsonb_build_object('type', 'meterPower', 'at', t, 'asset', 1, 'observations', jsonb_build_object('activePower', s, 'frequency', 50)), t
         from generate_series(0, 7199) s, lateral (select cast(? as timestamptz) + s * interval '1 second' as t) times`,
      [device.id, start.toISOString()],
    );
    await rollUp(g.database.db);
    g.database.db.on('query', (data: { sql: string }) => {
      sql.push(data.sql);
    });
  });

  afterAll(async () => {
    await g.close();
  });

  it('reads raw reports for buckets under a minute', async () => {
    const { data, errors } = await history(undefined, { from: at(0), to: at(10 * 60 * 1000), points: 60 });
    expect(errors).toBeUndefined();
    const points = data?.deviceMeasurements ?? [];
    expect(points).toHaveLength(60);
    expect(points[0]).toEqual({ at: at(0), min: 0, max: 9, avg: 4.5, last: 9, count: 10 });
    expect(points[59]).toEqual({ at: at(590_000), min: 590, max: 599, avg: 594.5, last: 599, count: 10 });
    expect(sql.some((text) => text.includes('from device_reports'))).toBe(true);
  });

  it('reads the minute roll-ups for buckets from a minute to an hour, rounding the bucket up to whole minutes', async () => {
    const { data, errors } = await history(undefined, { from: at(0), to: at(2 * hourMs), points: 25 });
    expect(errors).toBeUndefined();
    const points = data?.deviceMeasurements ?? [];
    // 7200 s / 25 = 288 s, read as 5-minute buckets.
    expect(points).toHaveLength(24);
    expect(points[0]).toEqual({ at: at(0), min: 0, max: 299, avg: 149.5, last: 299, count: 300 });
    expect(points[23]).toEqual({ at: at(115 * 60 * 1000), min: 6900, max: 7199, avg: 7049.5, last: 7199, count: 300 });
    expect(sql.some((text) => text.includes('from report_minutes'))).toBe(true);
    expect(sql.some((text) => text.includes('from device_reports'))).toBe(false);
  });

  it('reads the hourly roll-ups for buckets of an hour or more', async () => {
    const { data, errors } = await history(undefined, { from: at(-46 * hourMs), to: at(2 * hourMs), points: 48 });
    expect(errors).toBeUndefined();
    expect(data?.deviceMeasurements).toEqual([
      { at: at(0), min: 0, max: 3599, avg: 1799.5, last: 3599, count: 3600 },
      { at: at(hourMs), min: 3600, max: 7199, avg: 5399.5, last: 7199, count: 3600 },
    ]);
    expect(sql.some((text) => text.includes('from report_hours'))).toBe(true);
  });

  it("answers nothing for another asset, and not_found for another organisation's device, as `device` does", async () => {
    const other = await history(undefined, { asset: 2, from: at(0), to: at(hourMs) });
    expect(other.errors).toBeUndefined();
    expect(other.data?.deviceMeasurements).toEqual([]);
    const staff = await history(staffActor(['gridport.employee']), { from: at(0), to: at(hourMs), points: 1 });
    expect(staff.data?.deviceMeasurements).toEqual([{ at: at(0), min: 0, max: 3599, avg: 1799.5, last: 3599, count: 3600 }]);
    const stranger = await history(customerActor(strangerId), { from: at(0), to: at(hourMs) });
    expect(stranger.errors?.[0]?.extensions?.code).toBe('not_found');
    expect(stranger.data).toBeNull();
  });

  it('refuses a range the wrong way round or over 400 days, points outside 1-5000, and an unknown report type with query_invalid', async () => {
    for (const variables of [
      { from: at(hourMs), to: at(0) },
      { from: at(0), to: at(401 * 24 * hourMs) },
      { from: at(0), to: at(hourMs), points: 0 },
      { from: at(0), to: at(hourMs), points: 5001 },
      { from: at(0), to: at(hourMs), type: 'meterPowr' },
      { from: at(0), to: at(hourMs), field: 'activePower; drop table devices' },
    ]) {
      const { errors } = await history(undefined, variables);
      expect(errors?.[0]?.extensions?.code).toBe('query_invalid');
    }
  });

  it('plans by bucket size, and falls back to a coarser source when the finer one no longer covers the range', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const settings = { rawRetentionDays: 90, minuteRetentionDays: 365 };
    const plan = (from: string, to: string, points = 500) => planMeasurementQuery({ from: new Date(from), to: new Date(to), points }, now, settings);
    expect(plan('2026-11-22T11:00:00Z', '2026-11-22T12:00:00Z')).toEqual({ source: 'raw', bucketSeconds: 8 });
    // Seven days of a 1-second series: 1210 s buckets, read as 21 minutes from the minute roll-ups.
    expect(plan('2026-11-15T12:00:00Z', '2026-11-22T12:00:00Z')).toEqual({ source: 'minute', bucketSeconds: 1260 });
    expect(plan('2026-10-01T00:00:00Z', '2026-11-22T00:00:00Z')).toEqual({ source: 'hour', bucketSeconds: 3 * 3600 });
    expect(plan('2026-01-01T00:00:00Z', '2026-01-01T01:00:00Z')).toEqual({ source: 'minute', bucketSeconds: 60 });
    expect(plan('2025-01-01T00:00:00Z', '2025-01-01T01:00:00Z')).toEqual({ source: 'hour', bucketSeconds: 3600 });
  });
});
