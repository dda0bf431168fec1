import type { Knex } from 'knex';
import { forwardingLimits, messageTypeOfReport } from '../../../contracts/forwarding';

/**
 * The stream a destination reads: device_reports in commit order (migrations/
 * 20261126000000_forwarding.ts). A position is (tx, seq): the writing transaction and the
 * report's number. Only reports of transactions older than every running one are read
 * (pg_snapshot_xmin), so nothing can commit later at a position before one already read.
 * What a destination takes from the stream: reports of devices in production (device-model.md
 * section 4) whose group forwards the report's message type to it.
 */
export interface StreamPosition {
  tx: string;
  seq: string;
}

/** The position before every report. */
export const streamStart: StreamPosition = { tx: '0', seq: '0' };

/** One report a destination takes. */
export interface StreamReport {
  position: StreamPosition;
  deviceId: number;
  reportId: string;
  type: string;
  at: Date;
  receivedAt: Date;
  assetIndex: number | null;
  body: Record<string, unknown>;
  /** The settings of the group forwarding that matched (minIntervalSeconds). */
  forwardingSettings: Record<string, unknown>;
}

export interface StreamRead {
  reports: StreamReport[];
  /** Where the cursor may move once `reports` are delivered (past reports the destination does not take). */
  next: StreamPosition;
}

/** Report types to message types, as a JSON object PostgreSQL looks a report's type up in. */
const messageTypesJson = JSON.stringify(messageTypeOfReport);

/** The SQL that picks, from stream rows `w`, those `destination` takes (its groups' devices in production, its message types). */
const takenBy = `
  join devices d on d.id = w.device_id and d.in_production
  join device_group_message_destinations f
    on f.device_group_id = d.device_group_id and f.message_destination_id = :destination
   and (cast(:types as jsonb) ->> w.type) = any(f.message_types)`;

interface Row {
  kind: 'end' | 'report';
  tx: string;
  seq: string | number;
  device_id: string | number | null;
  report_id: string | null;
  type: string | null;
  at: Date | string | null;
  received_at: Date | string | null;
  asset_index: number | null;
  body: Record<string, unknown> | string | null;
  settings: Record<string, unknown> | string | null;
}

const asDate = (value: Date | string | null): Date => (value instanceof Date ? value : new Date(String(value)));
const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'string' ? (JSON.parse(value) as Record<string, unknown>) : ((value ?? {}) as Record<string, unknown>);

/**
 * The next reports `destination` takes after `after`: at most `batchMax`, from at most
 * `scanMax` stream rows. One statement, so the window and the reports come from one snapshot.
 */
export async function readStream(
  db: Knex | Knex.Transaction,
  destinationId: number,
  after: StreamPosition,
  { batchMax = forwardingLimits.batchMax, scanMax = forwardingLimits.batchMax * 5 }: { batchMax?: number; scanMax?: number } = {},
): Promise<StreamRead> {
  const result = (await db.raw(
    `with w as (
       select r.tx, r.seq, r.device_id, r.type, r.at, r.report_id
         from device_reports r
        where (r.tx, r.seq) > (cast(:tx as xid8), cast(:seq as bigint))
          and r.tx < pg_snapshot_xmin(pg_current_snapshot())
        order by r.tx, r.seq
        limit :scan
     ), m as (
       select w.*, f.settings from w ${takenBy}
        order by w.tx, w.seq
        limit :batch
     )
     select 'end' as kind, cast(e.tx as text) as tx, e.seq, cast(null as bigint) as device_id, cast(null as text) as report_id, cast(null as text) as type,
            cast(null as timestamptz) as at, cast(null as timestamptz) as received_at, cast(null as integer) as asset_index, cast(null as jsonb) as body, cast(null as jsonb) as settings
       from (select tx, seq from w order by tx desc, seq desc limit 1) e
     union all
     select 'report', cast(m.tx as text), m.seq, m.device_id, m.report_id, m.type, r.at, r.received_at, r.asset_index, r.body, m.settings
       from m join device_reports r on r.device_id = m.device_id and r.at = m.at and r.report_id = m.report_id`,
    { tx: after.tx, seq: after.seq, scan: scanMax, batch: batchMax, destination: destinationId, types: messageTypesJson },
  )) as { rows: Row[] };
  let end: StreamPosition | null = null;
  const reports: StreamReport[] = [];
  for (const row of result.rows) {
    if (row.kind === 'end') {
      end = { tx: row.tx, seq: String(row.seq) };
      continue;
    }
    reports.push({
      position: { tx: row.tx, seq: String(row.seq) },
      deviceId: Number(row.device_id),
      reportId: String(row.report_id),
      type: String(row.type),
      at: asDate(row.at),
      receivedAt: asDate(row.received_at),
      assetIndex: row.asset_index,
      body: asObject(row.body),
      forwardingSettings: asObject(row.settings),
    });
  }
  reports.sort((a, b) => comparePositions(a.position, b.position));
  const last = reports.at(-1);
  // A full batch may stop before the window's end: the cursor then moves only past what was taken.
  const next = reports.length >= batchMax && last ? last.position : (end ?? after);
  return { reports, next };
}

export function comparePositions(a: StreamPosition, b: StreamPosition): number {
  const tx = BigInt(a.tx) - BigInt(b.tx);
  if (tx !== 0n) {
    return tx < 0n ? -1 : 1;
  }
  const seq = BigInt(a.seq) - BigInt(b.seq);
  return seq === 0n ? 0 : seq < 0n ? -1 : 1;
}

/** How far behind `destination` is: reports waiting (counted up to lagCountMax) and the age of the oldest. */
export async function lagOf(
  db: Knex | Knex.Transaction,
  destinationId: number,
  after: StreamPosition,
): Promise<{ reports: number; capped: boolean; oldestReceivedAt: Date | null }> {
  const result = (await db.raw(
    `with w as (
       select r.tx, r.seq, r.device_id, r.type, r.received_at
         from device_reports r
        where (r.tx, r.seq) > (cast(:tx as xid8), cast(:seq as bigint))
        order by r.tx, r.seq
        limit :scan
     ), m as (select w.received_at from w ${takenBy} limit :count)
     select cast(count(*) as integer) as waiting, min(received_at) as oldest from m`,
    {
      tx: after.tx,
      seq: after.seq,
      scan: forwardingLimits.lagCountMax * 4,
      count: forwardingLimits.lagCountMax + 1,
      destination: destinationId,
      types: messageTypesJson,
    },
  )) as { rows: { waiting: number; oldest: Date | string | null }[] };
  const row = result.rows[0] ?? { waiting: 0, oldest: null };
  const waiting = Number(row.waiting);
  return {
    reports: Math.min(waiting, forwardingLimits.lagCountMax),
    capped: waiting > forwardingLimits.lagCountMax,
    oldestReceivedAt: row.oldest === null ? null : asDate(row.oldest),
  };
}

/**
 * The newest position stored now: a new destination starts here and gets what is stored from
 * then on. Unlike a read, this does not wait for older transactions to end, so a report whose
 * transaction is still open when the destination is made may be left out of it.
 */
export async function streamHead(db: Knex | Knex.Transaction): Promise<StreamPosition> {
  // Ordered by the column r.tx (xid8), not by the text alias `tx`, which would put 954 after 1010.
  const result = (await db.raw('select r.tx::text as tx, r.seq from device_reports r order by r.tx desc, r.seq desc limit 1')) as {
    rows: { tx: string; seq: string | number }[];
  };
  const row = result.rows[0];
  return row ? { tx: row.tx, seq: String(row.seq) } : streamStart;
}

/**
 * The position just before the report numbered `offset` (replay from it, in stream order), or
 * the head when no report from `offset` on exists; offset 0 is the very start.
 */
export async function positionBefore(db: Knex | Knex.Transaction, offset: number): Promise<StreamPosition> {
  if (offset === 0) {
    return streamStart;
  }
  const result = (await db.raw('select tx::text as tx, seq from device_reports where seq >= ? order by seq limit 1', [offset])) as {
    rows: { tx: string; seq: string | number }[];
  };
  const row = result.rows[0];
  if (!row) {
    return streamHead(db);
  }
  return { tx: row.tx, seq: String(BigInt(row.seq) - 1n) };
}
