/**
 * The soak's samples (bench/soak.bench.ts): what one holds, their CSV, the Markdown table of
 * docs/performance.md, and the judgement on memory. Apart from the benchmark so that a reader of
 * a CSV (and the soak's test) needs none of the server.
 */

/** One sample: the window since the previous one (rates, percentiles) and the state at its end (memory, totals). */
export interface SoakSample {
  elapsedS: number;
  /** The server's resident memory (/proc) and V8 heap (/metrics). */
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  /** Event-loop delay over the window (prom-client's monitorEventLoopDelay, reset at each scrape). */
  loopLagP99Ms: number;
  loopLagMeanMs: number;
  /** The server's CPU over the window, in cores (/proc). */
  serverCores: number;
  gatewaysConnected: number;
  sent: number;
  acknowledged: number;
  ackP50Ms: number;
  ackP99Ms: number;
  ackMaxMs: number;
  /** Reports sent and not yet acknowledged at the window's end. */
  outstanding: number;
  /** Since the start: error frames the gateways received (refusals), and their sockets closed by the server. */
  gatewayErrors: number;
  gatewayCloses: number;
  /** Reports the ingest committed since the server started (gridport_ingest_reports_total, stored). */
  storedTotal: number;
  apiRequests: number;
  apiP50Ms: number;
  apiP99Ms: number;
  /** Requests refused, failed or answered with GraphQL errors in the window. */
  apiFailures: number;
  /** Live reports of the subscribed loaded gateways: how many came, and from the report's `at` (set when sent) to here. */
  liveReceived: number;
  liveP50Ms: number;
  liveP99Ms: number;
  /** Live reports of the demo devices (their edge agents inside the server): the demo fleet is running. */
  demoReports: number;
  /** Since the start: the subscription's socket closed and reopened. */
  subscriptionDisconnects: number;
  databaseMb: number;
  /** Since the start: lines the server logged at warn and error (or fatal). */
  serverWarnings: number;
  serverErrors: number;
}

export interface MemoryVerdict {
  secondQuarterMb: number;
  lastQuarterMb: number;
  /** Least-squares slope of RSS over the samples after the first quarter (the warm-up), MB an hour. */
  slopeMbPerHour: number;
  flat: boolean;
  reason: string;
}

/**
 * "Flat": the last quarter's mean RSS within 5 % of the second quarter's, and the slope after the
 * warm-up under 10 MB an hour. Why these: V8's old space grows in steps between major collections,
 * so RSS wanders by a few percent within minutes whatever the load; a slope of 10 MB/h is 240 MB
 * a day, which an operator's memory alert would see within a day or two, while a smaller one is
 * not told apart from that wandering in an hour.
 */
export const flatLimits = { quarterChange: 0.05, slopeMbPerHour: 10 } as const;

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export function round(value: number, digits = 1): number {
  return Number(value.toFixed(digits));
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Least-squares slope of y over x. */
function slope(points: readonly { x: number; y: number }[]): number {
  const mx = mean(points.map((point) => point.x));
  const my = mean(points.map((point) => point.y));
  const num = points.reduce((sum, point) => sum + (point.x - mx) * (point.y - my), 0);
  const den = points.reduce((sum, point) => sum + (point.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

const csvColumns: (keyof SoakSample)[] = [
  'elapsedS',
  'rssMb',
  'heapUsedMb',
  'heapTotalMb',
  'externalMb',
  'loopLagP99Ms',
  'loopLagMeanMs',
  'serverCores',
  'gatewaysConnected',
  'sent',
  'acknowledged',
  'ackP50Ms',
  'ackP99Ms',
  'ackMaxMs',
  'outstanding',
  'gatewayErrors',
  'gatewayCloses',
  'storedTotal',
  'apiRequests',
  'apiP50Ms',
  'apiP99Ms',
  'apiFailures',
  'liveReceived',
  'liveP50Ms',
  'liveP99Ms',
  'demoReports',
  'subscriptionDisconnects',
  'databaseMb',
  'serverWarnings',
  'serverErrors',
];

export function csvHeader(): string {
  return csvColumns.join(',');
}

export function csvLine(sample: SoakSample): string {
  return csvColumns.map((column) => String(sample[column])).join(',');
}

/** The samples read back from a CSV that csvHeader and csvLine wrote. */
export function parseCsv(text: string): SoakSample[] {
  const [header, ...lines] = text.trim().split('\n');
  const columns = (header ?? '').split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((value, index) => [columns[index], Number(value)])) as unknown as SoakSample);
}

/**
 * The samples nearest each multiple of `everySeconds` (and the last) as a Markdown table: memory,
 * lag, CPU, the window's acknowledgements and API latencies, the database, and the errors of every
 * kind so far (API failures and subscription disconnects summed up to that sample).
 */
export function markdownTable(samples: readonly SoakSample[], everySeconds: number): string {
  const picked: { sample: SoakSample; apiFailures: number }[] = [];
  let apiFailures = 0;
  let nextAt = everySeconds;
  samples.forEach((sample, index) => {
    apiFailures += sample.apiFailures;
    const last = index === samples.length - 1;
    if (sample.elapsedS >= nextAt - 1 || last) {
      picked.push({ sample, apiFailures });
      while (nextAt <= sample.elapsedS + 1) {
        nextAt += everySeconds;
      }
    }
  });
  const rows = picked.map(
    ({ sample: s, apiFailures: failures }) =>
      `| ${round(s.elapsedS / 60)} | ${s.rssMb} | ${s.heapUsedMb} | ${s.loopLagP99Ms} | ${s.serverCores} | ${s.gatewaysConnected} | ${s.sent} | ${s.acknowledged} | ` +
      `${s.ackP50Ms} | ${s.ackP99Ms} | ${s.outstanding} | ${s.apiP50Ms} | ${s.apiP99Ms} | ${s.liveP99Ms} | ${s.demoReports} | ${s.databaseMb} | ` +
      `${failures} | ${s.gatewayErrors} | ${s.gatewayCloses} | ${s.subscriptionDisconnects} | ${s.serverWarnings} / ${s.serverErrors} |`,
  );
  return [
    '| min | RSS MB | heap used MB | loop lag p99 ms | server cores | gateways | sent | acked | ack p50 ms | ack p99 ms | unacked | API p50 ms | API p99 ms | live p99 ms | demo reports | database MB | API failures | gateway refusals | gateways closed | subscription drops | log warn / error |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** The judgement on memory: the second quarter (after the warm-up) against the last, and the slope after the warm-up. */
export function memoryVerdict(samples: readonly SoakSample[], value: (sample: SoakSample) => number = (sample) => sample.rssMb): MemoryVerdict {
  const quarter = Math.max(1, Math.floor(samples.length / 4));
  const second = samples.slice(quarter, 2 * quarter);
  const last = samples.slice(samples.length - quarter);
  const secondQuarterMb = round(mean(second.map(value)));
  const lastQuarterMb = round(mean(last.map(value)));
  const slopeMbPerHour = round(slope(samples.slice(quarter).map((sample) => ({ x: sample.elapsedS / 3600, y: value(sample) }))));
  const change = secondQuarterMb === 0 ? 0 : (lastQuarterMb - secondQuarterMb) / secondQuarterMb;
  const flat = samples.length >= 4 && Math.abs(change) <= flatLimits.quarterChange && slopeMbPerHour < flatLimits.slopeMbPerHour;
  const reason =
    samples.length < 4
      ? 'too few samples to judge'
      : `last quarter ${change >= 0 ? '+' : ''}${round(change * 100)} % against the second (limit ±${flatLimits.quarterChange * 100} %), ` +
        `slope ${slopeMbPerHour} MB/h after the warm-up (limit ${flatLimits.slopeMbPerHour} MB/h)`;
  return { secondQuarterMb, lastQuarterMb, slopeMbPerHour, flat, reason };
}

/**
 * The heap in use after collection: for each sample, the lowest heap of the `seconds` before it.
 * The heap itself saws up and down between collections by a third; its floor is what a leak raises.
 */
export function heapFloors(samples: readonly SoakSample[], seconds = 300): SoakSample[] {
  return samples.map((sample) => ({
    ...sample,
    heapUsedMb: Math.min(
      ...samples.filter((other) => other.elapsedS > sample.elapsedS - seconds && other.elapsedS <= sample.elapsedS).map((other) => other.heapUsedMb),
    ),
  }));
}
