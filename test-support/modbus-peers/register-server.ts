/**
 * Starts and stops the pymodbus register server (register-server.py) for tests: a Modbus peer
 * nobody here wrote, serving a register map over TCP on a free port.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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
  /** Modbus over UDP, or RTU on a serial port (`serial`), instead of TCP. */
  transport?: 'tcp' | 'udp' | 'serial';
  /** serial: the port the peer serves (the other end of a SerialLine) and its line settings. */
  serial?: { device: string; baudRate: number; parity: 'none' | 'even' | 'odd' };
  /** A fixed port (a restart on the port of before); 0 or absent: a free one. */
  port?: number;
}

export interface RegisterServer {
  readonly port: number;
  /** The tcp (or udp) connection of the config that reaches it; a serial peer is reached on the other end of its line instead. */
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
  const { serial, ...rest } = map;
  const parities = { none: 'N', even: 'E', odd: 'O' } as const;
  const spec = serial === undefined ? rest : { ...rest, device: serial.device, baudrate: serial.baudRate, parity: parities[serial.parity] };
  child.stdin.write(`${JSON.stringify(spec)}\n`);
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
      const connection = {
        type: map.transport === 'udp' ? ('udp' as const) : ('tcp' as const),
        ip: '127.0.0.1',
        port,
        ...(map.framer === 'rtu' ? { rtuOverTcp: true } : {}),
      };
      resolve({ port, connection, stop });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`register-server.py exited (${String(code)}): ${errors}`)));
  });
}

export interface SerialLine {
  /** The two ends of a null-modem line (pseudo-terminals made by socat): the peer serves one, the pool opens the other. */
  readonly ends: readonly [string, string];
  stop(): Promise<void>;
}

/** A pair of linked pseudo-terminals (socat), for RTU over a serial line without hardware. */
export async function startSerialLine(): Promise<SerialLine> {
  const directory = await mkdtemp(path.join(tmpdir(), 'gridport-line-'));
  const ends = [path.join(directory, 'a'), path.join(directory, 'b')] as const;
  const child = spawn('socat', [`pty,raw,echo=0,link=${ends[0]}`, `pty,raw,echo=0,link=${ends[1]}`], { stdio: 'ignore' });
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve();
        return;
      }
      child.once('exit', () => resolve());
    });
    await rm(directory, { recursive: true, force: true });
  };
  // socat makes the links once both pseudo-terminals exist.
  for (let waited = 0; waited < 200; waited += 1) {
    const present = await Promise.all(
      ends.map((end) =>
        access(end).then(
          () => true,
          () => false,
        ),
      ),
    );
    if (present.every(Boolean)) {
      return { ends, stop };
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await stop();
  throw new Error('socat made no pseudo-terminals within 2 s');
}
