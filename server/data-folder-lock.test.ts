import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { acquireDataFolder, currentHolder, DataFolderInUseError, lockFileName, operatorSocketPath } from './data-folder-lock';

const freshFolder = () => path.join(mkdtempSync(path.join(tmpdir(), 'gridport-lock-')), 'data');

/** The process id of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the data folder lock', () => {
  it('is held by one opener at a time, and names the holder to the next', () => {
    const dataDir = freshFolder();
    const lock = acquireDataFolder(dataDir, 'server');
    expect(lock.holder).toMatchObject({ pid: process.pid, role: 'server', socketPath: operatorSocketPath(dataDir) });
    let refused: unknown;
    try {
      acquireDataFolder(dataDir, 'command line');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataFolderInUseError);
    expect((refused as DataFolderInUseError).message).toMatch(
      new RegExp(`^The data folder ${dataDir} is in use by the Gridport server with process id ${process.pid} \\(since `),
    );
    expect(currentHolder(dataDir)).toMatchObject({ pid: process.pid, role: 'server' });
    lock.release();
    expect(existsSync(path.join(dataDir, lockFileName))).toBe(false);
    expect(currentHolder(dataDir)).toBeNull();
    const again = acquireDataFolder(dataDir, 'command line');
    expect(again.holder).toMatchObject({ role: 'command line' });
    again.release();
  });

  it('is taken over from a process that died holding it (kill -9), or left it half written', () => {
    const dataDir = freshFolder();
    acquireDataFolder(dataDir, 'command line').release();
    const file = path.join(dataDir, lockFileName);
    writeFileSync(file, JSON.stringify({ pid: deadPid(), role: 'server', hostname: hostname(), startedAt: '2026-11-24T00:00:00.000Z' }));
    expect(currentHolder(dataDir)).toBeNull();
    const lock = acquireDataFolder(dataDir, 'server');
    expect(lock.holder.pid).toBe(process.pid);
    lock.release();
    writeFileSync(file, '{"pid":');
    const afterTorn = acquireDataFolder(dataDir, 'server');
    expect(afterTorn.holder.pid).toBe(process.pid);
    afterTorn.release();
  });

  it('is not released by a process that does not hold it', () => {
    const dataDir = freshFolder();
    const first = acquireDataFolder(dataDir, 'server');
    first.release();
    const second = acquireDataFolder(dataDir, 'server');
    first.release();
    expect(currentHolder(dataDir)).toMatchObject({ startedAt: second.holder.startedAt });
    second.release();
  });

  it('puts the command line socket in the temporary folder when the data folder path is too long for one', () => {
    const deep = path.join(tmpdir(), 'x'.repeat(120), 'data');
    expect(operatorSocketPath(deep)).toMatch(new RegExp(`^${tmpdir()}/gridport-[0-9a-f]{16}\\.sock$`));
    expect(operatorSocketPath('/srv/gridport/data')).toBe('/srv/gridport/data/gridport.sock');
  });
});
