import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
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

/**
 * Compiles the server as `npm start` runs it (incrementally), for tests that run it as a
 * process. Type errors that still let tsc write the output (its exit code 2) are printed and
 * left to the type check; only a build that wrote nothing fails the test.
 */
export async function buildServer(): Promise<void> {
  try {
    await run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')]);
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string };
    if (failed.code !== 2) {
      throw error;
    }
    process.stderr.write(`the server was compiled with type errors (npm run typecheck reports them):\n${failed.stdout ?? ''}\n`);
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
