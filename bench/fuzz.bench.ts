import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { organizationCreateSchema } from '../contracts/organization';
import { validate } from '../contracts/validation';
import { systemActor } from '../graph/common/context';
import { composeGraph } from '../resolvers/gateway';
import { loadConfig } from '../server/config';
import { createLogger } from '../server/logger';
import { startServer } from '../server/server';
import { fuzzCallers, fuzzHttp, type FuzzCounts } from './fuzz';

export interface FuzzBenchmark {
  counts: FuzzCounts;
  seconds: number;
  /** Log lines that must not happen: unexpected errors, clients logged as gone (499). */
  unexpectedLogLines: string[];
}

/**
 * The HTTP fuzz of bench/fuzz.ts at length, against the server as `npm start` starts it
 * (startServer, no demo fleet) on PGlite or BENCH_DATABASE_URL. It stops at the first answer
 * that breaks a rule (thrown with fast-check's seed and counterexample); the server's log is
 * read for unexpected errors as well.
 */
export async function fuzzBenchmark(
  databaseUrl: string | null,
  options: { seed: number; runsPerOperation: number; runsPerField: number },
): Promise<FuzzBenchmark> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gridport-bench-fuzz-'));
  const unexpectedLogLines: string[] = [];
  const watch = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        const parsed = JSON.parse(line) as { msg?: unknown; statusCode?: unknown };
        if ((typeof parsed.msg === 'string' && parsed.msg.startsWith('unexpected')) || parsed.statusCode === 499) {
          unexpectedLogLines.push(line);
        }
      }
      done();
    },
  });
  const config = loadConfig({
    GRIDPORT_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    GRIDPORT_DEMO: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const log = createLogger('warn', watch);
  const server = await startServer(config, log);
  try {
    const customer = await server.services.organizations.create(
      systemActor('fuzz'),
      validate(organizationCreateSchema, { name: 'Fuzzed BV', type: 'asset-owner' }, 'payload_invalid'),
    );
    const { apiSchema } = await composeGraph(log);
    const started = performance.now();
    const counts = await fuzzHttp({
      baseUrl: server.url,
      callers: await fuzzCallers(server.services, customer.hashId),
      schema: apiSchema,
      seed: options.seed,
      runsPerOperation: options.runsPerOperation,
      runsPerField: options.runsPerField,
      requestTimeoutMs: 30_000,
    });
    return { counts, seconds: Math.round((performance.now() - started) / 100) / 10, unexpectedLogLines };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
