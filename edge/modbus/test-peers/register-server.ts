/**
 * Starts and stops the pymodbus register server (register-server.py) for tests: a Modbus peer
 * nobody here wrote, serving a register map over TCP on a free port.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

/** Start address (as a decimal string) → values, as register-server.py reads them. */
export type Spans<T> = Record<string, T[]>;

export interface UnitMap {
  holding?: Spans<number>;
  input?: Spans<number>;
  coils?: Spans<boolean>;
  discrete?: Spans<boolean>;
}

export interface RegisterMap {
  units: Record<string, UnitMap>;
  /** Unit ids never answered. */
  silent?: number[];
  /** Function 43/14 objects, by pymodbus name (VendorName, ProductCode, MajorMinorRevision, ...). */
  identity?: Record<string, string>;
  /** RTU frames over TCP. */
  framer?: 'socket' | 'rtu';
  /** Modbus over UDP instead of TCP. */
  transport?: 'tcp' | 'udp';
  /** A fixed port (a restart on the port of before); 0 or absent: a free one. */
  port?: number;
}

export interface RegisterServer {
  readonly port: number;
  /** The tcp (or udp) connection of the config that reaches it. */
  readonly connection: { type: 'tcp' | 'udp'; ip: string; port: number; rtuOverTcp?: boolean };
  stop(): Promise<void>;
}

/** Python with pymodbus: Debian's, not the pyenv one on PATH. */
const python = '/usr/bin/python3';
const script = path.join(__dirname, 'register-server.py');

function exited(child: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
  });
}

/** Starts a peer serving `map` and resolves once it listens. */
export function startRegisterServer(map: RegisterMap): Promise<RegisterServer> {
  const child = spawn(python, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  child.stdin.write(`${JSON.stringify(map)}\n`);
  const stop = async (): Promise<void> => {
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited(child);
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const line = output.split('\n')[0];
      if (!output.includes('\n') || line === undefined) {
        return;
      }
      child.stdout.off('data', onData);
      const { port } = JSON.parse(line) as { port: number };
      const connection = { type: map.transport ?? 'tcp', ip: '127.0.0.1', port, ...(map.framer === 'rtu' ? { rtuOverTcp: true } : {}) };
      resolve({ port, connection, stop });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`register-server.py exited (${String(code)}): ${errors}`)));
  });
}
