import type { Knex } from 'knex';

/**
 * Monthly partitions of device_reports (migrations/20261122003000_device_reports.ts), named
 * device_reports_yYYYYmMM and covering one calendar month in UTC. The hub creates this month's
 * and the next ones ahead of time (at start and once a day), so reports land in their month's
 * partition and the DEFAULT partition stays empty. Should the default partition hold reports
 * for a month all the same (a hub that was down across a month's turn, a device whose clock
 * runs far ahead), creating that month's partition moves them into it in the same transaction.
 */

/** How many months after the current one get a partition ahead of time. */
export const partitionMonthsAhead = 2;

const namePattern = /^device_reports_y(\d{4})m(\d{2})$/;

/** The first instant of the month `at` lies in, UTC. */
export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

function addMonths(month: Date, months: number): Date {
  return new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + months, 1));
}

/** The partition of the month starting at `month`: device_reports_y2026m11. */
export function partitionName(month: Date): string {
  return `device_reports_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** A monthly partition as the database holds it. */
export interface ReportPartition {
  name: string;
  from: Date;
  /** Exclusive. */
  to: Date;
}

/** The monthly partitions of device_reports in the current schema, oldest first (the default one left out). */
export async function listReportPartitions(db: Knex): Promise<ReportPartition[]> {
  const result = (await db.raw(`
    select child.relname as name
      from pg_inherits
      join pg_class child on child.oid = pg_inherits.inhrelid
      join pg_class parent on parent.oid = pg_inherits.inhparent
     where parent.relname = 'device_reports' and parent.relnamespace = current_schema()::regnamespace
  `)) as { rows: { name: string }[] };
  const partitions: ReportPartition[] = [];
  for (const { name } of result.rows) {
    const match = namePattern.exec(name);
    if (!match) {
      continue;
    }
    const from = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
    partitions.push({ name, from, to: addMonths(from, 1) });
  }
  return partitions.sort((a, b) => a.from.getTime() - b.from.getTime());
}

/**
 * Serialises partition changes of this schema across nodes, for the rest of the transaction.
 * The key is derived from the schema so that installs (and test schemas) sharing a server do not wait on one another.
 */
export async function lockPartitions(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`select pg_advisory_xact_lock(hashtext(current_schema() || '.device_reports.partitions'))`);
}

/** Holds back inserts into device_reports (and so into its default partition) for the rest of the transaction. */
export async function lockReportWrites(trx: Knex.Transaction): Promise<void> {
  await trx.raw('lock table device_reports in share row exclusive mode');
  await trx.raw('lock table device_reports_default in share row exclusive mode');
}

/**
 * Makes sure the partition of the month starting at `month` exists; answers whether it was
 * created now. Within one transaction under the partition lock: if the default partition holds
 * reports of that month, the partition is created apart, those reports are moved into it and it
 * is attached; otherwise it is created as a partition directly. Running it again, or on two
 * nodes at once, creates it once.
 */
export async function ensureMonthPartition(db: Knex, month: Date): Promise<boolean> {
  const from = monthStart(month);
  const to = addMonths(from, 1);
  const name = partitionName(from);
  return db.transaction(async (trx) => {
    await lockPartitions(trx);
    const existing = (await trx.raw('select to_regclass(?) as oid', [name])) as { rows: { oid: unknown }[] };
    if (existing.rows[0]?.oid !== null && existing.rows[0]?.oid !== undefined) {
      return false;
    }
    const bounds = [from.toISOString(), to.toISOString()];
    // Ingest waits for the few milliseconds this takes; without the lock a report of this month
    // could reach the default partition between the move and the attach, and the attach would fail.
    // The parent first, in the order an insert takes them, so that neither waits on the other in turn.
    await lockReportWrites(trx);
    const waiting = (await trx.raw('select exists (select 1 from device_reports_default where at >= ? and at < ?) as waiting', bounds)) as {
      rows: { waiting: boolean }[];
    };
    if (!waiting.rows[0]?.waiting) {
      await trx.raw(`create table ?? partition of device_reports for values from ('${bounds[0]}') to ('${bounds[1]}')`, [name]);
      return true;
    }
    await trx.raw('create table ?? (like device_reports including defaults including constraints)', [name]);
    await trx.raw('insert into ?? select * from device_reports_default where at >= ? and at < ?', [name, ...bounds]);
    await trx.raw('delete from device_reports_default where at >= ? and at < ?', bounds);
    // The check spares the attach a scan of the moved rows; it is dropped once the partition bound holds.
    await trx.raw(`alter table ?? add constraint ?? check (at >= '${bounds[0]}' and at < '${bounds[1]}')`, [name, `${name}_at_check`]);
    await trx.raw(`alter table device_reports attach partition ?? for values from ('${bounds[0]}') to ('${bounds[1]}')`, [name]);
    await trx.raw('alter table ?? drop constraint ??', [name, `${name}_at_check`]);
    return true;
  });
}

/**
 * Creates the partitions that are missing of the month of `now` and the `monthsAhead` after it,
 * and of any earlier month whose reports sit in the default partition (stored before the hub
 * made partitions, or while it was down); answers the names created. Reports dated beyond the
 * months ahead stay in the default partition until their month comes near.
 */
export async function ensureReportPartitions(db: Knex, now: Date = new Date(), monthsAhead: number = partitionMonthsAhead): Promise<string[]> {
  const first = monthStart(now);
  const stranded = (await db.raw(`select distinct date_trunc('month', at, 'UTC') as month from device_reports_default where at < ? order by 1`, [
    first.toISOString(),
  ])) as { rows: { month: Date | string }[] };
  const months = stranded.rows.map((row) => monthStart(new Date(row.month)));
  for (let offset = 0; offset <= monthsAhead; offset += 1) {
    months.push(addMonths(first, offset));
  }
  const created: string[] = [];
  for (const month of months) {
    if (await ensureMonthPartition(db, month)) {
      created.push(partitionName(month));
    }
  }
  return created;
}
