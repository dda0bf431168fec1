import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
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

/** What one kind of request measured, over every round of the run. */
export interface LoadResult {
  name: string;
  /** The process that served it: Gridport or the bare floor. */
  server: 'gridport' | 'floor';
  requests: number;
  concurrency: number;
  perSecond: number;
  /** CPU (user and system, every thread) of the serving process per request, in ms. */
  cpuMsPerRequest: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

export interface HttpBenchmarkOptions {
  /** Requests of each kind per round. */
  requests: number;
  /** Rounds; each runs every kind once, in turn (the first, a warm-up, is not counted). */
  rounds: number;
  concurrency: number;
  /** Run Gridport's server under `--cpu-prof` and summarise where its CPU went. */
  profile: boolean;
}

export interface HttpBenchmarkResult {
  results: LoadResult[];
  rounds: number;
  rssMb: { idle: number; afterLoad: number };
  /** Top functions by self time in Gridport's server process, when profiled. */
  profile: { name: string; percent: number }[] | null;
}

const clockTicksPerSecond = 100;

/** CPU time (user and system, all threads) of a process so far, in ms, from /proc. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces: the fields after it start after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

interface Round {
  latencies: number[];
  failures: number;
  seconds: number;
  cpuMs: number;
}

async function round(pid: number, requests: number, concurrency: number, send: () => Promise<Response>): Promise<Round> {
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const cpuBefore = cpuMs(pid);
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
  return { latencies, failures, seconds: (performance.now() - started) / 1000, cpuMs: cpuMs(pid) - cpuBefore };
}

/** Seeds the database as an operator would, and returns a staff session cookie and the session secret. */
async function seed(dataDir: string, databaseUrl: string | null, organizations: number): Promise<{ cookie: string; sessionSecret: string }> {
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
    return { cookie: `${sessionCookieName}=${session.token}`, sessionSecret: config.secrets.sessionSecret };
  } finally {
    await database.db.destroy();
  }
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** A script of bench/ or server/ run with node as this process runs (compiled, or through ts-node from the sources). */
function spawnScript(script: string, nodeArgs: string[], env: Record<string, string>): ChildProcess {
  const extension = path.extname(__filename);
  return spawn(process.execPath, [...process.execArgv, ...nodeArgs, path.join(__dirname, '..', `${script}${extension}`)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitFor(url: string, status: number): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      if ((await fetch(url)).status === status) {
        return;
      }
    } catch {
      if (attempt > 1200) {
        throw new Error(`${url} did not answer within two minutes`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) {
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

/** Where the server's CPU went: the functions with the most self time, as a share of the samples that were not idle. */
function summariseProfile(folder: string): { name: string; percent: number }[] {
  const file = readdirSync(folder).find((name) => name.endsWith('.cpuprofile'));
  if (!file) {
    return [];
  }
  const profile = JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfTime = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)' || frame.functionName === '(program)') {
      return;
    }
    const delta = profile.timeDeltas[index] ?? 0;
    const where = frame.url.replace(/^.*node_modules\//, '').replace(/^.*\/(server|graph|resolvers|contracts)\//, '$1/');
    const name = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
    selfTime.set(name, (selfTime.get(name) ?? 0) + delta);
    busy += delta;
  });
  return [...selfTime.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 30)
    .map(([name, time]) => ({ name, percent: Number(((100 * time) / busy).toFixed(1)) }));
}

/**
 * Gridport's HTTP server on PostgreSQL at `databaseUrl` (an empty database), or on the embedded
 * database without one, in its own process, under load from this one: the health probe, a REST
 * list of 50 organisations and the same list through the GraphQL gateway, each authenticated by a
 * real session cookie; and on PostgreSQL a bare floor (bench/http-floor.ts) serving the same list
 * from the same database, in a process of its own. The kinds take turns, round after round, so
 * that whatever else runs on the machine weighs on all of them alike; the figure that survives a
 * noisy machine is the serving process's CPU per request.
 */
export async function httpBenchmark(databaseUrl: string | null, options: HttpBenchmarkOptions): Promise<HttpBenchmarkResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gridport-bench-'));
  const { cookie, sessionSecret } = await seed(dataDir, databaseUrl, 200);
  const port = 18000 + Math.floor(Math.random() * 1000);
  const profileDir = options.profile ? mkdtempSync(path.join(tmpdir(), 'gridport-bench-profile-')) : null;
  const server = spawnScript('server/main', profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [], {
    GRIDPORT_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    GRIDPORT_DEMO: 'false',
    DATABASE_URL: databaseUrl ?? '',
  });
  const floor = databaseUrl
    ? spawnScript('bench/http-floor', [], { FLOOR_DATABASE_URL: databaseUrl, FLOOR_SESSION_SECRET: sessionSecret, PORT: String(port + 1) })
    : null;
  const base = `http://127.0.0.1:${port}`;
  const floorBase = `http://127.0.0.1:${port + 1}`;
  try {
    await waitFor(`${base}/v1/health`, 204);
    if (floor) {
      await waitFor(`${floorBase}/organization`, 401);
    }
    const pid = server.pid ?? 0;
    const idle = rssMb(pid);
    const graphqlBody = JSON.stringify({ query: '{ organizations(rowsPerPage: 50) { rows { hashId name type } nextPageOffset } }' });
    const kinds: { name: string; server: 'gridport' | 'floor'; pid: number; send: () => Promise<Response> }[] = [
      { name: 'GET /v1/health', server: 'gridport', pid, send: () => fetch(`${base}/v1/health`) },
      {
        name: 'GET /console-admin/v1/organization (50 rows)',
        server: 'gridport',
        pid,
        send: () => fetch(`${base}/console-admin/v1/organization?rowsPerPage=50`, { headers: { cookie } }),
      },
      {
        name: 'POST /graphql organizations (50 rows, through the gateway)',
        server: 'gridport',
        pid,
        send: () => fetch(`${base}/graphql`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: graphqlBody }),
      },
      ...(floor
        ? [
            {
              name: 'floor: bare Fastify and pg, session and page (50 rows)',
              server: 'floor' as const,
              pid: floor.pid ?? 0,
              send: () => fetch(`${floorBase}/organization?rowsPerPage=50`, { headers: { cookie } }),
            },
          ]
        : []),
    ];
    const rounds = kinds.map(() => [] as Round[]);
    for (let r = 0; r <= options.rounds; r += 1) {
      for (const [index, kind] of kinds.entries()) {
        const measured = await round(kind.pid, options.requests, options.concurrency, kind.send);
        if (r > 0) {
          rounds[index]?.push(measured);
        }
      }
    }
    const results = kinds.map((kind, index): LoadResult => {
      const taken = rounds[index] ?? [];
      const latencies = taken.flatMap((one) => one.latencies).sort((a, b) => a - b);
      const requests = latencies.length;
      const seconds = taken.reduce((sum, one) => sum + one.seconds, 0);
      const cpu = taken.reduce((sum, one) => sum + one.cpuMs, 0);
      return {
        name: kind.name,
        server: kind.server,
        requests,
        concurrency: options.concurrency,
        perSecond: Math.round(requests / seconds),
        cpuMsPerRequest: Number((cpu / requests).toFixed(3)),
        p50Ms: Number(percentile(latencies, 50).toFixed(2)),
        p99Ms: Number(percentile(latencies, 99).toFixed(2)),
        failures: taken.reduce((sum, one) => sum + one.failures, 0),
      };
    });
    const afterLoad = rssMb(pid);
    await stopped(server);
    return { results, rounds: options.rounds, rssMb: { idle, afterLoad }, profile: profileDir ? summariseProfile(profileDir) : null };
  } finally {
    await stopped(server);
    if (floor) {
      await stopped(floor);
    }
  }
}
