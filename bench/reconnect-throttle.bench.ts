/**
 * Micro-benchmark of the reconnect throttle in a storm (issue 21): a burst of handshakes' attempts
 * arriving in one tick, counted in memory (no Redis) and through Redis (the pub/sub's publishing
 * connection, auto-pipelined), each device twice (its second attempt refused: one a window).
 *
 *   npm run build:server && node dist/bench/reconnect-throttle.bench.js [redis://127.0.0.1:6379] [10000] [flush|keep] [redisWaitMs]
 *
 * Then the same number spread over time (100 every 20 ms, as a storm of seconds brings them) and
 * how long an attempt waits for its answer. Prints wall and CPU ms of each round, the attempts refused, how many EVALSHA Redis ran
 * (INFO commandstats, every client's), and what the throttle logged (a Redis outage, were it
 * late). `flush` empties Redis's script cache first (as after a Redis restart: the script is
 * loaded once). Keys are under a prefix of the run's own and deleted at the end. Not part of
 * bench/run.ts.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { RedisPubSub } from '../device-hub/redis-pubsub';
import { ReconnectThrottle } from '../device-hub/reconnect-throttle';

const redisUrl = process.argv[2] ?? 'redis://127.0.0.1:6379';
const burst = Number(process.argv[3] ?? 10_000);
const flush = process.argv[4] === 'flush';
/** ReconnectThrottleOptions.redisWaitMs (the throttle's default unless given). */
const redisWaitMs = process.argv[5] === undefined ? undefined : Number(process.argv[5]);
const rounds = 3;

async function main(): Promise<void> {
  const prefix = `gridport-throttle-bench-${randomBytes(4).toString('hex')}:`;
  const admin = new Redis(redisUrl);
  const evalshaCalls = async () => Number(/cmdstat_evalsha:calls=(\d+)/.exec(await admin.info('commandstats'))?.[1] ?? 0);
  if (flush) {
    await admin.script('FLUSH');
  }
  for (const mode of ['memory', 'redis'] as const) {
    const logged: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(line.replace(/"(time|pid|hostname|stack)":("[^"]*"|\d+),?/g, '')) });
    const pubsub = mode === 'redis' ? new RedisPubSub({ url: redisUrl, log: pino({ level: 'silent' }), prefix }) : null;
    await pubsub?.ready();
    const throttle = new ReconnectThrottle({ attempts: 1, windowMs: 60_000 }, { log, redis: pubsub, ...(redisWaitMs === undefined ? {} : { redisWaitMs }) });
    for (let round = 0; round < rounds; round += 1) {
      const before = await evalshaCalls();
      const started = performance.now();
      const cpu = process.cpuUsage();
      const answers = await Promise.all(Array.from({ length: burst }, (_, attempt) => throttle.attempt(`${round}-${attempt % (burst / 2)}`)));
      const wallMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000;
      process.stdout.write(
        `${mode} round ${round}: ${burst} attempts in one tick, wall ${wallMs.toFixed(0)} ms, CPU ${cpuMs.toFixed(0)} ms (${((cpuMs * 1000) / burst).toFixed(1)} µs an attempt), ` +
          `refused ${answers.filter((answer) => answer !== null).length}, EVALSHA run ${(await evalshaCalls()) - before}\n`,
      );
    }
    // The same attempts spread over time, as a storm of seconds brings them: 100 every 20 ms; how long each waits for its answer.
    const waits: number[] = [];
    const spreadStarted = performance.now();
    const batches: Promise<unknown>[] = [];
    for (let batch = 0; batch < burst / 100; batch += 1) {
      batches.push(
        ...Array.from({ length: 100 }, async (_, attempt) => {
          const asked = performance.now();
          await throttle.attempt(`spread-${batch}-${attempt}`);
          waits.push(performance.now() - asked);
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(batches);
    waits.sort((a, b) => a - b);
    const percentile = (share: number) => (waits[Math.min(waits.length - 1, Math.floor(waits.length * share))] ?? 0).toFixed(1);
    process.stdout.write(
      `${mode} spread: ${burst} attempts, 100 every 20 ms, over ${((performance.now() - spreadStarted) / 1000).toFixed(1)} s: answer p50 ${percentile(0.5)} ms, p99 ${percentile(0.99)} ms, max ${percentile(1)} ms\n`,
    );
    process.stdout.write(`${mode}: logged ${JSON.stringify(logged)}\n`);
    await pubsub?.close();
  }
  for (let keys = await admin.keys(`${prefix}*`); keys.length > 0; keys = keys.slice(1000)) {
    await admin.del(...keys.slice(0, 1000));
  }
  await admin.quit();
}

main().catch((error: unknown) => {
  process.stderr.write(`reconnect-throttle benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
