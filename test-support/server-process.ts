import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { processAlive } from '../server/data-folder-lock';
import { projectRoot } from '../server/version';

const run = promisify(execFile);
const root = projectRoot();

/** A TCP port nobody listens on now, on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** How long a compile may hold dist/ before a waiting one gives up. */
const buildLockWaitMs = 300_000;

/**
 * Holds dist/ for one compile across jest's workers (a folder made atomically, naming its
 * process). Answers the release.
 */
async function holdDist(): Promise<() => void> {
  const lock = path.join(root, 'dist', '.build-lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + buildLockWaitMs;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
    }
    let holder = Number.NaN;
    let unnamedFor = 0;
    try {
      holder = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
    } catch {
      // Made but not yet named: its holder is writing the pid, or died before it could.
      unnamedFor = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    }
    const dead = Number.isInteger(holder) && holder > 0 ? !processAlive(holder) : unnamedFor > 10_000;
    if (dead) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`dist/ has been held by another compile (pid ${holder}) for ${buildLockWaitMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Compiles the server as `npm start` runs it (incrementally), for tests that run it as a
 * process. Jest runs two test files or more at once. A compile from scratch rewrites every file
 * of dist/, and a server that another test file has just started must not load one half
 * written. So one compile runs at a time, and a compile after the first finds nothing changed
 * and writes nothing. Type errors that still let tsc write the output (its exit code 2) are
 * printed and left to the type check; only a build that wrote nothing fails the test.
 */
export async function buildServer(): Promise<void> {
  const release = await holdDist();
  try {
    await run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')]);
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string };
    if (failed.code !== 2) {
      throw error;
    }
    process.stderr.write(`the server was compiled with type errors (npm run typecheck reports them):\n${failed.stdout ?? ''}\n`);
  } finally {
    release();
  }
}

/** Runs the compiled command line (`gridport ... --json`) with `env`; answers its JSON output. */
export async function gridportJson(env: NodeJS.ProcessEnv, ...argv: string[]): Promise<Record<string, string>> {
  const { stdout } = await run(process.execPath, [path.join(root, 'bin', 'gridport.js'), ...argv, '--json'], { env });
  return JSON.parse(stdout) as Record<string, string>;
}

/** A compiled server running as a child process. */
export interface ServerProcess {
  url: string;
  process: ChildProcess;
  /** What it wrote so far. */
  output: { stdout: string; stderr: string };
  /** Resolves once the process has exited (at once when it has). */
  exited(): Promise<void>;
}

/** Starts `node dist/server/main.js` on `port` with `env`, and waits until /v1/health answers 204. */
export async function startServerProcess(env: NodeJS.ProcessEnv, port: number): Promise<ServerProcess> {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'server', 'main.js')], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString('utf8');
  });
  const server: ServerProcess = {
    url: `http://127.0.0.1:${port}`,
    process: child,
    output,
    exited: () => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()))),
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited with ${child.exitCode ?? child.signalCode}: ${output.stderr}`);
    }
    try {
      if ((await fetch(`${server.url}/v1/health`)).status === 204) {
        return server;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer /v1/health within a minute: ${output.stderr}`);
}
