import type { Knex } from 'knex';
import type { MeasurementPointView, MeasurementQuery, MeasurementSource } from '../../../contracts/measurement';
import { defaultHistorySettings, type HistorySettings } from '../../../contracts/history';
import { authorize, type Actor } from '../../common/context';
import type { DeviceService } from './device.service';

const dayMs = 24 * 60 * 60 * 1000;

/** How a history query reads: from which table, in buckets of how many seconds. */
export interface MeasurementPlan {
  source: MeasurementSource;
  bucketSeconds: number;
}

/**
 * The source and bucket size for a range and a number of points: buckets of (to - from) / points,
 * read from the raw reports when that is under a minute, from the minute roll-ups when under an
 * hour, from the hourly ones beyond, rounded up to whole minutes or hours. A source whose
 * retention no longer covers `from` gives way to the next coarser one.
 */
export function planMeasurementQuery(
  query: Pick<MeasurementQuery, 'from' | 'to' | 'points'>,
  now: Date,
  settings: Pick<HistorySettings, 'rawRetentionDays' | 'minuteRetentionDays'>,
): MeasurementPlan {
  const wanted = Math.max(1, Math.ceil((query.to.getTime() - query.from.getTime()) / 1000 / query.points));
  const rawKept = query.from.getTime() >= now.getTime() - settings.rawRetentionDays * dayMs;
  const minutesKept = query.from.getTime() >= now.getTime() - settings.minuteRetentionDays * dayMs;
  if (wanted < 60 && rawKept) {
    return { source: 'raw', bucketSeconds: wanted };
  }
  if (wanted < 3600 && minutesKept) {
    return { source: 'minute', bucketSeconds: Math.ceil(wanted / 60) * 60 };
  }
  return { source: 'hour', bucketSeconds: Math.ceil(wanted / 3600) * 3600 };
}

interface PointRow {
  at: Date | string;
  min: number;
  max: number;
  avg: number;
  last: number;
  count: number;
}

const epoch = '1970-01-01T00:00:00Z';

/**
 * A device's measurement history: one query, aggregated in the database into buckets aligned
 * on multiples of the bucket size since 1970-01-01 UTC, each point at its bucket's start. The
 * first and last buckets may reach beyond the range; only values within it count.
 */
export class MeasurementService {
  constructor(
    private readonly db: Knex,
    private readonly devices: DeviceService,
    private readonly settings: Pick<HistorySettings, 'rawRetentionDays' | 'minuteRetentionDays'> = defaultHistorySettings,
  ) {}

  /** The history of a device the actor may see; another's, or one that does not exist, is not_found. */
  async history(actor: Actor, query: MeasurementQuery, now: Date = new Date()): Promise<MeasurementPointView[]> {
    authorize(actor, 'device.read', 'device.readVisible');
    const device = await this.devices.find(actor, query.hashId);
    const plan = planMeasurementQuery(query, now, this.settings);
    return this.read(device.id, query, plan);
  }

  /** The points of a device's history read as `plan` says (benchmarks and tests choose the plan). */
  async read(deviceId: number, query: MeasurementQuery, plan: MeasurementPlan): Promise<MeasurementPointView[]> {
    const { sql, bindings } = this.statement(deviceId, query, plan);
    const result = (await this.db.raw(sql, bindings)) as { rows: PointRow[] };
    return result.rows.map((row) => ({ at: new Date(row.at), min: row.min, max: row.max, avg: row.avg, last: row.last, count: row.count }));
  }

  /** The one statement that reads a history (with named bindings), for read() and for EXPLAIN in the benchmark. */
  statement(deviceId: number, query: MeasurementQuery, plan: MeasurementPlan): { sql: string; bindings: Record<string, string | number | null> } {
    const target = (table: string) =>
      `${query.assetIndex === null ? `${table}.asset_index is null` : `${table}.asset_index = :assetIndex`} and ${query.controllerIndex === null ? `${table}.controller_index is null` : `${table}.controller_index = :controllerIndex`}`;
    const bindings = {
      deviceId,
      type: query.reportType,
      field: query.field,
      path: `{observations,${query.field.split('.').join(',')}}`,
      assetIndex: query.assetIndex,
      controllerIndex: query.controllerIndex,
      from: query.from.toISOString(),
      to: query.to.toISOString(),
      bucket: plan.bucketSeconds,
      epoch,
    };
    const bin = (column: string) => `date_bin(cast(:bucket as integer) * interval '1 second', ${column}, cast(:epoch as timestamptz))`;
    let sql: string;
    if (plan.source === 'raw') {
      sql = `
        select ${bin('v.at')} as at, min(v.value) as min, max(v.value) as max, avg(v.value) as avg,
               (array_agg(v.value order by v.at desc, v.report_id desc))[1] as last, count(*)::integer as count
          from (select r.at, r.report_id,
                       case when jsonb_typeof(r.body #> cast(:path as text[])) = 'number' then (r.body #> cast(:path as text[]))::double precision end as value
                  from device_reports r
                 where r.device_id = :deviceId and r.type = :type and ${target('r')}
                   and r.at >= cast(:from as timestamptz) and r.at < cast(:to as timestamptz)) v
         where v.value is not null
         group by 1 order by 1`;
    } else {
      const table = plan.source === 'minute' ? 'report_minutes' : 'report_hours';
      const column = plan.source;
      sql = `
        select ${bin(`a.${column}`)} as at, min(a.min) as min, max(a.max) as max, sum(a.sum) / sum(a.count) as avg,
               (array_agg(a.last order by a.last_at desc))[1] as last, sum(a.count)::integer as count
          from ${table} a
         where a.device_id = :deviceId and a.type = :type and a.field = :field and ${target('a')}
           and a.${column} >= date_bin(interval '1 ${column}', cast(:from as timestamptz), cast(:epoch as timestamptz))
           and a.${column} < cast(:to as timestamptz)
         group by 1 order by 1`;
    }
    return { sql, bindings };
  }
}
