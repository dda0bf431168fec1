import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HashIds } from '../graph/common/hash-ids';
import { createServices, type Services } from '../graph/services';
import { systemActor } from '../graph/common/context';
import { write } from '../graph/common/write';
import { smtpPeer, type SmtpPeer } from '../test-support/smtp-peer';
import { testSecrets } from '../test-support/app';
import { testDatabase, type TestDatabase } from '../test-support/database';
import { runCli, type CliIo } from './cli';
import { acquireDataFolder } from './data-folder-lock';
import { createLogger } from './logger';
import { serveOperatorSocket } from './operator-socket';
import { parseCommand, runDatabaseCommand, type DatabaseCommand } from './operator-commands';

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

describe('the issue and mail commands', () => {
  let database: TestDatabase;
  let peer: SmtpPeer;
  let services: Services;
  let issueHashId: string;

  beforeAll(async () => {
    database = await testDatabase();
    peer = await smtpPeer();
    services = createServices({
      db: database.db,
      hashIds: new HashIds(testSecrets.hashIdSecret),
      ...testSecrets,
      mail: { smtpUrl: peer.url, from: 'Gridport <ops@gridport.test>', publicUrl: 'https://console.gridport.test' },
    });
    const resolved = await write(database.db, systemActor('test'), (w) =>
      services.issueJournal.open(w, { title: 'Old trouble', source: 'user', organizationId: null }),
    );
    await database.db('issues').update({ closed_at: new Date() }).where('id', resolved.id);
    const opened = await services.incomingMail.receive({
      from: { address: 'fay@stranger.example', name: 'Fay' },
      to: [{ address: 'support@gridport.test', name: null }],
      cc: [],
      subject: 'Gateway offline',
      messageId: '<offline@stranger.example>',
      inReplyTo: null,
      references: [],
      date: null,
      text: 'Our gateway is offline.\nSince Monday.',
      automatic: false,
      attachments: [],
    });
    issueHashId = opened.issueHashId;
  });

  afterAll(async () => {
    services.mail.close();
    await peer.close();
    await database.close();
  });

  /** Runs a command the way the command line does when no server holds the database: parsed, then carried out on its own services. */
  async function alone(argv: string[]): Promise<{ code: number; lines: string[]; errors: string[] }> {
    const io = captured();
    const parsed = parseCommand(argv, io);
    if (parsed.kind === 'exit') {
      return { code: parsed.code, lines: io.lines, errors: io.errors };
    }
    const code = await runDatabaseCommand(parsed.command as DatabaseCommand, parsed.values, services, [], io);
    return { code, lines: io.lines, errors: io.errors };
  }

  it('lists the issues, open or resolved, and shows one with its timeline', async () => {
    const open = await alone(['issue', 'list', '--status', 'open', '--json']);
    expect(open.code).toBe(0);
    const { rows } = JSON.parse(open.lines[0] ?? '') as { rows: { hashId: string; title: string; status: string }[] };
    expect(rows.map(({ hashId, title, status }) => ({ hashId, title, status }))).toEqual([{ hashId: issueHashId, title: 'Gateway offline', status: 'open' }]);

    const resolved = await alone(['issue', 'list', '--status', 'resolved']);
    expect(resolved.lines[0]).toMatch(/^\S+ {2}resolved {2}\S+ {2}user {12}Old trouble, 0 message\(s\)$/);
    expect((await alone(['issue', 'list'])).lines[0]?.split('\n')).toHaveLength(2);
    expect(await alone(['issue', 'list', '--status', 'closed'])).toMatchObject({ code: 1, errors: [expect.stringMatching(/^gridport: query_invalid/)] });

    const shown = await alone(['issue', 'show', issueHashId]);
    expect(shown.code).toBe(0);
    const text = shown.lines[0] ?? '';
    expect(text).toContain(`Issue ${issueHashId}: Gateway offline`);
    expect(text).toContain('participants outside Gridport fay@stranger.example');
    expect(text).toMatch(/\n\S+ {2}incoming-email from Fay <fay@stranger\.example>:\n {4}Our gateway is offline\.\n {4}Since Monday\./);
    expect(text).toMatch(/\n\S+ {2}controllerCreate by incoming mail/);

    expect(await alone(['issue', 'show', 'nonsense'])).toMatchObject({ code: 1, errors: [expect.stringMatching(/^gridport: not_found/)] });
    expect(await alone(['issue', 'show'])).toMatchObject({ code: 2, errors: [expect.stringMatching(/^gridport: issue show takes one <hashId>/)] });
    expect(await alone(['issue', 'list', 'extra'])).toMatchObject({
      code: 2,
      errors: [expect.stringMatching(/^gridport: unknown command "issue list extra"/)],
    });
  });

  it('sends a test mail through the configured path and prints its receipt', async () => {
    const sent = await alone(['mail', 'test', 'ops-desk@example.com', '--json']);
    expect(sent.code).toBe(0);
    const receipt = JSON.parse(sent.lines[0] ?? '') as { mailHashId: string; status: string; messageId: string };
    expect(receipt).toMatchObject({ status: 'sent', messageId: expect.stringMatching(/^<.+@gridport\.test>$/) });
    const received = peer.received.find((mail) => mail.to.includes('ops-desk@example.com'));
    expect(received?.parsed).toMatchObject({ subject: 'Gridport test mail', messageId: receipt.messageId });

    const refused = await alone(['mail', 'test', 'nobody@refused.example']);
    expect(refused.code).toBe(1);
    expect(refused.lines[0]).toMatch(/^Test mail \S+ refused: .*550/);
    expect(await alone(['mail', 'test', 'not-an-address'])).toMatchObject({ code: 1, errors: [expect.stringMatching(/^gridport: payload_invalid/)] });
  });

  it('runs them in the server that holds the data folder', async () => {
    const dataDir = freshDataDir();
    const lock = acquireDataFolder(dataDir, 'server');
    const socket = await serveOperatorSocket(lock.holder.socketPath ?? '', services, createLogger('silent'));
    try {
      const listed = captured();
      await expect(runCli(['issue', 'list', '--status', 'open'], { GRIDPORT_DATA_DIR: dataDir }, listed)).resolves.toBe(0);
      expect(listed.lines[0]).toContain(`${issueHashId}  open`);
      const shown = captured();
      await expect(runCli(['issue', 'show', issueHashId], { GRIDPORT_DATA_DIR: dataDir }, shown)).resolves.toBe(0);
      expect(shown.lines[0]).toContain('Our gateway is offline.');
      const mailed = captured();
      await expect(runCli(['mail', 'test', 'through-server@example.com'], { GRIDPORT_DATA_DIR: dataDir }, mailed)).resolves.toBe(0);
      expect(mailed.lines[0]).toMatch(/^Test mail \S+ sent to through-server@example\.com \(Message-ID <.+>\)$/);
      expect(peer.received.filter((mail) => mail.to.includes('through-server@example.com'))).toHaveLength(1);
    } finally {
      await socket.close();
      lock.release();
    }
  });
});

describe('gridport edge --register-maps', () => {
  it('refuses to start on a bad register map, naming the file and the point, before it provisions', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'gridport-maps-'));
    writeFileSync(
      path.join(folder, 'carlo-gavazzi.json'),
      JSON.stringify({
        type: 'carlo-gavazzi',
        source: 'a test map',
        report: 'meterPower',
        points: [{ name: 'power', address: 10, type: 's32', field: 'activePowr' }],
      }),
    );
    const io = captured();
    await expect(runCli(['edge', '--hub', 'http://127.0.0.1:9', '--state', freshDataDir(), '--register-maps', folder], {}, io)).resolves.toBe(1);
    expect(io.errors).toEqual(['gridport: invalid_config: register map: carlo-gavazzi.json.points.power: meterPower has no field activePowr']);
  });
});
