import { chmodSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import type { Services } from '../graph/services';
import type { Logger } from './logger';
import { parseCommand, runDatabaseCommand, type CliIo } from './operator-commands';

/**
 * The embedded server answers the command line on a local socket (readable by its owner only):
 * PGlite is one process's database, so while the server runs, the command line's writes are
 * carried out by the server, and the server sees them at once. One request per connection: a JSON
 * line `{ "argv": [...] }`, answered by one JSON line `{ "code": 0, "out": [...], "err": [...] }`.
 */
export interface OperatorAnswer {
  code: number;
  out: string[];
  err: string[];
}

/** A request larger than this, or slower than the timeout, is refused. */
const maxRequestBytes = 64 * 1024;
const requestTimeoutMs = 10_000;

export interface OperatorSocket {
  path: string;
  close(): Promise<void>;
}

function isArgv(value: unknown): value is string[] {
  return Array.isArray(value) && value.length <= 64 && value.every((entry) => typeof entry === 'string');
}

async function answer(line: string, services: Services): Promise<OperatorAnswer> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (text) => out.push(text), err: (text) => err.push(text) };
  let argv: unknown;
  try {
    argv = (JSON.parse(line) as { argv?: unknown }).argv;
  } catch {
    argv = undefined;
  }
  if (!isArgv(argv)) {
    return { code: 2, out, err: ['gridport: the server could not read the command'] };
  }
  let parsed;
  try {
    parsed = parseCommand(argv, io);
  } catch (error) {
    return { code: 1, out, err: [`gridport: ${error instanceof Error ? error.message : String(error)}`] };
  }
  if (parsed.kind === 'exit') {
    return { code: parsed.code, out, err };
  }
  if (parsed.command === 'edge') {
    return { code: 2, out, err: ['gridport: edge runs in the command line, not in the server'] };
  }
  const code = await runDatabaseCommand(parsed.command, parsed.values, services, [], io);
  return { code, out, err };
}

/** Serves the command line at `path` until closed; a socket file left by a dead server is replaced. */
export async function serveOperatorSocket(path: string, services: Services, log: Logger): Promise<OperatorSocket> {
  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.setTimeout(requestTimeoutMs, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (Buffer.byteLength(received) > maxRequestBytes) {
        socket.removeAllListeners('data');
        socket.end(`${JSON.stringify({ code: 2, out: [], err: ['gridport: the command is too long'] })}\n`);
        return;
      }
      const end = received.indexOf('\n');
      if (end === -1) {
        return;
      }
      socket.removeAllListeners('data');
      socket.setTimeout(0);
      answer(received.slice(0, end), services).then(
        (result) => socket.end(`${JSON.stringify(result)}\n`),
        (error: unknown) => {
          log.error({ err: error }, 'a command from the command line failed');
          socket.end(
            `${JSON.stringify({ code: 1, out: [], err: ['gridport: internal_server_error: the server failed to carry out the command (see its log)'] })}\n`,
          );
        },
      );
    });
  });
  try {
    unlinkSync(path);
  } catch {
    // No socket left behind.
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(path, 0o600);
  log.info({ socket: path }, 'answering the command line on a local socket');
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of connections) {
          socket.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

/**
 * Hands `argv` to the server listening at `path`. Rejects with the socket's error (ENOENT,
 * ECONNREFUSED) when no server answers there.
 */
export function askServer(path: string, argv: string[], timeoutMs = 120_000): Promise<OperatorAnswer> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server did not answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    socket.on('connect', () => socket.write(`${JSON.stringify({ argv })}\n`));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        const parsed = JSON.parse(received) as OperatorAnswer;
        resolve(parsed);
      } catch {
        reject(new Error('the server closed the connection without an answer'));
      }
    });
  });
}
