import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTransport, type Transporter } from 'nodemailer';
import type { SendMailOptions } from 'nodemailer';
import { issueMailLimits } from '../contracts/issue-mail';
import { systemActor } from '../graph/common/context';
import { HashIds } from '../graph/common/hash-ids';
import { write } from '../graph/common/write';
import { FileModel } from '../graph/operations/models/file.model';
import { IssueModel } from '../graph/operations/models/issue.model';
import { IssueMessageModel } from '../graph/operations/models/issue-message.model';
import { createServices, type Services } from '../graph/services';
import { testSecrets } from '../test-support/app';
import { testDatabase, type TestDatabase } from '../test-support/database';
import { buildOrganization, buildUser } from '../test-support/factories';
import { smtpPeer, type SmtpPeer } from '../test-support/smtp-peer';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { startIssueMail } from './issue-mail';
import { smtpReceiverMaxClients, startSmtpReceiver, type SmtpReceiver } from './smtp-receiver';

const hashIds = new HashIds(testSecrets.hashIdSecret);
const support = 'support@gridport.test';
/** The smallest PNG there is: one transparent pixel. */
const readings = 'time,power\n10:00,0\n';
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** A real SMTP client (nodemailer's SMTP transport) to the receiver, as a mail server on the Internet would deliver. */
function smtpClient(port: number): Transporter {
  return createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
}

/** The SMTP reply code of a refused delivery. */
async function refusal(client: Transporter, mail: SendMailOptions): Promise<number | undefined> {
  try {
    await client.sendMail(mail);
  } catch (error) {
    return (error as { responseCode?: number }).responseCode;
  }
  throw new Error('the receiver took the mail');
}

const issueHashIdIn = (response: string) => /issue (\S+)$/.exec(response)?.[1];

describe('the SMTP receiver', () => {
  let database: TestDatabase;
  let services: Services;
  let receiver: SmtpReceiver;
  let client: Transporter;

  beforeAll(async () => {
    database = await testDatabase();
    services = createServices({ db: database.db, hashIds, ...testSecrets });
    receiver = await startSmtpReceiver({ port: 0, host: '127.0.0.1', tls: null }, services.incomingMail, createLogger('silent'));
    client = smtpClient(receiver.port);
  });

  afterAll(async () => {
    client.close();
    await receiver.close();
    await database.close();
  });

  const messagesOf = (issueId: number) => IssueMessageModel.query(database.db).where('issue_id', issueId).orderBy('id');

  it("opens an issue for a stranger's mail, with the sender as a non-user participant and the allowed files attached", async () => {
    const info = (await client.sendMail({
      from: 'Ann Stranger <ann@stranger.example>',
      to: support,
      subject: 'Inverter shows E42',
      text: 'Since this morning.',
      messageId: '<e42@stranger.example>',
      references: '<earlier@stranger.example>',
      attachments: [
        { filename: 'photo.png', content: png, contentType: 'image/png' },
        { filename: 'readings.csv', content: readings, contentType: 'text/csv' },
        { filename: 'tool.exe', content: Buffer.from('MZ'), contentType: 'application/octet-stream' },
        { filename: 'fake.png', content: '<script>alert(1)</script>', contentType: 'image/png' },
      ],
    })) as { response: string };
    expect(info.response).toMatch(/^250 2\.0\.0 Opened issue \S+$/);
    const issueId = hashIds.decode('issue', issueHashIdIn(info.response) ?? '');
    const issue = await IssueModel.query(database.db).findById(issueId ?? 0);
    expect(issue).toMatchObject({
      title: 'Inverter shows E42',
      source: 'incoming-email',
      organizationId: null,
      gridportIssueOwner: true,
      nonUserParticipants: [{ email: 'ann@stranger.example', name: 'Ann Stranger' }],
      replyHeaders: { messageId: '<e42@stranger.example>', references: ['<earlier@stranger.example>'] },
      // A new mail waits for an answer: its next activity is due at once.
      nextActivityDueAt: expect.any(Date) as Date,
    });
    const [message] = await messagesOf(issue?.id ?? 0);
    expect(message).toMatchObject({
      source: 'incoming-email',
      userId: null,
      mailMessageId: '<e42@stranger.example>',
      mailState: 'none',
      emailHeaders: {
        from: 'Ann Stranger <ann@stranger.example>',
        to: [support],
        cc: [],
        subject: 'Inverter shows E42',
        messageId: '<e42@stranger.example>',
        inReplyTo: null,
        references: ['<earlier@stranger.example>'],
        date: expect.any(String),
      },
    });
    expect(message?.message).toBe(
      'Since this morning.\n\n(Files of the mail not kept: ' +
        'tool.exe (application/octet-stream is not kept: only PNG, JPEG, GIF and WebP images, PDF, CSV, plain text and JSON are); ' +
        'fake.png (the bytes are not image/png).)',
    );
    const files = await FileModel.query(database.db)
      .where('issue_message_id', message?.id ?? 0)
      .orderBy('id');
    expect(files.map(({ name, contentType, size, storage }) => ({ name, contentType, size, storage }))).toEqual([
      { name: 'photo.png', contentType: 'image/png', size: png.length, storage: 'database' },
      { name: 'readings.csv', contentType: 'text/csv', size: readings.length, storage: 'database' },
    ]);
    // (PGlite answers bytea as a Uint8Array, pg as a Buffer.)
    expect(Buffer.from(files[0]?.content ?? []).equals(png)).toBe(true);
    expect(Buffer.from(files[1]?.content ?? []).toString('utf8')).toBe(readings);
  });

  it('adds a mail whose subject carries an issue tag to that issue, as its sender if the sender is a user', async () => {
    const organization = await buildOrganization(services);
    const user = await buildUser(services, { organizationHashId: organization.hashId, rights: ['customer.write'], email: 'bo@customer.example' });
    const issue = await write(database.db, systemActor('test'), (w) =>
      services.issueJournal.open(w, { title: 'Meter silent', source: 'monitoring', organizationId: organization.id }),
    );
    const issueHashId = hashIds.encode('issue', issue.id);
    const info = (await client.sendMail({ from: 'BO@customer.example', to: support, subject: `RE: Meter silent [#${issueHashId}]`, text: 'It is back.' })) as {
      response: string;
    };
    expect(info.response).toBe(`250 2.0.0 Added to issue ${issueHashId}`);
    expect(await messagesOf(issue.id)).toMatchObject([{ source: 'incoming-email', userId: user.id, message: 'It is back.' }]);
    expect(await IssueModel.query(database.db).findById(issue.id)).toMatchObject({ nonUserParticipants: [] });

    // A user of another organisation writes to it as anyone would: by address, a participant.
    const outsider = await buildUser(services, { organizationHashId: (await buildOrganization(services)).hashId, rights: ['customer.write'] });
    await client.sendMail({ from: outsider.email, to: support, subject: `Meter silent [#${issueHashId}]`, text: 'Me too.' });
    expect((await messagesOf(issue.id)).map(({ userId, message }) => ({ userId, message }))).toEqual([
      { userId: user.id, message: 'It is back.' },
      { userId: null, message: 'Me too.' },
    ]);
    expect(await IssueModel.query(database.db).findById(issue.id)).toMatchObject({ nonUserParticipants: [{ email: outsider.email, name: null }] });

    // A tag that names no issue opens one, like a mail without a tag; so does a known user's mail, in the user's organisation.
    const untagged = (await client.sendMail({ from: 'bo@customer.example', to: support, subject: 'New meter [#nonsense]', text: 'Hello' })) as {
      response: string;
    };
    expect(untagged.response).toMatch(/Opened issue/);
    const opened = await IssueModel.query(database.db).findById(hashIds.decode('issue', issueHashIdIn(untagged.response) ?? '') ?? 0);
    expect(opened).toMatchObject({ title: 'New meter [#nonsense]', organizationId: organization.id, nonUserParticipants: [] });
  });

  it('keeps a mail a machine wrote on its issue without telling the subscribers, so autoresponders cannot loop', async () => {
    const issue = await write(database.db, systemActor('test'), (w) => services.issueJournal.open(w, { title: 'Away', source: 'user', organizationId: null }));
    const issueHashId = hashIds.encode('issue', issue.id);
    for (const headers of [{ 'Auto-Submitted': 'auto-replied' }, { Precedence: 'bulk' }, { 'Auto-Submitted': 'no' }]) {
      await client.sendMail({
        from: 'gus@stranger.example',
        to: support,
        subject: `Out of office: Away [#${issueHashId}]`,
        text: JSON.stringify(headers),
        headers,
      });
    }
    const messages = await messagesOf(issue.id);
    expect(messages.map(({ message, subscribersNotifiedAt }) => ({ message, told: subscribersNotifiedAt !== null }))).toEqual([
      { message: '{"Auto-Submitted":"auto-replied"}', told: true },
      { message: '{"Precedence":"bulk"}', told: true },
      { message: '{"Auto-Submitted":"no"}', told: false },
    ]);
  });

  it('reopens a resolved issue that a person writes to, but not for an autoresponder', async () => {
    const issue = await write(database.db, systemActor('test'), (w) =>
      services.issueJournal.open(w, { title: 'Inverter trip', source: 'user', organizationId: null }),
    );
    await IssueModel.query(database.db).patch({ closedAt: new Date() }).where('id', issue.id);
    const issueHashId = hashIds.encode('issue', issue.id);
    await client.sendMail({
      from: 'gus@stranger.example',
      to: support,
      subject: `Out of office: Inverter trip [#${issueHashId}]`,
      text: 'Away until Monday.',
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    expect(await IssueModel.query(database.db).findById(issue.id)).toMatchObject({ closedAt: expect.any(Date) as Date });

    await client.sendMail({ from: 'Gus <gus@stranger.example>', to: support, subject: `RE: Inverter trip [#${issueHashId}]`, text: 'It tripped again.' });
    expect(await IssueModel.query(database.db).findById(issue.id)).toMatchObject({ closedAt: null, nextActivityDueAt: expect.any(Date) as Date });
    expect((await messagesOf(issue.id)).map(({ source, message }) => [source, message])).toEqual([
      ['incoming-email', 'Away until Monday.'],
      ['incoming-email', 'It tripped again.'],
      ['cloud', 'Reopened by a new message from Gus.'],
    ]);
  });

  it('keeps at most 10 files of a mail and names the rest in the message', async () => {
    const attachments = Array.from({ length: 12 }, (_, index) => ({
      filename: `note-${index + 1}.txt`,
      content: `Note ${index + 1}`,
      contentType: 'text/plain',
    }));
    const info = (await client.sendMail({ from: 'hal@stranger.example', to: support, subject: 'Twelve notes', text: 'See the notes.', attachments })) as {
      response: string;
    };
    const issueId = hashIds.decode('issue', issueHashIdIn(info.response) ?? '') ?? 0;
    const [message] = await messagesOf(issueId);
    expect(message?.message).toBe(
      'See the notes.\n\n(Files of the mail not kept: note-11.txt (a message keeps at most 10 files); note-12.txt (a message keeps at most 10 files).)',
    );
    const files = await FileModel.query(database.db)
      .where('issue_message_id', message?.id ?? 0)
      .orderBy('id');
    expect(files.map((file) => file.name)).toEqual(attachments.slice(0, 10).map((attachment) => attachment.filename));
  });

  it('tells a connection beyond 20 at once to come back later (421), and serves again once they go', async () => {
    const greetings: Promise<string>[] = [];
    const sockets: Socket[] = [];
    for (let i = 0; i <= smtpReceiverMaxClients; i += 1) {
      const socket = connect(receiver.port, '127.0.0.1');
      sockets.push(socket);
      greetings.push(new Promise((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8')))));
      // One at a time, so that the last is the one over the limit.
      await greetings[i];
    }
    const answered = await Promise.all(greetings);
    expect(answered.slice(0, smtpReceiverMaxClients).every((line) => line.startsWith('220 '))).toBe(true);
    expect(answered[smtpReceiverMaxClients]).toMatch(/^421 .*Too many connected clients/);
    await Promise.all(
      sockets.map((socket) => {
        const closed = new Promise((resolve) => socket.once('close', resolve));
        socket.end();
        return closed;
      }),
    );
    await expect(client.sendMail({ from: 'ivy@stranger.example', to: support, subject: 'After the crowd', text: 'Hi' })).resolves.toMatchObject({
      response: expect.stringMatching(/Opened issue/),
    });
  });

  it('takes the same Message-ID once, however often it is delivered', async () => {
    const mail = { from: 'cy@stranger.example', to: support, subject: 'Twice', text: 'Once only', messageId: '<twice@stranger.example>' };
    const first = (await client.sendMail(mail)) as { response: string };
    const second = (await client.sendMail(mail)) as { response: string };
    expect(issueHashIdIn(second.response)).toBe(issueHashIdIn(first.response));
    expect(await IssueMessageModel.query(database.db).where('mail_message_id', '<twice@stranger.example>')).toHaveLength(1);
    expect(await IssueModel.query(database.db).where('title', 'Twice')).toHaveLength(1);
  });

  it('refuses a mail without a sender and a mail over 25 MB, and takes nothing of them', async () => {
    const before = await IssueMessageModel.query(database.db).resultSize();
    const envelope = { from: 'dee@stranger.example', to: [support] };
    expect(await refusal(client, { envelope, raw: 'this is not a mail at all\r\n' })).toBe(550);
    expect(await refusal(client, { envelope, raw: 'From: nobody\r\nSubject: no address\r\n\r\nHello\r\n' })).toBe(550);
    const oversized = `From: dee@stranger.example\r\nSubject: Large\r\n\r\n${'x'.repeat(issueMailLimits.inboundMailBytes)}\r\n`;
    expect(await refusal(client, { envelope, raw: oversized })).toBe(552);
    expect(await IssueMessageModel.query(database.db).resultSize()).toBe(before);
    // NUL characters, which PostgreSQL cannot keep, are dropped rather than the mail refused again and again.
    const withNul = (await client.sendMail({ envelope, raw: 'From: dee@stranger.example\r\nSubject: Odd\u0000 subject\r\n\r\nOdd\u0000 text\r\n' })) as {
      response: string;
    };
    const odd = await IssueModel.query(database.db).findById(hashIds.decode('issue', issueHashIdIn(withNul.response) ?? '') ?? 0);
    expect(odd).toMatchObject({ title: 'Odd subject' });
    expect(await messagesOf(odd?.id ?? 0)).toMatchObject([{ message: 'Odd text', emailHeaders: { subject: 'Odd subject' } }]);
    // The receiver is still there.
    await expect(client.sendMail({ from: 'dee@stranger.example', to: support, subject: 'Still there?', text: 'Yes' })).resolves.toMatchObject({
      response: expect.stringMatching(/Opened issue/),
    });
  });
});

describe('issue mail on a node with SMTP_INBOUND_PORT', () => {
  let peer: SmtpPeer;
  let database: TestDatabase;

  beforeAll(async () => {
    peer = await smtpPeer();
    database = await testDatabase();
  });

  afterAll(async () => {
    await peer.close();
    await database.close();
  });

  it('opens an issue from a mail, mails the answer threaded, and adds the reply to that answer to the same issue', async () => {
    // What the server starts (server.ts): its configuration read from the environment, its services, and issue mail.
    const config = loadConfig(
      { SMTP_INBOUND_PORT: '0', SMTP_URL: peer.url, MAIL_FROM: `Gridport Support <${support}>`, ...secretsEnv() },
      mkdtempSync(path.join(tmpdir(), 'gridport-smtp-')),
    );
    const services = createServices({ db: database.db, hashIds, ...testSecrets, mail: { ...config.mail, publicUrl: config.publicUrl } });
    const issueMail = await startIssueMail(config, services, createLogger('silent'), 100);
    expect(config.mailInbound.host).toBe('127.0.0.1');
    const client = smtpClient(issueMail.smtpReceiver?.port ?? 0);
    try {
      const opened = (await client.sendMail({
        from: 'Eve Stranger <eve@stranger.example>',
        to: support,
        subject: 'Wind turbine stopped',
        text: 'It stopped at noon.',
        messageId: '<stopped@stranger.example>',
      })) as { response: string };
      const issueHashId = issueHashIdIn(opened.response) ?? '';
      const issueId = hashIds.decode('issue', issueHashId) ?? 0;
      const db = database.db;
      expect(await IssueModel.query(db).findById(issueId)).toMatchObject({ title: 'Wind turbine stopped', source: 'incoming-email' });

      // Staff answer the stranger; the issue mail worker sends it through SMTP_URL to the outside server.
      const answer = await write(db, systemActor('test'), (w) =>
        services.issueJournal.addMessage(w, issueId, { source: 'user', message: 'We restarted it remotely.', to: ['eve@stranger.example'] }),
      );
      const sent = await eventually(() => peer.received.find((mail) => mail.to.includes('eve@stranger.example')));
      const stored = await eventually(async () => {
        const row = await IssueMessageModel.query(db).findById(answer.id);
        return row?.mailState === 'pending' ? undefined : row;
      });
      expect(stored).toMatchObject({ mailState: 'sent', mailMessageId: sent.parsed.messageId });
      expect(sent.parsed).toMatchObject({
        subject: `Wind turbine stopped [#${issueHashId}]`,
        inReplyTo: '<stopped@stranger.example>',
        references: '<stopped@stranger.example>',
      });
      expect(sent.parsed.text).toContain('We restarted it remotely.');

      // Eve answers that mail; her client keeps the thread but changes the subject.
      const reply = (await client.sendMail({
        from: 'Eve Stranger <eve@stranger.example>',
        to: support,
        subject: 'Thanks',
        text: 'Running again, thank you.',
        inReplyTo: sent.parsed.messageId,
        references: ['<stopped@stranger.example>', sent.parsed.messageId ?? ''],
      })) as { response: string };
      expect(reply.response).toBe(`250 2.0.0 Added to issue ${issueHashId}`);
      const timeline = await IssueMessageModel.query(db).where('issue_id', issueId).orderBy('id');
      expect(timeline.map(({ source, message }) => ({ source, message }))).toEqual([
        { source: 'incoming-email', message: 'It stopped at noon.' },
        { source: 'user', message: 'We restarted it remotely.' },
        { source: 'incoming-email', message: 'Running again, thank you.' },
      ]);
      expect(await IssueModel.query(db).where('title', 'Thanks')).toEqual([]);
    } finally {
      client.close();
      await issueMail.close();
      services.mail.close();
    }
  });
});

/** The test secrets as the environment gives them. */
function secretsEnv(): Record<string, string> {
  return { SESSION_SECRET: testSecrets.sessionSecret, HASH_ID_SECRET: testSecrets.hashIdSecret, ENCRYPTION_KEY: testSecrets.encryptionKey };
}

/** Asks `find` again until it answers (the server's worker mails within its interval); the test's own timeout bounds it. */
async function eventually<T>(find: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (;;) {
    const found = await find();
    if (found !== undefined) {
      return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
