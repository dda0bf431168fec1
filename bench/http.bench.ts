import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { organizationCreateSchema } from '../contracts/organization';
import { validate } from '../contracts/validation';
import { systemActor } from '../graph/common/context';
import { HashIds } from '../graph/common/hash-ids';
import { createServices } from '../graph/services';
import { sessionCookieName } from '../graph/identity/services/session.service';
import { loadConfig } from '../server/config';
import { migrateLatest, openDatabase } from '../server/database';

/** What one load run measured. */
export interface LoadResult {
  name: string;
  requests: number;
  concurrency: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function load(name: string, requests: number, concurrency: number, send: () => Promise<Response>): Promise<LoadResult> {
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next += 1;
        const begin = performance.now();
        const response = await send();
        await response.arrayBuffer();
        latencies.push(performance.now() - begin);
        if (!response.ok) {
          failures += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    requests,
    concurrency,
    perSecond: Math.round(requests / seconds),
    p50Ms: Number(percentile(latencies, 50).toFixed(2)),
    p99Ms: Number(percentile(latencies, 99).toFixed(2)),
    failures,
  };
}

/** Seeds the embedded database in `dataDir` as an operator would, and returns a staff session cookie. */
async function seed(dataDir: string, databaseUrl: string | null, organizations: number): Promise<string> {
  const config = loadConfig({ GRIDPORT_DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const database = openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
  try {
    await migrateLatest(database.db);
    const services = createServices({
      db: database.db,
      hashIds: new HashIds(config.secrets.hashIdSecret),
      sessionSecret: config.secrets.sessionSecret,
      encryptionKey: config.secrets.encryptionKey,
    });
    const operator = systemActor('benchmark');
    for (let i = 0; i < organizations; i += 1) {
      await services.organizations.create(operator, validate(organizationCreateSchema, { name: `Organisation ${i}`, type: 'asset-owner' }, 'payload_invalid'));
    }
    const provider = await services.organizations.provider();
    await services.users.create(operator, { organizationHashId: provider.hashId, email: 'bench@example.com', name: 'Bench', rights: ['gridport.employee'] });
    const user = await services.users.findByEmail('bench@example.com');
    if (!user) {
      throw new Error('the benchmark user was not created');
    }
    const session = await services.sessions.mint(user.id, 'benchmark');
    return `${sessionCookieName}=${session.token}`;
  } finally {
    await database.db.destroy();
  }
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/**
 * The HTTP server on the embedded database (or on PostgreSQL at `databaseUrl`, which must be
 * an empty database), in its own process, under load from this one:
 * the health probe, a REST list of organisations, and the same list through the GraphQL gateway.
 */
export async function httpBenchmark(databaseUrl: string | null): Promise<{ results: LoadResult[]; rssMb: { idle: number; afterLoad: number } }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gridport-bench-'));
  const cookie = await seed(dataDir, databaseUrl, 200);

  const port = 18000 + Math.floor(Math.random() * 1000);
  const server = spawn(process.execPath, [path.join(__dirname, '..', 'server', 'main.js')], {
    env: {
      ...process.env,
      GRIDPORT_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      GRIDPORT_DEMO: 'false',
      DATABASE_URL: databaseUrl ?? '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        if ((await fetch(`${base}/v1/health`)).status === 204) {
          break;
        }
      } catch {
        if (attempt > 600) {
          throw new Error('the server did not start within a minute');
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const pid = server.pid ?? 0;
    const idle = rssMb(pid);
    const graphqlBody = JSON.stringify({ query: '{ organizations(rowsPerPage: 50) { rows { hashId name type } nextPageOffset } }' });
    const results = [
      await load('GET /v1/health', 5000, 16, () => fetch(`${base}/v1/health`)),
      await load('GET /console-admin/v1/organization (50 rows)', 2000, 16, () =>
        fetch(`${base}/console-admin/v1/organization?rowsPerPage=50`, { headers: { cookie } }),
      ),
      await load('POST /graphql organizations (50 rows, through the gateway)', 2000, 16, () =>
        fetch(`${base}/graphql`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: graphqlBody }),
      ),
    ];
    return { results, rssMb: { idle, afterLoad: rssMb(pid) } };
  } finally {
    server.kill('SIGTERM');
  }
}
