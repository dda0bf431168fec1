import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ForwardedMessage } from '../../contracts/forwarding';
import { receivedOf, type ReceivedMessage } from './peer';

/** What the peers and tests of the http, grafana-loki, influxdb, sftp and ftps kinds share. */

/** Why a program is not there to run, or null. */
export function programMissing(program: string, debianPackage: string): string | null {
  return existsSync(program) ? null : `${program} not installed (apt-get install ${debianPackage})`;
}

export function rootMissing(what: string): string | null {
  return process.getuid?.() === 0 ? null : `${what} must be started as root`;
}

/** A TCP port free now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** `count` consecutive ports free now (an FTP server's passive range). */
export async function freePortRange(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = 30_000 + Math.floor(Math.random() * 25_000);
    const servers: net.Server[] = [];
    let free = true;
    for (let port = first; port < first + count && free; port++) {
      const server = net.createServer();
      free = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (free) {
        servers.push(server);
      }
    }
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    if (free) {
      return first;
    }
  }
  throw new Error(`no ${count} free ports in a row`);
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Runs a program to its end; rejects with its output when it fails. */
export function run(program: string, args: readonly string[], input?: string): string {
  const result = spawnSync(program, [...args], { input, encoding: 'utf8', timeout: 30_000 });
  if (result.error || result.status !== 0) {
    throw new Error(`${program} ${args.join(' ')} failed: ${result.error?.message ?? ''}${result.stderr ?? ''}${result.stdout ?? ''}`);
  }
  return result.stdout;
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) {
    child.kill('SIGKILL');
  }
});

/** A server started by a test: killed by `stop`, and when the test process exits whatever happens. */
export interface ServerProcess {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `program` and waits until it accepts connections on `port` (or exits, which fails with its output). */
export async function startServer(program: string, args: readonly string[], port: number, timeoutMs = 20_000): Promise<ServerProcess> {
  const child = spawn(program, [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: ServerProcess = {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      children.delete(child);
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (!(await portOpen(port))) {
    if (child.exitCode !== null || child.signalCode !== null) {
      children.delete(child);
      throw new Error(`${program} exited before listening: ${output}`);
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`${program} did not listen on ${port} within ${timeoutMs} ms: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return server;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl in `directory`. */
export function selfSignedCertificate(directory: string, name = 'server'): { certFile: string; keyFile: string; cert: Promise<string>; key: Promise<string> } {
  const certFile = path.join(directory, `${name}.crt`);
  const keyFile = path.join(directory, `${name}.key`);
  run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ]);
  return { certFile, keyFile, cert: fs.readFile(certFile, 'utf8'), key: fs.readFile(keyFile, 'utf8') };
}

/** A server certificate and the test CA that signed it. */
export interface CaSignedCertificate {
  /** The CA's certificate (PEM): what a destination's tlsCaCertificate names to trust the server. */
  caCertificate: string;
  certFile: string;
  keyFile: string;
}

/**
 * A certificate authority of its own, made with openssl in `directory`, and a server
 * certificate for 127.0.0.1 and localhost that it signed (not self-signed: only the CA makes it
 * trusted). Each call makes a new CA, so a second one stands for a CA the server does not chain to.
 */
export async function caSignedCertificate(directory: string, name = 'server'): Promise<CaSignedCertificate> {
  const file = (suffix: string) => path.join(directory, `${name}-${suffix}`);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run('openssl', ['req', '-x509', ...ec, '-days', '2', '-subj', `/CN=Gridport test CA ${name}`, '-keyout', file('ca.key'), '-out', file('ca.crt')]);
  run('openssl', ['req', '-new', ...ec, '-subj', '/CN=localhost', '-keyout', file('server.key'), '-out', file('server.csr')]);
  await fs.writeFile(file('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  run('openssl', [
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
    '-out',
    file('server.crt'),
  ]);
  return { caCertificate: await fs.readFile(file('ca.crt'), 'utf8'), certFile: file('server.crt'), keyFile: file('server.key') };
}

// --- Files (sftp, ftps) -------------------------------------------------------------------------

/** Splits RFC 4180 CSV into rows of cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') {
        quoted = false;
      } else {
        cell += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index++;
    } else {
      cell += char;
    }
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

function setPath(target: Record<string, unknown>, keys: string[], value: unknown): void {
  let current = target;
  keys.slice(0, -1).forEach((key, index) => {
    const next = current[key];
    if (typeof next !== 'object' || next === null) {
      // `dcInputs.0.voltage`: a numeric key below makes an array.
      current[key] = /^\d+$/.test(keys[index + 1] ?? '') ? [] : {};
    }
    current = current[key] as Record<string, unknown>;
  });
  current[keys[keys.length - 1] ?? ''] = value;
}

/** A `qos` CSV read back: cells that read as numbers or booleans become them, dotted columns nest again. */
export function receivedFromQos(text: string): ReceivedMessage[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) {
    return [];
  }
  return rows.map((cells) => {
    const cell = (name: string) => cells[header.indexOf(name)] ?? '';
    const values: Record<string, unknown> = {};
    header.slice(7).forEach((column, offset) => {
      const raw = cells[offset + 7] ?? '';
      if (raw === '') {
        return;
      }
      const value = raw === 'true' ? true : raw === 'false' ? false : /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(raw) ? Number(raw) : raw;
      setPath(values, column.split('.'), value);
    });
    return { messageType: cell('messageType'), id: cell('id'), position: cell('position'), deviceHashId: cell('deviceHashId'), at: cell('at'), values };
  });
}

/** A `synaptiq` JSON file read back. */
export function receivedFromJson(text: string): ReceivedMessage[] {
  return (JSON.parse(text) as ForwardedMessage[]).map(receivedOf);
}

/** The batch files in a local directory (what a file peer's server wrote), in position order, hidden partial files left out. */
export async function batchFiles(directory: string): Promise<string[]> {
  const names = (await fs.readdir(directory)).filter((name) => name.startsWith('gridport-'));
  const first = (name: string) => BigInt(/^gridport-[^-]+-(\d+)-/.exec(name)?.[1] ?? '0');
  return names.sort((a, b) => (first(a) < first(b) ? -1 : first(a) > first(b) ? 1 : 0));
}

export async function receivedFromDirectory(directory: string): Promise<ReceivedMessage[]> {
  const received: ReceivedMessage[] = [];
  for (const name of await batchFiles(directory)) {
    const text = await fs.readFile(path.join(directory, name), 'utf8');
    received.push(...(name.endsWith('.csv') ? receivedFromQos(text) : receivedFromJson(text)));
  }
  return received;
}

/**
 * Makes uploads into `directory` fail even over a connection kept open: the directory moves
 * aside and a plain file takes its name. `heal` puts it back.
 */
export async function breakDirectory(directory: string): Promise<void> {
  await fs.rename(directory, `${directory}.broken`);
  await fs.writeFile(directory, 'not a directory\n');
}

export async function healDirectory(directory: string): Promise<void> {
  await fs.rm(directory, { force: true });
  await fs.rename(`${directory}.broken`, directory);
}
