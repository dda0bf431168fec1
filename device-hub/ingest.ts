import type { StoredReport } from '../contracts/hub/reports';
import type { Knex } from 'knex';
import { GridportError } from '../contracts/errors';
import { hubLimits } from '../contracts/hub/protocol';
import { channels, type PubSub } from '../graph/common/pubsub';
import { noMetrics, type NodeMetrics } from '../graph/common/metrics';

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
    }
    for (const listener of this.pressureListeners) {
      listener(pressed);
    }
  }

  /**
   * Inserts a batch in one statement, in its own transaction, whose id (the rows' position in
   * the stream) is taken once `positionedBefore` (the batch made before it) has taken its own;
   * calls `positioned` then, and inserts and commits. Answers the keys stored for the first time,
   * or the error. Never rejects.
   */
  private async insert(
    batch: Waiting[],
    positionedBefore: Promise<void> = Promise.resolve(),
    positioned: () => void = () => undefined,
  ): Promise<{ stored: Set<string>; rows: IncomingReport[]; seconds: number } | { error: unknown }> {
    const started = performance.now();
    // The same report twice in one batch would make the statement conflict with itself.
    const unique = new Map<string, IncomingReport>();
    for (const { report } of batch) {
      unique.set(`${report.deviceId}/${report.at.getTime()}/${report.reportId}`, report);
    }
    const rows = [...unique.values()];
    let transaction: Knex.Transaction | null = null;
    try {
      await positionedBefore;
      transaction = await this.db.transaction();
      await transaction.raw('select pg_current_xact_id()');
      positioned();
      // The batch travels as one JSON document, each report's body nested as it is: PostgreSQL
      // parses it once (json_to_recordset), where an array literal of jsonb texts would be
      // escaped by the driver and parsed twice by the server (bench/ingest.bench.ts: about
      // 1.4 times the rows per second of unnest over arrays). `at` comes back as epoch
      // milliseconds, cheaper to read than a timestamptz.
      const document = JSON.stringify(
        rows.map((row) => ({ d: row.deviceId, r: row.reportId, t: row.type, a: row.at.toISOString(), s: row.assetIndex, c: row.controllerIndex, b: row.body })),
      );
      const inserted = await transaction.raw(
        `insert into device_reports (device_id, report_id, type, at, asset_index, controller_index, body)
         select d, r, t, a, s, c, b from json_to_recordset(?::json) as x(d bigint, r text, t text, a timestamptz, s integer, c integer, b jsonb)
         on conflict do nothing
         returning device_id, report_id, (extract(epoch from at) * 1000)::bigint as at_ms`,
        [document],
      );
      await transaction.commit();
      const stored = new Set(
        (inserted as { rows: { device_id: string | number; report_id: string; at_ms: string | number }[] }).rows.map(
          (row) => `${Number(row.device_id)}/${Number(row.at_ms)}/${row.report_id}`,
        ),
      );
      return { stored, rows, seconds: (performance.now() - started) / 1000 };
    } catch (error) {
      positioned();
      await transaction?.rollback().catch(() => undefined);
      return { error };
    }
  }

  /** Resolves a stored batch's reports and publishes what was new; a failed batch is written again a report at a time. */
  private async answer(batch: Waiting[], outcome: Awaited<ReturnType<ReportIngest['insert']>>): Promise<void> {
    if ('error' in outcome) {
      if (batch.length === 1) {
        batch[0]?.reject(outcome.error);
        return;
      }
      // One report the database refuses must not fail the others (of any device) that shared
      // its batch: each is written alone, and only what fails alone is refused.
      this.stats.isolatedBatches += 1;
      for (const waiting of batch) {
        await this.answer([waiting], await this.insert([waiting]));
      }
      return;
    }
    const { stored, rows } = outcome;
    this.stats.batches += 1;
    this.stats.reports += stored.size;
    this.stats.duplicates += batch.length - stored.size;
    this.metrics.ingestBatch(batch.length, stored.size, outcome.seconds);
    for (const waiting of batch) {
      waiting.resolve();
    }
    const storedReports: StoredReport[] = [];
    for (const report of rows) {
      if (stored.has(`${report.deviceId}/${report.at.getTime()}/${report.reportId}`)) {
        const message: StoredReport = {
          deviceId: report.deviceId,
          reportId: report.reportId,
          type: report.type,
          at: report.at.toISOString(),
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
