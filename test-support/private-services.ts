import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Private PostgreSQL and Redis instances for fault tests: each test stops and starts its own,
 * never the machine's shared ones that other tests use.
 */

/** Debian's PostgreSQL programs (the newest installed major version), or null when none is installed. */
export function postgresBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) {
    return null;
  }
  const versions = readdirSync(base)
    .filter((name) => /^\d+$/.test(name) && existsSync(path.join(base, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : null;
}

/** Whether redis-server runs here. */
export function redisServerInstalled(): boolean {
  const result = spawnSync('redis-server', ['--version'], { stdio: 'ignore', timeout: 5000 });
  return result.error === undefined && result.status === 0;
}

/** The uid and gid of the `postgres` user, when this process is root (initdb refuses root). */
function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) {
    return null;
  }
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error('running as root, and there is no postgres user to run initdb as');
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A PostgreSQL cluster of its own in a temporary folder, on a free port. */
export interface PrivatePostgres {
  /** postgresql://postgres@127.0.0.1:port/postgres */
  url: string;
  port: number;
  /** Starts the server (after `stop`) and waits until it accepts connections. */
  start(): Promise<void>;
  /** pg_ctl stop in the given mode; resolves once the server has stopped. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Stops the server and deletes its folder. */
  remove(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (!bin) {
    throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  }
  const folder = mkdtempSync(path.join(tmpdir(), 'gridport-private-pg-'));
  const dataDir = path.join(folder, 'data');
  const user = postgresUser();
  if (user) {
    chownSync(folder, user.uid, user.gid);
  }
  chmodSync(folder, 0o700);
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  await run(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'], {
    ...as,
    env: { PATH: process.env.PATH ?? '' },
  });
  const port = await freePort();
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=32MB -c max_connections=50`;
  const pgCtl = (...args: string[]) => run(path.join(bin, 'pg_ctl'), ['-D', dataDir, ...args], { ...as, env: { PATH: process.env.PATH ?? '' } });
  let running = false;
  const instance: PrivatePostgres = {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await pgCtl('start', '-w', '-t', '60', '-l', path.join(folder, 'log'), '-o', options);
      running = true;
    },
    async stop(mode = 'fast') {
      await pgCtl('stop', '-w', '-t', '60', '-m', mode);
      running = false;
    },
    async remove() {
      if (running) {
        await instance.stop('immediate').catch(() => undefined);
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
  await instance.start();
  return instance;
}

/** A redis-server of its own on a free port, with no persistence. */
export interface PrivateRedis {
  url: string;
  port: number;
  /** Starts it (again) and waits until it answers PING. */
  start(): Promise<void>;
  /** Kills it (SIGKILL: it is lost, not shut down) and waits until it has exited. */
  kill(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const instance: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      child = started;
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        if (started.exitCode !== null) {
          throw new Error(`redis-server exited with ${started.exitCode}`);
        }
        if (spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout?.trim() === 'PONG') {
          return;
        }
        await sleep(50);
      }
      throw new Error(`redis-server did not answer on port ${port} within 30 s`);
    },
    async kill() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null || running.signalCode !== null) {
        return;
      }
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.kill('SIGKILL');
      await exited;
    },
  };
  await instance.start();
  return instance;
}
