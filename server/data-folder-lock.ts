import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';

/**
 * PGlite is one process's database: two processes opening one data folder corrupt it. Whoever
 * opens the embedded database first holds `<dataDir>/gridport.lock`, naming its process and, for a
 * server, the local socket where it answers the command line (server/operator-socket.ts).
 */
export type LockRole = 'server' | 'command line';

export interface LockHolder {
  pid: number;
  role: LockRole;
  hostname: string;
  startedAt: string;
  /** Where a server answers the command line. */
  socketPath?: string;
}

export interface DataFolderLock {
  holder: LockHolder;
  /** Gives the folder up (idempotent); also done when the process exits. */
  release(): void;
}

export class DataFolderInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(`The data folder ${dataDir} is in use by ${describeHolder(holder)}.`);
    this.name = 'DataFolderInUseError';
  }
}

export function describeHolder(holder: LockHolder): string {
  const who = holder.role === 'server' ? 'the Gridport server' : 'a gridport command';
  const where = holder.hostname === hostname() ? '' : ` on ${holder.hostname}`;
  return `${who} with process id ${holder.pid}${where} (since ${holder.startedAt})`;
}

export const lockFileName = 'gridport.lock';

/** Unix socket paths are limited to about 100 bytes; a longer one goes to the temporary folder. */
const maxSocketPathLength = 100;

/** Where the server of `dataDir` answers the command line. */
export function operatorSocketPath(dataDir: string): string {
  const inFolder = path.join(dataDir, 'gridport.sock');
  if (Buffer.byteLength(inFolder) <= maxSocketPathLength) {
    return inFolder;
  }
  const digest = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(tmpdir(), `gridport-${digest}.sock`);
}

/** Whether a process of this pid runs (one that belongs to another user counts as running). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number' || (parsed.role !== 'server' && parsed.role !== 'command line')) {
      return null;
    }
    return {
      pid: parsed.pid,
      role: parsed.role,
      hostname: typeof parsed.hostname === 'string' ? parsed.hostname : hostname(),
      startedAt: typeof parsed.startedAt === 'string' ? parsed.startedAt : 'an unknown time',
      ...(typeof parsed.socketPath === 'string' ? { socketPath: parsed.socketPath } : {}),
    };
  } catch {
    // Gone, or half written by a process that died while writing it: nobody holds it.
    return null;
  }
}

/** Whether the holder still runs; one on another machine (a shared folder) is taken to. */
function holds(holder: LockHolder): boolean {
  return holder.hostname !== hostname() || processAlive(holder.pid);
}

/**
 * The holder of `dataDir`'s lock now, or null when nobody (alive) holds it. Read-only: for the
 * command line to find a running server.
 */
export function currentHolder(dataDir: string): LockHolder | null {
  const holder = readHolder(path.join(dataDir, lockFileName));
  return holder && holds(holder) ? holder : null;
}

/**
 * Takes `dataDir` for this process, or throws DataFolderInUseError naming the process that has
 * it. A lock left by a process that has died (kill -9, a power cut) is taken over.
 */
export function acquireDataFolder(dataDir: string, role: LockRole): DataFolderLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, lockFileName);
  const holder: LockHolder = {
    pid: process.pid,
    role,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    ...(role === 'server' ? { socketPath: operatorSocketPath(dataDir) } : {}),
  };
  for (let attempt = 0; attempt < 5; attempt += 1) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
      const existing = readHolder(file);
      if (existing && holds(existing)) {
        throw new DataFolderInUseError(dataDir, existing);
      }
      setAsideStale(file, existing);
      continue;
    }
    try {
      writeSync(fd, JSON.stringify(holder));
    } finally {
      closeSync(fd);
    }
    return lockFor(file, holder);
  }
  const existing = readHolder(file);
  throw new DataFolderInUseError(dataDir, existing ?? holder);
}

/**
 * Moves a dead holder's lock aside. Two processes may find the same stale lock: the move is
 * atomic, and one that moved a live lock instead (taken meanwhile by the other) puts it back.
 */
function setAsideStale(file: string, stale: LockHolder | null): void {
  const aside = `${file}.stale-${randomBytes(6).toString('hex')}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return;
    }
    throw error;
  }
  const moved = readHolder(aside);
  const wasStale = moved === null || stale === null || (moved.pid === stale.pid && moved.startedAt === stale.startedAt);
  if (!wasStale) {
    try {
      linkSync(aside, file);
    } catch {
      // Someone took the folder meanwhile; the live lock we moved is theirs no longer.
    }
  }
  unlinkSync(aside);
}

function lockFor(file: string, holder: LockHolder): DataFolderLock {
  let released = false;
  const release = () => {
    if (released) {
      return;
    }
    released = true;
    process.removeListener('exit', release);
    const current = readHolder(file);
    if (current && current.pid === holder.pid && current.startedAt === holder.startedAt) {
      try {
        unlinkSync(file);
      } catch {
        // Already gone.
      }
    }
  };
  process.on('exit', release);
  return { holder, release };
}
