import type { StoredReport } from '../contracts/hub/reports';
import type { Knex } from 'knex';
import { GridportError } from '../contracts/errors';
import { hubLimits } from '../contracts/hub/protocol';
import { channels, type PubSub } from '../graph/common/pubsub';
import { noMetrics, type NodeMetrics } from '../graph/common/metrics';
import { isoTime } from '../graph/common/timestamps';

/** A validated report on its way into the database. */
export interface IncomingReport {
  deviceId: number;
  /** The device's id for the report (the envelope id): with `at`, what makes a resend a no-op. */
  reportId: string;
  type: string;
  at: Date;
  assetIndex: number | null;
  controllerIndex: number | null;
  /** The whole report as the device sent it. */
  body: Record<string, unknown>;
}

interface Waiting {
  report: IncomingReport;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Stores reports in batches: reports arriving together (from any connection) are written in
 * one statement and one transaction, and each report's promise resolves only after that
 * commit, so a gateway's acknowledgement means the report is on disk. A batch closes when it
 * holds ingestBatchMax reports or has waited ingestBatchWaitMs; up to ingestWritesInFlight
 * batches are written at once (each its own transaction on its own backend), the next gathering
 * meanwhile, and they are answered in the order they were made. A batch's transaction takes its
 * id once the batch made before it has taken its own (the inserts and commits then run side by
 * side): the stream's positions (the writing transaction's id, then a sequence) follow the order
 * the batches were made, so forwarding, which reads the stream in position order, delivers a
 * device's reports in the order it sent them. A report that was stored before (same device, time
 * and id) is left as it was and resolves all the same. The queue is bounded (ingestQueueMax,
 * and back-pressure from ingestPauseAt): a database that falls behind slows the gateways down
 * instead of growing a backlog here.
 */
export class ReportIngest {
  private queue: Waiting[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Batches handed out and not yet answered (hubLimits.ingestWritesInFlight at most). */
  private writes = 0;
  /** Settles once every batch handed out so far has been answered, in order. */
  private answered: Promise<void> = Promise.resolve();
  /** Settles once the last batch handed out has its transaction's id (its position in the stream): the next batch's waits for it. */
  private positionedLast: Promise<void> = Promise.resolve();
  private closed = false;
  private pressed = false;
  private readonly pressureListeners = new Set<(pressed: boolean) => void>();
  /** Statistics for logs and benchmarks. */
  readonly stats = { batches: 0, reports: 0, duplicates: 0, isolatedBatches: 0, refused: 0, pauses: 0, queuedMax: 0 };

  constructor(
    private readonly db: Knex,
    private readonly pubsub: PubSub,
    /** Handed each committed batch's newly stored reports, on this node (the monitors' evaluator); must return at once. */
    private readonly onStored?: (reports: StoredReport[]) => void,
    private readonly metrics: NodeMetrics = noMetrics,
  ) {}

  /** Reports waiting for a batch (not counting the one being written). */
  get queued(): number {
    return this.queue.length;
  }

  /**
   * Back-pressure: `listener(true)` once hubLimits.ingestPauseAt reports wait (stop reading
   * reports), `listener(false)` once no more than ingestResumeAt do. Answers the unsubscribe.
   */
  onPressure(listener: (pressed: boolean) => void): () => void {
    this.pressureListeners.add(listener);
    return () => this.pressureListeners.delete(listener);
  }

  /**
   * Resolves once the report is committed (or was stored before); rejects when the write fails,
   * and at once with service_unavailable when hubLimits.ingestQueueMax reports already wait.
   */
  submit(report: IncomingReport): Promise<void> {
    if (this.closed) {
      return Promise.reject(new Error('ingest is closed'));
    }
    if (this.queue.length >= hubLimits.ingestQueueMax) {
      this.stats.refused += 1;
      return Promise.reject(new GridportError('service_unavailable', { reason: 'the ingest queue is full' }));
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ report, resolve, reject });
      this.stats.queuedMax = Math.max(this.stats.queuedMax, this.queue.length);
      if (!this.pressed && this.queue.length >= hubLimits.ingestPauseAt) {
        this.press(true);
      }
      if (this.queue.length >= hubLimits.ingestBatchMax) {
        this.kick();
      } else if (!this.timer) {
        this.timer = setTimeout(() => this.kick(), hubLimits.ingestBatchWaitMs);
      }
    });
  }

  private kick(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.writes < hubLimits.ingestWritesInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, hubLimits.ingestBatchMax);
      if (this.pressed && this.queue.length <= hubLimits.ingestResumeAt) {
        this.press(false);
      }
      this.writes += 1;
      // Written at once (a second database backend while the first commits), answered in the
      // order the batches were made: acknowledgements, subscribers and monitors see a device's
      // reports in order.
      const positionedBefore = this.positionedLast;
      let positioned: () => void = () => undefined;
      this.positionedLast = new Promise<void>((resolve) => {
        positioned = resolve;
      });
      const inserted = this.insert(batch, positionedBefore, positioned);
      const before = this.answered;
      this.answered = (async () => {
        const outcome = await inserted;
        await before;
        await this.answer(batch, outcome);
      })()
        // answer resolves the batch's reports before it publishes them; a subscriber's throw must not stop the batches after it.
        .catch(() => undefined)
        .finally(() => {
          this.writes -= 1;
          if (this.queue.length > 0) {
            this.kick();
          }
        });
    }
  }

  private press(pressed: boolean): void {
    this.pressed = pressed;
    if (pressed) {
      this.stats.pauses += 1;
      this.metrics.ingestPaused();
    }
    for (const listener of this.pressureListeners) {
      listener(pressed);
    }
  }

  /**
   * Inserts a batch in one statement, in its own transaction, whose id (the rows' position in
   * the stream) is taken once `positionedBefore` (the batch made before it) has taken its own;
   * calls `positioned` then, and inserts and commits. When the database refuses the statement,
   * the batch goes back to a savepoint and is inserted again in halves, each refused half halved
   * again, still in that transaction and in the batch's order: the reports it stores keep the
   * batch's position, and only a report refused alone is refused. Answers the keys stored for
   * the first time and the refused ones, or the error of the whole batch. Never rejects.
   */
  private async insert(
    batch: Waiting[],
    positionedBefore: Promise<void>,
    positioned: () => void,
  ): Promise<{ stored: Set<string>; refused: Map<string, unknown>; rows: IncomingReport[]; seconds: number } | { error: unknown }> {
    const started = performance.now();
    // The same report twice in one batch would make the statement conflict with itself.
    const unique = new Map<string, IncomingReport>();
    for (const { report } of batch) {
      unique.set(reportKey(report), report);
    }
    const rows = [...unique.values()];
    let transaction: Knex.Transaction | null = null;
    try {
      await positionedBefore;
      transaction = await this.db.transaction();
      await transaction.raw('select pg_current_xact_id()');
      positioned();
      const refused = new Map<string, unknown>();
      let stored: Set<string>;
      if (rows.length === 1) {
        stored = await insertRows(transaction, rows);
      } else {
        await transaction.raw('savepoint batch');
        try {
          stored = await insertRows(transaction, rows);
        } catch {
          // One report the database refuses must not fail the others (of any device) that
          // shared its batch. A failure of the connection itself fails the savepoint too, and
          // with it the whole batch.
          await transaction.raw('rollback to savepoint batch');
          this.stats.isolatedBatches += 1;
          stored = new Set<string>();
          await insertHalves(transaction, rows, stored, refused);
        }
      }
      await transaction.commit();
      return { stored, refused, rows, seconds: (performance.now() - started) / 1000 };
    } catch (error) {
      positioned();
      await transaction?.rollback().catch(() => undefined);
      return { error };
    }
  }

  /** Answers a written batch's reports (in the order they were made) and publishes what was new. */
  private async answer(batch: Waiting[], outcome: Awaited<ReturnType<ReportIngest['insert']>>): Promise<void> {
    if ('error' in outcome) {
      for (const waiting of batch) {
        waiting.reject(outcome.error);
      }
      return;
    }
    const { stored, refused, rows } = outcome;
    this.stats.batches += 1;
    this.stats.reports += stored.size;
    let refusedReports = 0;
    for (const waiting of batch) {
      // Nearly always none was refused: no key is made then.
      const error = refused.size === 0 ? undefined : refused.get(reportKey(waiting.report));
      if (error === undefined) {
        waiting.resolve();
      } else {
        refusedReports += 1;
        waiting.reject(error);
      }
    }
    this.stats.duplicates += batch.length - refusedReports - stored.size;
    this.metrics.ingestBatch(batch.length, stored.size, outcome.seconds);
    const storedReports: StoredReport[] = [];
    for (const report of rows) {
      if (stored.has(reportKey(report))) {
        const message: StoredReport = {
          deviceId: report.deviceId,
          reportId: report.reportId,
          type: report.type,
          at: isoTime(report.at),
          assetIndex: report.assetIndex,
          controllerIndex: report.controllerIndex,
          body: report.body,
        };
        this.pubsub.publish(channels.reports(report.deviceId), message);
        storedReports.push(message);
      }
    }
    if (this.onStored && storedReports.length > 0) {
      try {
        this.onStored(storedReports);
      } catch {
        // The listener logs its own failures; the batch is stored and acknowledged all the same.
      }
    }
  }

  /** Writes what is queued and refuses new reports. */
  async close(): Promise<void> {
    this.closed = true;
    this.kick();
    while (this.writes > 0) {
      await this.answered;
    }
  }
}

/** What makes a report unique in the table (device, time, id), as a key. */
function reportKey(report: IncomingReport): string {
  return `${report.deviceId}/${report.at.getTime()}/${report.reportId}`;
}

/**
 * Inserts reports in a savepoint of the transaction, in their order; when the database refuses
 * them, inserts each half the same way, until a report refused alone: that one is refused.
 */
async function isolate(transaction: Knex.Transaction, rows: IncomingReport[], stored: Set<string>, refused: Map<string, unknown>): Promise<void> {
  await transaction.raw('savepoint part');
  try {
    for (const key of await insertRows(transaction, rows)) {
      stored.add(key);
    }
    await transaction.raw('release savepoint part');
  } catch (error) {
    await transaction.raw('rollback to savepoint part');
    await transaction.raw('release savepoint part');
    const [first] = rows;
    if (rows.length === 1 && first) {
      refused.set(reportKey(first), error);
    } else {
      await insertHalves(transaction, rows, stored, refused);
    }
  }
}

/** Inserts the first half of the reports, then the second, each as `isolate` does. */
async function insertHalves(transaction: Knex.Transaction, rows: IncomingReport[], stored: Set<string>, refused: Map<string, unknown>): Promise<void> {
  const middle = Math.ceil(rows.length / 2);
  await isolate(transaction, rows.slice(0, middle), stored, refused);
  await isolate(transaction, rows.slice(middle), stored, refused);
}

/** Inserts reports in one statement; answers the keys of those stored for the first time. */
async function insertRows(transaction: Knex.Transaction, rows: IncomingReport[]): Promise<Set<string>> {
  // The batch travels as one JSON document, each report's body nested as it is: PostgreSQL
  // parses it once (json_to_recordset), where an array literal of jsonb texts would be escaped
  // by the driver and parsed twice by the server (bench/ingest.bench.ts: about 1.4 times the
  // rows per second of unnest over arrays). `at` comes back as epoch milliseconds, cheaper to
  // read than a timestamptz.
  const document = JSON.stringify(
    rows.map((row) => ({ d: row.deviceId, r: row.reportId, t: row.type, a: isoTime(row.at), s: row.assetIndex, c: row.controllerIndex, b: row.body })),
  );
  const inserted = (await transaction.raw(
    `insert into device_reports (device_id, report_id, type, at, asset_index, controller_index, body)
     select d, r, t, a, s, c, b from json_to_recordset(?::json) as x(d bigint, r text, t text, a timestamptz, s integer, c integer, b jsonb)
     on conflict do nothing
     returning device_id, report_id, (extract(epoch from at) * 1000)::bigint as at_ms`,
    [document],
  )) as { rows: { device_id: string | number; report_id: string; at_ms: string | number }[] };
  return new Set(inserted.rows.map((row) => `${Number(row.device_id)}/${Number(row.at_ms)}/${row.report_id}`));
}
