import type { HistorySettings } from '../contracts/history';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { ensureReportPartitions, listReportPartitions, lockPartitions, lockReportWrites } from './partitions';

/**
 * Roll-ups and retention of device reports (migrations/20261122004000_report_rollups.ts).
 *
 * Each pass finds the reports that arrived since the previous one (by received_at, through a
 * BRIN index, so a late report is found like any other), and recomputes from the raw reports
 * every minute of every device they touch, then every hour of those minutes from its minutes.
 * Recomputing whole minutes, rather than adding the new reports to what is there, makes a pass
 * idempotent: a window may overlap the previous one (by `rollupOverlapMs`, so that a report
 * whose transaction began before the last pass but committed after it is not missed), and a
 * report seen twice is counted once. Raw reports of a minute only ever grow (a resend is a
 * no-op), so an upsert of the recomputed rows is the whole update.
 *
 * Retention: a monthly partition of raw reports is dropped whole once its month ended more than
 * `rawRetentionDays` ago and no report in it arrived after the last pass; from then on reports
 * dated before its end are neither rolled up (they would overwrite the minutes with a part of
 * their reports) nor kept. Minutes are kept `minuteRetentionDays`, hours for ever.
 */

/** How far a pass reaches back before the end of the previous one. */
export const rollupOverlapMs = 2 * 60_000;
/** The most arrival time one pass (one transaction) covers; a backlog takes several. */
export const rollupWindowMs = 60 * 60_000;

const dayMs = 24 * 60 * 60_000;
const epoch = '1970-01-01T00:00:00Z';

export interface RollupPass {
  /** Arrival times covered: [from, to). */
  from: Date;
  to: Date;
  /** Rows of report_minutes and report_hours written. */
  minutes: number;
  hours: number;
  /** Whether the pass reached the present. */
  caughtUp: boolean;
}

interface Progress {
  rolled_up_to: Date | string | null;
  raw_kept_from: Date | string | null;
  now: Date | string;
}

function dateOrNull(value: Date | string | null): Date | null {
  return value === null ? null : new Date(value);
}

/** Takes the roll-up lock of this schema for the transaction, or answers false when another node holds it. */
async function tryLockRollups(trx: Knex.Transaction): Promise<boolean> {
  const result = (await trx.raw(`select pg_try_advisory_xact_lock(hashtext(current_schema() || '.device_reports.rollups')) as locked`)) as {
    rows: { locked: boolean }[];
  };
  return result.rows[0]?.locked === true;
}

/**
 * One pass over at most `rollupWindowMs` of arrivals; answers null when another node is rolling
 * up, or when there is nothing to roll up. `now` defaults to the database's clock.
 */
export async function rollUpOnce(db: Knex, now?: Date): Promise<RollupPass | null> {
  return db.transaction(async (trx) => {
    if (!(await tryLockRollups(trx))) {
      return null;
    }
    // JIT compiling these statements costs half a second a pass on PostgreSQL 15, more than running them.
    await trx.raw('set local jit = off');
    const progressResult = (await trx.raw('select rolled_up_to, raw_kept_from, coalesce(?::timestamptz, now()) as now from report_rollup_progress for update', [
      now?.toISOString() ?? null,
    ])) as { rows: Progress[] };
    const progress = progressResult.rows[0];
    if (!progress) {
      throw new Error('report_rollup_progress has no row: the migration 20261122004000_report_rollups did not run');
    }
    const until = new Date(progress.now);
    const rolledUpTo = dateOrNull(progress.rolled_up_to);
    let from: Date;
    if (rolledUpTo) {
      from = new Date(rolledUpTo.getTime() - rollupOverlapMs);
    } else {
      const first = (await trx.raw('select min(received_at) as first from device_reports')) as { rows: { first: Date | string | null }[] };
      const firstArrival = dateOrNull(first.rows[0]?.first ?? null);
      if (!firstArrival) {
        await trx('report_rollup_progress').update({ rolled_up_to: until.toISOString() });
        return null;
      }
      from = firstArrival;
    }
    if (from.getTime() >= until.getTime()) {
      return null;
    }
    const to = new Date(Math.min(until.getTime(), from.getTime() + rollupOverlapMs + rollupWindowMs));
    const keptFrom = dateOrNull(progress.raw_kept_from);
    const window = { from: from.toISOString(), to: to.toISOString(), keptFrom: keptFrom?.toISOString() ?? '-infinity', epoch };
    // Each touched minute (hour) reads its own reports (minutes) through an index: a lateral join
    // kept apart by `offset 0`, since a plain join lets the planner merge on device_id over all
    // of the device's reports.
    const touched = (unit: 'minute' | 'hour') => `
      select distinct device_id, date_bin('1 ${unit}', at, cast(:epoch as timestamptz)) as ${unit}
        from device_reports
       where received_at >= cast(:from as timestamptz) and received_at < cast(:to as timestamptz) and at >= cast(:keptFrom as timestamptz)`;
    const minutes = (await trx.raw(
      `insert into report_minutes as m (device_id, type, asset_index, controller_index, field, minute, count, sum, min, max, last, last_at)
       select r.device_id, r.type, r.asset_index, r.controller_index, n.field, t.minute,
              count(*), sum(n.value), min(n.value), max(n.value),
              (array_agg(n.value order by r.at desc, r.report_id desc))[1], max(r.at)
         from (${touched('minute')}) t
         cross join lateral (
           select raw.* from device_reports raw where raw.device_id = t.device_id and raw.at >= t.minute and raw.at < t.minute + interval '1 minute' offset 0
         ) r
         cross join lateral report_numbers(r.body -> 'observations') n
        group by r.device_id, r.type, r.asset_index, r.controller_index, n.field, t.minute
       on conflict on constraint report_minutes_key do update
          set count = excluded.count, sum = excluded.sum, min = excluded.min, max = excluded.max, last = excluded.last, last_at = excluded.last_at`,
      window,
    )) as { rowCount: number | null };
    const hours = (await trx.raw(
      `insert into report_hours as h (device_id, type, asset_index, controller_index, field, hour, count, sum, min, max, last, last_at)
       select m.device_id, m.type, m.asset_index, m.controller_index, m.field, t.hour,
              sum(m.count), sum(m.sum), min(m.min), max(m.max),
              (array_agg(m.last order by m.last_at desc))[1], max(m.last_at)
         from (${touched('hour')}) t
         cross join lateral (
           select minutes.* from report_minutes minutes where minutes.device_id = t.device_id and minutes.minute >= t.hour and minutes.minute < t.hour + interval '1 hour' offset 0
         ) m
        group by m.device_id, m.type, m.asset_index, m.controller_index, m.field, t.hour
       on conflict on constraint report_hours_key do update
          set count = excluded.count, sum = excluded.sum, min = excluded.min, max = excluded.max, last = excluded.last, last_at = excluded.last_at`,
      window,
    )) as { rowCount: number | null };
    await trx('report_rollup_progress').update({ rolled_up_to: to.toISOString() });
    return { from, to, minutes: minutes.rowCount ?? 0, hours: hours.rowCount ?? 0, caughtUp: to.getTime() >= until.getTime() };
  });
}

/** Passes until the roll-ups have caught up with `now` (the database's clock by default); answers the passes made. */
export async function rollUp(db: Knex, now?: Date): Promise<RollupPass[]> {
  const passes: RollupPass[] = [];
  for (;;) {
    const pass = await rollUpOnce(db, now);
    if (!pass) {
      return passes;
    }
    passes.push(pass);
    if (pass.caughtUp) {
      return passes;
    }
  }
}

export interface RetentionResult {
  /** Monthly partitions dropped. */
  droppedPartitions: string[];
  /** Partitions old enough to go that still hold reports not rolled up. */
  keptPartitions: string[];
  deletedMinutes: number;
}

/**
 * Drops the monthly partitions whose month ended more than `rawRetentionDays` before `now` and
 * whose reports are all rolled up, deletes reports from the default partition dated before the
 * partitions dropped, and minute aggregates older than `minuteRetentionDays`.
 */
export async function applyRetention(db: Knex, settings: HistorySettings, now: Date = new Date()): Promise<RetentionResult | null> {
  return db.transaction(async (trx) => {
    if (!(await tryLockRollups(trx))) {
      return null;
    }
    await lockPartitions(trx);
    const progressResult = (await trx.raw('select rolled_up_to, raw_kept_from from report_rollup_progress')) as { rows: Omit<Progress, 'now'>[] };
    const progress = progressResult.rows[0];
    const rolledUpTo = dateOrNull(progress?.rolled_up_to ?? null);
    const rawHorizon = new Date(now.getTime() - settings.rawRetentionDays * dayMs);
    const droppedPartitions: string[] = [];
    const keptPartitions: string[] = [];
    let keptFrom = dateOrNull(progress?.raw_kept_from ?? null);
    for (const partition of await listReportPartitions(trx)) {
      if (partition.to.getTime() > rawHorizon.getTime()) {
        break;
      }
      // Everything that arrived before the end of the last pass, less its overlap, is rolled up.
      const pending = rolledUpTo
        ? (
            (await trx.raw('select exists (select 1 from ?? where received_at >= ?) as pending', [
              partition.name,
              new Date(rolledUpTo.getTime() - rollupOverlapMs).toISOString(),
            ])) as { rows: { pending: boolean }[] }
          ).rows[0]?.pending
        : ((await trx.raw('select exists (select 1 from ??) as pending', [partition.name])) as { rows: { pending: boolean }[] }).rows[0]?.pending;
      if (pending) {
        keptPartitions.push(partition.name);
        break;
      }
      // Dropping a partition locks device_reports whole; taking that lock's weaker form first, in
      // the order an insert does, keeps ingest from waiting on us while we wait on it.
      await lockReportWrites(trx);
      await trx.raw('drop table ??', [partition.name]);
      droppedPartitions.push(partition.name);
      if (!keptFrom || keptFrom.getTime() < partition.to.getTime()) {
        keptFrom = partition.to;
      }
    }
    if (keptFrom) {
      await trx.raw('delete from device_reports_default where at < ?', [keptFrom.toISOString()]);
      await trx('report_rollup_progress').update({ raw_kept_from: keptFrom.toISOString() });
    }
    const deleted = (await trx.raw('delete from report_minutes where minute < ?', [
      new Date(now.getTime() - settings.minuteRetentionDays * dayMs).toISOString(),
    ])) as { rowCount: number | null };
    return { droppedPartitions, keptPartitions, deletedMinutes: deleted.rowCount ?? 0 };
  });
}

/**
 * The hub's background job: partitions ahead at start and once a day, a roll-up pass every
 * `rollupIntervalSeconds`, retention once a day. Every node runs it; the advisory locks make
 * one node do each step at a time, the others skip it.
 */
export class ReportHistoryJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private lastDailyRun = 0;
  private stopped = false;

  constructor(
    private readonly db: Knex,
    private readonly settings: HistorySettings,
    private readonly log: Logger,
  ) {}

  /** Runs the first round now (partitions before any report arrives) and schedules the next ones. */
  async start(): Promise<void> {
    await this.tick();
  }

  private schedule(): void {
    if (this.stopped) {
      return;
    }
    this.timer = setTimeout(() => {
      void this.tick();
    }, this.settings.rollupIntervalSeconds * 1000);
    this.timer.unref();
  }

  private tick(): Promise<void> {
    this.timer = null;
    this.running = this.round()
      .catch((error: unknown) => this.log.error({ err: error }, 'report history round failed'))
      .finally(() => {
        this.running = null;
        this.schedule();
      });
    return this.running;
  }

  private async round(): Promise<void> {
    const daily = Date.now() - this.lastDailyRun >= dayMs;
    if (daily) {
      const created = await ensureReportPartitions(this.db);
      if (created.length > 0) {
        this.log.info({ created }, 'report partitions created');
      }
    }
    const passes = await rollUp(this.db);
    if (passes.length > 0) {
      this.log.debug({ passes: passes.length, minutes: passes.reduce((sum, pass) => sum + pass.minutes, 0) }, 'reports rolled up');
    }
    if (daily) {
      const retention = await applyRetention(this.db, this.settings);
      if (retention && (retention.droppedPartitions.length > 0 || retention.keptPartitions.length > 0 || retention.deletedMinutes > 0)) {
        this.log.info(retention, 'report retention applied');
      }
      this.lastDailyRun = Date.now();
    }
  }

  /** Stops scheduling and waits for a round under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.running) {
      await this.running;
    }
  }
}
