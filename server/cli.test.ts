import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HashIds } from '../graph/common/hash-ids';
import { createServices } from '../graph/services';
import { testSecrets } from '../test-support/app';
import { testDatabase, type TestDatabase } from '../test-support/database';
import { runCli, type CliIo } from './cli';
import { acquireDataFolder } from './data-folder-lock';
import { createLogger } from './logger';
import { serveOperatorSocket } from './operator-socket';

function captured(): CliIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (text) => lines.push(text), err: (text) => errors.push(text) };
}

const freshDataDir = () => path.join(mkdtempSync(path.join(tmpdir(), 'gridport-cli-')), 'data');

describe('the command line on the embedded database', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await testDatabase();
  });

  afterAll(async () => {
    await database.close();
  });

  it('hands its command to the server that holds the data folder, and prints the server’s answer', async () => {
    const dataDir = freshDataDir();
    const lock = acquireDataFolder(dataDir, 'server');
    const services = createServices({ db: database.db, hashIds: new HashIds(testSecrets.hashIdSecret), ...testSecrets });
    const socket = await serveOperatorSocket(lock.holder.socketPath ?? '', services, createLogger('silent'));
    try {
      const io = captured();
      await expect(
        runCli(['org', 'create', '--name', 'Through the server', '--type', 'installer', '--json'], { GRIDPORT_DATA_DIR: dataDir }, io),
      ).resolves.toBe(0);
      const { hashId } = JSON.parse(io.lines[0] ?? '') as { hashId: string };
      const organization = await services.organizations.byId(new HashIds(testSecrets.hashIdSecret).decode('organization', hashId) ?? 0);
      expect(organization).toMatchObject({ name: 'Through the server', type: 'installer' });

      const refused = captured();
      await expect(runCli(['org', 'create', '--name', '', '--type', 'installer'], { GRIDPORT_DATA_DIR: dataDir }, refused)).resolves.toBe(1);
      expect(refused.errors[0]).toMatch(/^gridport: payload_invalid: The request body is invalid\.\n {2}- name: /);
    } finally {
      await socket.close();
      lock.release();
    }
  });
});
