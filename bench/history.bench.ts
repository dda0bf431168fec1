import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { MeasurementQuery } from '../contracts/measurement';
import { rollUp } from '../device-hub/rollups';
import { MeasurementService, planMeasurementQuery, type MeasurementPlan } from '../graph/fleet/services/measurement.service';
import type { DeviceService } from '../graph/fleet/services/device.service';
import { defaultHistorySettings } from '../contracts/history';
import { migrateLatest, openDatabase } from '../server/database';

export interface HistoryBenchmark {
  rawRows: number;
  seedMs: number;
  rollupMs: number;
  results: { name: string; source: MeasurementPlan['source']; bucketSeconds: number; points: number; ms: number; rowsScanned: number }[];
}

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The history query on seven days of a 1-second series of one device (604,800 meter reports):
 * seeding, rolling up, then the 7-day chart of 500 points as the service plans it (minute
 * roll-ups) and, for comparison, the same buckets aggregated from the raw reports.
 * Best of five runs after a warm-up; rows scanned from EXPLAIN ANALYZE.
 */
export async function historyBenchmark(databaseUrl: string | null): Promise<HistoryBenchmark> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const { db } = openDatabase({ url: databaseUrl, schema });
  try {
    await migrateLatest(db, schema);
    const to = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const from = new Date(to.getTime() - 7 * dayMs);
    const seconds = 7 * 24 * 3600;
    let started = performance.now();
    await db.raw(
      `insert into device_reports (device_id, report_id, type, at, asset_index, body, received_at)
       select 1, 'r' || s, 'meterPower', t, 0,
              jsonb_build_object('type', 'meterPower', 'at', t, 'asset', 0, 'observations',
                jsonb_build_object('activePower', 1000 * sin(s / 600.0), 'reactivePower', 10, 'frequency', 50 + (s % 10) / 100.0, 'phaseVoltage', jsonb_build_object('l1', 230, 'l2', 231, 'l3', 229))), t
         from generate_series(0, ? - 1) s, lateral (select cast(? as timestamptz) + s * interval '1 second' as t) times`,
      [seconds, from.toISOString()],
    );
    // As autovacuum would have by now: the BRIN index summarised, statistics taken.
    await db.raw('vacuum analyze device_reports');
    const seedMs = Math.round(performance.now() - started);
    started = performance.now();
    await rollUp(db);
    await db.raw('analyze report_minutes');
    await db.raw('analyze report_hours');
    const rollupMs = Math.round(performance.now() - started);

    // The device access check is one primary-key lookup; the benchmark reads by id.
    const service = new MeasurementService(db, {} as DeviceService);
    const query: MeasurementQuery = {
      hashId: 'bench',
      field: 'activePower',
      reportType: 'meterPower',
      assetIndex: 0,
      controllerIndex: null,
      from,
      to,
      points: 500,
    };
    const planned = planMeasurementQuery(query, new Date(), defaultHistorySettings);
    const cases: { name: string; plan: MeasurementPlan }[] = [
      { name: '7 days, 500 points, as planned', plan: planned },
      { name: '7 days, same buckets from raw reports', plan: { source: 'raw', bucketSeconds: planned.bucketSeconds } },
      { name: '7 days, 168 points (hourly roll-ups)', plan: { source: 'hour', bucketSeconds: 3600 } },
    ];
    const results: HistoryBenchmark['results'] = [];
    for (const { name, plan } of cases) {
      let best = Infinity;
      let points = 0;
      for (let run = 0; run < 6; run += 1) {
        const begin = performance.now();
        points = (await service.read(1, query, plan)).length;
        if (run > 0) {
          best = Math.min(best, performance.now() - begin);
        }
      }
      const { sql, bindings } = service.statement(1, query, plan);
      const explained = (await db.raw(`explain (analyze, format json) ${sql}`, bindings)) as { rows: unknown[] };
      const rowsScanned = scanned(explained.rows);
      results.push({ name, source: plan.source, bucketSeconds: plan.bucketSeconds, points, ms: Math.round(best * 10) / 10, rowsScanned });
    }
    return { rawRows: seconds, seedMs, rollupMs, results };
  } finally {
    await db.raw('drop schema if exists ?? cascade', [schema]);
    await db.destroy();
  }
}

/** The rows read by the scans of an EXPLAIN ANALYZE plan (JSON format). */
function scanned(rows: unknown): number {
  let total = 0;
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') {
      return;
    }
    const record = node as Record<string, unknown>;
    const type = record['Node Type'];
    if (typeof type === 'string' && type.endsWith('Scan') && typeof record['Actual Rows'] === 'number') {
      total += (record['Actual Rows'] as number) * (typeof record['Actual Loops'] === 'number' ? (record['Actual Loops'] as number) : 1);
    }
    for (const value of Object.values(record)) {
      if (Array.isArray(value)) {
        value.forEach(visit);
      } else if (typeof value === 'object') {
        visit(value);
      }
    }
  };
  visit(rows);
  return total;
}

/** BENCH_DATABASE_URL=postgresql://... node dist/bench/history.bench.js (PGlite without it). */
if (require.main === module) {
  historyBenchmark(process.env.BENCH_DATABASE_URL || null)
    .then((result) => {
      process.stdout.write(`History: ${result.rawRows} raw reports seeded in ${result.seedMs} ms, rolled up in ${result.rollupMs} ms\n\n`);
      process.stdout.write('| query | source | bucket s | points | best ms | rows scanned |\n| --- | --- | --- | --- | --- | --- |\n');
      for (const row of result.results) {
        process.stdout.write(`| ${row.name} | ${row.source} | ${row.bucketSeconds} | ${row.points} | ${row.ms} | ${row.rowsScanned} |\n`);
      }
    })
    .catch((error: unknown) => {
      process.stderr.write(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
}
