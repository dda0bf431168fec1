import 'reflect-metadata';
import os from 'node:os';
import { fleetBenchmark } from './fleet.bench';
import { httpBenchmark } from './http.bench';

/** Runs every benchmark and prints its figures; copy them into docs/performance.md. */
async function main(): Promise<void> {
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  process.stdout.write(`Gridport benchmarks on ${machine}\n\n`);
  // BENCH_DATABASE_URL: an empty PostgreSQL database to run the server on instead of PGlite.
  const databaseUrl = process.env.BENCH_DATABASE_URL || null;
  process.stdout.write(`Database: ${databaseUrl ? 'PostgreSQL' : 'PGlite (embedded)'}\n\n`);
  const http = await httpBenchmark(databaseUrl);
  process.stdout.write('| request | requests | concurrency | per second | p50 ms | p99 ms | failures |\n| --- | --- | --- | --- | --- | --- | --- |\n');
  for (const result of http.results) {
    process.stdout.write(`| ${result.name} | ${result.requests} | ${result.concurrency} | ${result.perSecond} | ${result.p50Ms} | ${result.p99Ms} | ${result.failures} |\n`);
  }
  process.stdout.write(`\nServer resident memory: ${http.rssMb.idle} MB idle, ${http.rssMb.afterLoad} MB after the load.\n`);

  const fleet = await fleetBenchmark(databaseUrl);
  process.stdout.write(
    `\nFleet lists: ${fleet.devices} devices (${fleet.componentRows} component rows, ${fleet.scheduleRows} schedule rows) seeded in ${fleet.seedMs} ms; ` +
      `one warm-up pass, then the mean of ${fleet.passes} passes; requests one at a time.\n\n`,
  );
  process.stdout.write('| request | pages | rows | total ms | p50 ms per page | p99 ms per page | queries per page | failures |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n');
  for (const result of fleet.results) {
    process.stdout.write(`| ${result.name} | ${result.pages} | ${result.rows} | ${result.totalMs} | ${result.p50Ms} | ${result.p99Ms} | ${result.queriesPerPage} | ${result.failures} |\n`);
  }
  process.stdout.write(`\nBenchmark process resident memory (server and, on PGlite, the database): ${fleet.rssMb.afterSeed} MB after seeding, ${fleet.rssMb.afterPaging} MB after paging.\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
