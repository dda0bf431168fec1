import 'reflect-metadata';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { fleetBenchmark } from './fleet.bench';
import { forwardingBenchmark } from './forwarding.bench';
import { fuzzSummary } from './fuzz';
import { fuzzBenchmark } from './fuzz.bench';
import { httpBenchmark } from './http.bench';
import { ingestBenchmark } from './ingest.bench';
import { invoicingBenchmark } from './invoicing.bench';
import { monitorsBenchmark } from './monitors.bench';
import { optimizerBenchmark } from './optimizer.bench';
import { soakBenchmark } from './soak.bench';
import { csvHeader, csvLine, flatLimits, markdownTable } from './soak-samples';

const benchmarks = ['http', 'fleet', 'ingest', 'monitors', 'forwarding', 'optimizer', 'fuzz', 'invoicing', 'soak'] as const;
/** Run only when named: the soak takes as long as it is asked to (an hour for the docs' figures). */
const namedOnly: readonly BenchmarkName[] = ['soak'];
type BenchmarkName = (typeof benchmarks)[number];

const usage = `Usage: npm run bench -- [http] [fleet] [ingest] [monitors] [forwarding] [optimizer] [fuzz] [invoicing] [soak] [--connections 1000,10000] [--rate 10000] [--seconds 30] [--profile] [--stall-seconds 8] [--concurrency 64] [--seed N] [--runs 200] [--reports 200000] [--alarm-every 500] [--devices 10000] [--rounds 5] [--requests 1000] [--minutes 60] [--gateways 1000] [--sample-seconds 30] [--api-rate 4] [--out soak.csv] [--server-node-arg=--flag]
Runs the benchmarks named (all of them but the soak when none is), printing the tables of docs/performance.md.
Ingest: --connections the gateway connections of each run, --rate the reports per second sent in
all, --seconds the measured window (after a 5 s warm-up), --profile where the server's CPU goes,
--stall-seconds S: the report store locked for the window's first S s (PostgreSQL), and what the
server then holds of the gateways' sends (memory under back-pressure), --concurrency the
handshakes under way at once while the gateways connect (64).
HTTP: the health probe, a REST and a GraphQL list of 50 organisations, and on PostgreSQL a bare
floor serving the same list, in turn for --rounds rounds of --requests each; CPU per request of
each serving process; --profile where Gridport's server CPU goes (node --cpu-prof).
Fuzz: the HTTP fuzz of the test suite at length, --runs requests per REST operation (half as
many per GraphQL root field), --seed to repeat a run; it exits 1 at the first rule broken.
Monitors: reports per second through the ingest with the monitors off and on, --reports per pass,
--alarm-every N: one agent alarm report in N.
Forwarding: delivery to an HTTP endpoint and a PostgreSQL database while the ingest stores --rate
reports a second (default 10000) for --seconds (default 30): throughput, lag, drain time.
Invoicing: one organisation of --devices devices with a month of charges, invoiced, run again, read and printed as a PDF.
Soak: the compiled server with the demo fleet and --gateways loaded gateways sending --rate reports/s
in all (default: each gateway one every 2 s) plus --api-rate API requests/s and a live subscription,
for --minutes; a sample every --sample-seconds (a CSV at --out), then a summary judging memory flat.`;

async function http(databaseUrl: string | null, options: { rounds: number; requests: number; profile: boolean }): Promise<void> {
  const result = await httpBenchmark(databaseUrl, { ...options, concurrency: 16 });
  process.stdout.write(
    `HTTP: ${options.requests} requests of each kind a round, the kinds in turn, ${result.rounds} rounds after a warm-up round; CPU is the serving process's (user and system, /proc), per request.\n\n`,
  );
  process.stdout.write(
    '| request | server | requests | concurrency | per second | CPU ms per request | p50 ms | p99 ms | failures |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n',
  );
  for (const line of result.results) {
    process.stdout.write(
      `| ${line.name} | ${line.server} | ${line.requests} | ${line.concurrency} | ${line.perSecond} | ${line.cpuMsPerRequest} | ${line.p50Ms} | ${line.p99Ms} | ${line.failures} |\n`,
    );
  }
  process.stdout.write(`\nGridport's server resident memory: ${result.rssMb.idle} MB idle, ${result.rssMb.afterLoad} MB after the load.\n\n`);
  if (result.profile) {
    process.stdout.write("Gridport's server, top functions by self time (share of the busy samples):\n\n");
    for (const { name, percent } of result.profile) {
      process.stdout.write(`- ${percent} % ${name}\n`);
    }
    process.stdout.write('\n');
  }
}

async function fleet(databaseUrl: string | null): Promise<void> {
  const result = await fleetBenchmark(databaseUrl);
  process.stdout.write(
    `Fleet lists: ${result.devices} devices (${result.componentRows} component rows, ${result.scheduleRows} schedule rows, ` +
      `${result.partnerships} partnerships listing ${result.partnershipDeviceRows} devices) seeded in ${result.seedMs} ms; ` +
      `one warm-up pass, then the mean of ${result.passes} passes; requests one at a time.\n\n`,
  );
  process.stdout.write(
    '| request | pages | rows | total ms | p50 ms per page | p99 ms per page | queries per page | failures |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n',
  );
  for (const line of result.results) {
    process.stdout.write(
      `| ${line.name} | ${line.pages} | ${line.rows} | ${line.totalMs} | ${line.p50Ms} | ${line.p99Ms} | ${line.queriesPerPage} | ${line.failures} |\n`,
    );
  }
  process.stdout.write(
    `\nBenchmark process resident memory (server and, on PGlite, the database): ${result.rssMb.afterSeed} MB after seeding, ${result.rssMb.afterPaging} MB after paging.\n\n`,
  );
}

async function ingest(
  databaseUrl: string | null,
  options: { connections: number[]; rate: number; seconds: number; profile: boolean; stallSeconds: number; concurrency: number },
): Promise<void> {
  const result = await ingestBenchmark(databaseUrl, {
    connections: options.connections,
    reportsPerSecond: options.rate,
    warmupMs: 5000,
    measureMs: options.seconds * 1000,
    profile: options.profile,
    stallMs: options.stallSeconds * 1000,
    concurrency: options.concurrency,
  });
  process.stdout.write(
    `Ingest: ${result.devices} gateways seeded (device rows and certificates) in ${result.seedMs} ms; meter reports of 10 measurements at ${options.rate} a second in all, 5 s warm-up, ${options.seconds} s measured.\n\n`,
  );
  process.stdout.write(
    '| connections | connect s | sent/s | acked/s | observations/s | ack p50 ms | ack p99 ms | ack max ms | unacked at end | subscriber p99 ms | mean batch | RSS idle MB | RSS connected MB | KB per connection | RSS after load MB | CPU server | CPU load gen | CPU rest | errors |\n' +
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n',
  );
  for (const run of result.runs) {
    const { load, rssMb, cpuCores } = run;
    process.stdout.write(
      `| ${run.connections}${run.failedConnections > 0 ? ` (${run.failedConnections} failed)` : ''} | ${(run.connectMs / 1000).toFixed(1)} | ${load.sentPerSecond} | ${load.acknowledgedPerSecond} | ${run.observationsPerSecond} | ${load.ackP50Ms} | ${load.ackP99Ms} | ${load.ackMaxMs} | ${load.outstanding} | ${run.subscriberP99Ms} (${run.subscriberSamples} samples) | ${run.meanBatch} | ${rssMb.idle} | ${rssMb.connected} | ${rssMb.perConnectionKb} | ${rssMb.afterLoad} | ${cpuCores.server} | ${cpuCores.loadGenerator} | ${cpuCores.restOfMachine} | ${load.errors + load.closes} |\n`,
    );
  }
  process.stdout.write(
    '\n| connections | connect s | server CPU ms per handshake | load generator CPU ms per handshake | ingest queue max | refused (queue full) | reading paused |\n| --- | --- | --- | --- | --- | --- | --- |\n',
  );
  for (const run of result.runs) {
    process.stdout.write(
      `| ${run.connections} | ${(run.connectMs / 1000).toFixed(1)} | ${run.connectCpuMsPerHandshake.server} | ${run.connectCpuMsPerHandshake.loadGenerator} | ${run.backPressure.queuedMax} | ${run.backPressure.refused} | ${run.backPressure.pauses} |\n`,
    );
  }
  if (options.stallSeconds > 0) {
    process.stdout.write(
      `\nThe report store stalled (device_reports locked) for the first ${options.stallSeconds} s of the window, the gateways sending on; at its end, after a full collection:\n\n` +
        '| connections | ingest queued | pushed back | KB read from gateways while paused | KB unread in their sockets | RSS connected MB | RSS MB | heap used MB | external MB |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n',
    );
    for (const { connections, stall, rssMb } of result.runs) {
      if (stall) {
        process.stdout.write(
          `| ${connections} | ${stall.queued} | ${stall.pushedBack ? 'yes' : 'no'} | ${stall.readWhilePausedKb} | ${stall.unreadKb} | ${rssMb.connected} | ${stall.rssMb} | ${stall.heapUsedMb} | ${stall.externalMb} |\n`,
        );
      }
    }
  }
  for (const run of result.runs) {
    for (const [profile, what] of [
      [run.connectProfile, 'while connecting'],
      [run.profile, 'during the measured window'],
    ] as const) {
      if (!profile) {
        continue;
      }
      process.stdout.write(`\nServer CPU profile ${what}, ${run.connections} connections (share of the server's samples, idle included):\n\n`);
      for (const { name, percent } of profile.categories) {
        process.stdout.write(`- ${name}: ${percent} %\n`);
      }
      process.stdout.write('\nTop functions by self time:\n\n');
      for (const { name, percent } of profile.top) {
        process.stdout.write(`- ${percent} % ${name}\n`);
      }
    }
  }
  process.stdout.write('\n');
}

async function monitors(databaseUrl: string | null, options: { reports: number; alarmEvery: number }): Promise<void> {
  const result = await monitorsBenchmark(databaseUrl, { devices: 1000, reportsPerPass: options.reports, alarmEvery: options.alarmEvery });
  process.stdout.write(
    `Monitors: ${result.devices} devices of the example config; ${options.reports} asset reports a pass straight into the ingest (no websockets), an agent alarm every ${options.alarmEvery}; passes alternating off and on after a warm-up of each.\n\n`,
  );
  process.stdout.write(
    '| monitors | reports | seconds | reports/s | mean batch | evaluator lag ms | evaluate ms per 100k | fired | cleared | evaluator writes | CPU cores |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n',
  );
  for (const pass of result.passes) {
    process.stdout.write(
      `| ${pass.monitors} | ${pass.reports} | ${pass.seconds} | ${pass.perSecond} | ${pass.meanBatch} | ${pass.evaluatorLagMs} | ${pass.evaluateMsPer100k} | ${pass.fired} | ${pass.cleared} | ${pass.writes} | ${pass.cpuCores} |\n`,
    );
  }
  process.stdout.write('\n');
}

async function forwarding(databaseUrl: string | null, options: { rate: number; seconds: number }): Promise<void> {
  const result = await forwardingBenchmark(databaseUrl, { devices: 1000, rate: options.rate, seconds: options.seconds });
  process.stdout.write(
    `Forwarding: ${result.devices} devices in production in one group forwarding meterPower to each destination; the ingest asked for ${result.rate} reports/s for ${result.seconds} s and stored ${result.stored} (${result.storedPerSecond}/s); CPU of the process ${result.cpuCores} cores.\n\n`,
  );
  process.stdout.write(
    '| destination | delivered during ingest | per second | lag p50 s | lag p99 s | lag max s | drain after ingest s |\n| --- | --- | --- | --- | --- | --- | --- |\n',
  );
  for (const line of result.lines) {
    process.stdout.write(
      `| ${line.kind} | ${line.delivered} | ${line.perSecond} | ${line.lagP50} | ${line.lagP99} | ${line.lagMax} | ${line.drainSeconds} |\n`,
    );
  }
  process.stdout.write('\n');
}

async function invoicing(databaseUrl: string | null, options: { devices: number }): Promise<void> {
  const result = await invoicingBenchmark(databaseUrl, options);
  process.stdout.write(
    `Invoicing: one organisation of ${result.devices} devices, ${result.charges} charges of a month (seeded with SQL in ${result.seedMs} ms).\n\n`,
  );
  process.stdout.write(
    '| devices | charges | run ms | invoices | invoiced charges | second run ms | read with charges ms | PDF ms | PDF KB | same bytes | RSS MB |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n',
  );
  process.stdout.write(
    `| ${result.devices} | ${result.charges} | ${result.runMs} | ${result.invoices} | ${result.invoicedCharges} | ${result.secondRunMs} | ${result.readMs} | ${result.pdfMs} | ${result.pdfKb} | ${result.pdfSameBytes ? 'yes' : 'no'} | ${result.rssMb} |\n\n`,
  );
}

async function soak(
  databaseUrl: string | null,
  options: { minutes: number; gateways: number; rate: number; sampleSeconds: number; apiRate: number; out: string | null; serverNodeArgs: string[] },
): Promise<void> {
  process.stdout.write(
    `Soak: the compiled server with the demo fleet, ${options.gateways} loaded gateways sending ${options.rate} reports/s in all, ${options.apiRate} API requests/s and a live subscription, for ${options.minutes} min; a sample every ${options.sampleSeconds} s.\n\n`,
  );
  process.stdout.write(`${csvHeader()}\n`);
  const { samples, summary } = await soakBenchmark(databaseUrl, {
    minutes: options.minutes,
    gateways: options.gateways,
    reportsPerSecond: options.rate,
    sampleSeconds: options.sampleSeconds,
    apiPerSecond: options.apiRate,
    out: options.out,
    serverNodeArgs: options.serverNodeArgs,
    onStarted: ({ pid, logFile }) => process.stdout.write(`server pid ${pid}, its log ${logFile}\n`),
    onSample: (sample) => process.stdout.write(`${csvLine(sample)}\n`),
  });
  const { memory, heap, databaseMb } = summary;
  process.stdout.write(
    [
      '',
      `Summary of ${summary.samples} samples over ${summary.minutes} min:`,
      `- gateways: ${summary.gateways} (${summary.failedConnections} failed to connect), ${summary.gatewayCloses} closed by the server, ${summary.gatewayErrors} error frames (refusals)`,
      `- reports: ${summary.sent} sent, ${summary.acknowledged} acknowledged in the windows, ${summary.stored} in the database at the end, ${summary.lost} lost`,
      `- ack: p50 ${summary.ackP50Ms} ms, p99 ${summary.ackP99Ms} ms (medians of the samples), worst sample p99 ${summary.ackWorstP99Ms} ms`,
      `- API: ${summary.apiRequests} requests, p50 ${summary.apiP50Ms} ms, p99 ${summary.apiP99Ms} ms (medians of the samples), ${summary.apiFailures} failed`,
      `- live data: ${summary.liveReceived} reports of the subscribed gateways, p99 ${summary.liveP99Ms} ms from send; ${summary.demoReports} demo reports; ${summary.subscriptionDisconnects} subscription disconnects`,
      `- event-loop lag: worst sample p99 ${summary.loopLagWorstP99Ms} ms; server log: ${summary.serverWarnings} warnings, ${summary.serverErrors} errors`,
      `- database: ${databaseMb.start} MB to ${databaseMb.end} MB, ${databaseMb.growthMbPerHour} MB/h, ${databaseMb.bytesPerReport} bytes a stored report`,
      `- RSS: second quarter ${memory.secondQuarterMb} MB, last quarter ${memory.lastQuarterMb} MB, slope ${memory.slopeMbPerHour} MB/h`,
      `- heap used after collection (the lowest of each 5 min): second quarter ${heap.secondQuarterMb} MB, last quarter ${heap.lastQuarterMb} MB, slope ${heap.slopeMbPerHour} MB/h`,
      `- memory ${memory.flat ? 'FLAT' : 'NOT FLAT'}: ${memory.reason} (flat: within ±${flatLimits.quarterChange * 100} % and under ${flatLimits.slopeMbPerHour} MB/h)`,
      '',
      `Samples every ${options.minutes >= 20 ? 5 : 1} min (the window before each; errors counted from the start):`,
      '',
      markdownTable(samples, options.minutes >= 20 ? 300 : 60),
      '',
    ].join('\n'),
  );
}

async function fuzz(databaseUrl: string | null, options: { seed: number; runs: number }): Promise<void> {
  const result = await fuzzBenchmark(databaseUrl, {
    seed: options.seed,
    runsPerOperation: options.runs,
    runsPerField: Math.max(1, Math.round(options.runs / 2)),
  });
  process.stdout.write(`${fuzzSummary(result.counts)}; ${result.seconds} s\n`);
  if (result.unexpectedLogLines.length > 0) {
    throw new Error(`the server logged what it must not (seed ${options.seed}):\n${result.unexpectedLogLines.join('\n')}`);
  }
  process.stdout.write('\n');
}

async function optimizer(): Promise<void> {
  const lines = await optimizerBenchmark();
  process.stdout.write(
    'Optimizer: synthetic sites (feeders of 10 assets, limits binding), HiGHS in WebAssembly; times per solve in ms, model build (arrays) apart from the solve; "via" is how the model reached HiGHS (arrays: passModel and run, what the loop does; text: the one-shot solve of CPLEX LP text); "read" is HiGHS reading the LP text alone.\n\n',
  );
  process.stdout.write(
    '| assets | nodes | columns | rows | LP KB | solver | via | solves | build p50 | build p99 | read p50 | solve p50 | solve p99 | status | objective | solar curtailed | batteries charging |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n',
  );
  for (const line of lines) {
    process.stdout.write(
      `| ${line.assets} | ${line.nodes} | ${line.columns} | ${line.rows} | ${line.lpKb} | ${line.solver} | ${line.via} | ${line.solves} | ${line.buildP50Ms} | ${line.buildP99Ms} | ${line.readP50Ms} | ${line.solveP50Ms} | ${line.solveP99Ms} | ${line.statuses.join(', ')} | ${line.objective ?? ''} | ${line.curtailed} | ${line.charging} |\n`,
    );
  }
  process.stdout.write('\n');
}

/** Runs the benchmarks asked for (every one by default) and prints their figures; copy them into docs/performance.md. */
async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      connections: { type: 'string', default: '1000,10000' },
      rate: { type: 'string' },
      seconds: { type: 'string', default: '30' },
      profile: { type: 'boolean', default: false },
      'stall-seconds': { type: 'string', default: '0' },
      concurrency: { type: 'string', default: '64' },
      seed: { type: 'string' },
      runs: { type: 'string', default: '200' },
      reports: { type: 'string', default: '200000' },
      'alarm-every': { type: 'string', default: '500' },
      devices: { type: 'string', default: '10000' },
      rounds: { type: 'string', default: '5' },
      requests: { type: 'string', default: '1000' },
      minutes: { type: 'string', default: '60' },
      gateways: { type: 'string', default: '1000' },
      'sample-seconds': { type: 'string', default: '30' },
      'api-rate': { type: 'string', default: '4' },
      out: { type: 'string' },
      'server-node-arg': { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', default: false },
    },
  });
  const unknown = positionals.filter((name) => !(benchmarks as readonly string[]).includes(name));
  if (values.help || unknown.length > 0) {
    process.stderr.write(`${unknown.length > 0 ? `unknown benchmark: ${unknown.join(', ')}\n` : ''}${usage}\n`);
    process.exit(values.help ? 0 : 2);
  }
  const selected = new Set<BenchmarkName>(positionals.length === 0 ? benchmarks.filter((name) => !namedOnly.includes(name)) : (positionals as BenchmarkName[]));
  // The ingest and forwarding default to 10,000 reports/s; the soak to one report every 2 s from each gateway.
  const rate = Number(values.rate ?? '10000');
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  process.stdout.write(`Gridport benchmarks on ${machine}\n\n`);
  // BENCH_DATABASE_URL: an empty PostgreSQL database to run the server on instead of PGlite.
  const databaseUrl = process.env.BENCH_DATABASE_URL || null;
  process.stdout.write(`Database: ${databaseUrl ? 'PostgreSQL' : 'PGlite (embedded)'}\n\n`);
  if (selected.has('http')) {
    await http(databaseUrl, { rounds: Number(values.rounds), requests: Number(values.requests), profile: values.profile });
  }
  if (selected.has('fleet')) {
    await fleet(databaseUrl);
  }
  if (selected.has('ingest')) {
    await ingest(databaseUrl, {
      connections: values.connections
        .split(',')
        .map(Number)
        .filter((count) => Number.isInteger(count) && count > 0),
      rate,
      seconds: Number(values.seconds),
      profile: values.profile,
      stallSeconds: Number(values['stall-seconds']),
      concurrency: Number(values.concurrency),
    });
  }
  if (selected.has('monitors')) {
    await monitors(databaseUrl, { reports: Number(values.reports), alarmEvery: Math.max(1, Number(values['alarm-every'])) });
  }
  if (selected.has('forwarding')) {
    await forwarding(databaseUrl, { rate, seconds: Number(values.seconds) });
  }
  if (selected.has('optimizer')) {
    await optimizer();
  }
  if (selected.has('invoicing')) {
    await invoicing(databaseUrl, { devices: Number(values.devices) });
  }
  if (selected.has('soak')) {
    const gateways = Number(values.gateways);
    await soak(databaseUrl, {
      minutes: Number(values.minutes),
      gateways,
      rate: values.rate === undefined ? gateways / 2 : Number(values.rate),
      sampleSeconds: Number(values['sample-seconds']),
      apiRate: Number(values['api-rate']),
      out: values.out ?? null,
      serverNodeArgs: values['server-node-arg'],
    });
  }
  if (selected.has('fuzz')) {
    await fuzz(databaseUrl, { seed: values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed), runs: Number(values.runs) });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
