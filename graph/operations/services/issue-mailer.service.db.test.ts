import { HashIds } from '../../common/hash-ids';
import { systemActor } from '../../common/context';
import { write } from '../../common/write';
import { IdentityDirectory } from '../../identity/services/directory.service';
import { createServices, type Services } from '../../services';
import { IssueSubscriberModel, type IssueModel } from '../models/issue.model';
import { IssueMessageModel } from '../models/issue-message.model';
import { IssueMailer } from './issue-mailer.service';
import { MailService } from './mail.service';
import type { NewIssue, NewMessage } from './issue-journal';
import { testSecrets } from '../../../test-support/app';
import { testDatabase, type TestDatabase } from '../../../test-support/database';
import { buildOrganization, buildUser } from '../../../test-support/factories';
import { smtpPeer, type SmtpPeer } from '../../../test-support/smtp-peer';
import { createLogger } from '../../../server/logger';

const hashIds = new HashIds(testSecrets.hashIdSecret);
const from = 'Gridport Support <support@gridport.test>';
const publicUrl = 'https://console.gridport.test';
const log = createLogger('silent');

describe('issue mail out', () => {
  let database: TestDatabase;
  let peer: SmtpPeer;
  let services: Services;

  beforeAll(async () => {
    database = await testDatabase();
    peer = await smtpPeer();
    services = createServices({ db: database.db, hashIds, ...testSecrets, mail: { smtpUrl: peer.url, from, publicUrl } });
  });

  afterAll(async () => {
    services.mail.close();
    await peer.close();
    await database.close();
  });

  /** A mailer of its own (its own SMTP connection), as another node would run it. */
  function mailerOfANode(smtpUrl: string | null = peer.url, batchSize = 2): { mailer: IssueMailer; mail: MailService } {
    const mail = new MailService(database.db, hashIds, { smtpUrl, from, publicUrl }, log);
    return {
      mailer: new IssueMailer(database.db, hashIds, mail, new IdentityDirectory(), services.issues, log, {
        claimSeconds: 60,
        batchSize,
        retrySeconds: 300,
        retryForSeconds: 3600,
      }),
      mail,
    };
  }

  async function openIssue(issue: Partial<NewIssue> = {}): Promise<IssueModel> {
    return write(database.db, systemActor('test'), (w) =>
      services.issueJournal.open(w, { title: 'Inverter offline', source: 'user', organizationId: null, ...issue }),
    );
  }

  async function addMessage(issueId: number, message: Partial<NewMessage>): Promise<IssueMessageModel> {
    return write(database.db, systemActor('test'), (w) => services.issueJournal.addMessage(w, issueId, { source: 'user', message: 'Hello', ...message }));
  }

  const mailsTo = (address: string) => peer.received.filter((mail) => mail.to.includes(address));

  it('two mailers on one database mail each pending message once, and record its Message-ID and state', async () => {
    const issue = await openIssue();
    const messages = [];
    for (let i = 1; i <= 6; i += 1) {
      messages.push(
        await addMessage(issue.id, { message: `Update ${i}`, to: [`twice-${i}@example.com`], ...(i === 1 ? { cc: ['twice-cc@example.com'] } : {}) }),
      );
    }
    const nodeA = mailerOfANode();
    const nodeB = mailerOfANode();
    try {
      const [a, b] = await Promise.all([nodeA.mailer.runOnce(), nodeB.mailer.runOnce()]);
      expect(a.sent + b.sent).toBe(6);
      await Promise.all([nodeA.mailer.runOnce(), nodeB.mailer.runOnce()]);
    } finally {
      nodeA.mail.close();
      nodeB.mail.close();
    }
    const stored = await IssueMessageModel.query(database.db).whereIn(
      'id',
      messages.map((message) => message.id),
    );
    expect(stored.map((message) => message.mailState)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent', 'sent']);
    for (let i = 1; i <= 6; i += 1) {
      const received = mailsTo(`twice-${i}@example.com`);
      expect(received).toHaveLength(1);
      const message = stored.find((row) => row.message === `Update ${i}`);
      expect(received[0]?.parsed.messageId).toBe(message?.mailMessageId);
      expect(received[0]?.parsed.text).toContain(`Update ${i}`);
    }
    expect(mailsTo('twice-cc@example.com')).toHaveLength(1);
    expect(mailsTo('twice-cc@example.com')[0]?.parsed.cc).toMatchObject({ text: 'twice-cc@example.com' });
    expect(new Set(stored.map((message) => message.mailMessageId)).size).toBe(6);
  });

  it('threads each mail: the subject carries the issue tag, In-Reply-To the message before, References the thread', async () => {
    const issue = await openIssue({
      title: 'Battery alarm at Site 4',
      source: 'incoming-email',
      replyHeaders: { messageId: '<first@outside.example>', references: ['<root@outside.example>'] },
    });
    const issueHashId = hashIds.encode('issue', issue.id);
    const first = await addMessage(issue.id, { message: 'We are on it.', to: ['thread@example.com'] });
    const second = await addMessage(issue.id, { message: 'Fixed.', to: ['thread@example.com'] });
    const { mailer, mail } = mailerOfANode();
    try {
      await mailer.runOnce();
    } finally {
      mail.close();
    }
    const stored = await IssueMessageModel.query(database.db).whereIn('id', [first.id, second.id]).orderBy('id');
    const [firstId, secondId] = stored.map((message) => message.mailMessageId);
    expect(firstId).toMatch(/^<[0-9a-f-]{36}@gridport\.test>$/);
    const [one, two] = mailsTo('thread@example.com').map((received) => received.parsed);
    expect(one).toMatchObject({
      subject: `Battery alarm at Site 4 [#${issueHashId}]`,
      messageId: firstId,
      inReplyTo: '<first@outside.example>',
      references: ['<root@outside.example>', '<first@outside.example>'],
    });
    expect(two).toMatchObject({
      subject: `Battery alarm at Site 4 [#${issueHashId}]`,
      messageId: secondId,
      inReplyTo: firstId,
      references: ['<root@outside.example>', '<first@outside.example>', firstId],
    });
    expect(one?.from?.value).toEqual([{ address: 'support@gridport.test', name: 'Gridport Support' }]);
  });

  it('tells subscribers of each new message once, never its author, and of internal messages only staff', async () => {
    const customerOrganization = await buildOrganization(services);
    const staff = await buildUser(services, { rights: ['gridport.ops'], email: 'sub-staff@example.com' });
    const author = await buildUser(services, { rights: ['gridport.ops'], email: 'sub-author@example.com' });
    const customer = await buildUser(services, {
      organizationHashId: customerOrganization.hashId,
      rights: ['customer.read'],
      email: 'sub-customer@example.com',
    });
    const issue = await openIssue({ title: 'Meter silent', organizationId: customerOrganization.id });
    await IssueSubscriberModel.query(database.db).insert([staff, author, customer].map((user) => ({ issueId: issue.id, userId: user.id })));

    const publicMessage = await addMessage(issue.id, { message: 'Looking into it.', userId: author.id });
    const internal = await addMessage(issue.id, { message: 'The modem again.', userId: author.id, isInternal: true });
    const fromMail = await addMessage(issue.id, {
      source: 'incoming-email',
      message: 'Any news?',
      mailMessageId: '<news@customer.example>',
      emailHeaders: {
        from: 'Ann <ann@customer.example>',
        to: [],
        cc: [],
        subject: 'Any news?',
        messageId: '<news@customer.example>',
        inReplyTo: null,
        references: [],
        date: null,
      },
    });
    const { mailer, mail } = mailerOfANode(peer.url, 20);
    try {
      expect((await mailer.runOnce()).notified).toBeGreaterThanOrEqual(3);
      expect(await mailer.runOnce()).toEqual({ sent: 0, notified: 0 });
    } finally {
      mail.close();
    }

    const issueHashId = hashIds.encode('issue', issue.id);
    // The author hears only of what others wrote.
    expect(mailsTo('sub-author@example.com').map((received) => received.parsed.text?.split('\n')[0])).toEqual(['Ann <ann@customer.example> wrote:']);
    expect(mailsTo('sub-staff@example.com').map((received) => received.parsed.text?.split('\n')[0])).toEqual([
      `${author.name} wrote:`,
      `${author.name} wrote (internal):`,
      'Ann <ann@customer.example> wrote:',
    ]);
    expect(mailsTo('sub-customer@example.com').map((received) => received.parsed.text?.split('\n')[2])).toEqual(['Looking into it.', 'Any news?']);
    expect(mailsTo('sub-staff@example.com')[0]?.parsed.text).toContain(`${publicUrl}/admin/issues/${issueHashId}`);
    // Autoresponders leave notifications unanswered (RFC 3834).
    expect(mailsTo('sub-staff@example.com')[0]?.parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mailsTo('sub-customer@example.com')[0]?.parsed.text).toContain(`${publicUrl}/issues/${issueHashId}`);

    const stored = await IssueMessageModel.query(database.db).whereIn('id', [publicMessage.id, internal.id, fromMail.id]).orderBy('id');
    expect(stored.every((message) => message.subscribersNotifiedAt instanceof Date)).toBe(true);
    // Every mail about a message carries its Message-ID, so that a reply to any of them finds the issue.
    expect(mailsTo('sub-customer@example.com').map((received) => received.parsed.messageId)).toEqual([stored[0]?.mailMessageId, '<news@customer.example>']);
    expect(mailsTo('sub-customer@example.com')[1]?.parsed.inReplyTo).toBe(stored[1]?.mailMessageId);
  });

  it('tells a subscriber nothing of an issue they may no longer see', async () => {
    const organization = await buildOrganization(services);
    const elsewhere = await buildOrganization(services);
    const customer = await buildUser(services, { organizationHashId: organization.hashId, rights: ['customer.read'], email: 'gone-customer@example.com' });
    const stranger = await buildUser(services, { organizationHashId: elsewhere.hashId, rights: ['customer.read'], email: 'gone-stranger@example.com' });
    const staff = await buildUser(services, { rights: ['gridport.employee'], email: 'gone-staff@example.com' });
    const issue = await openIssue({ title: 'Turned internal', organizationId: organization.id });
    await IssueSubscriberModel.query(database.db).insert([customer, stranger, staff].map((user) => ({ issueId: issue.id, userId: user.id })));
    const { mailer, mail } = mailerOfANode(peer.url, 20);
    try {
      await addMessage(issue.id, { message: 'Before' });
      await mailer.runOnce();
      await database.db('issues').update({ internal: true }).where('id', issue.id);
      await addMessage(issue.id, { message: 'After' });
      await mailer.runOnce();
    } finally {
      mail.close();
    }
    // Before it turned internal the customer of its organisation heard of it; the customer of another never did.
    const said = (address: string) => mailsTo(address).map((received) => received.parsed.text?.split('\n')[2]);
    expect(said('gone-customer@example.com')).toEqual(['Before']);
    expect(said('gone-stranger@example.com')).toEqual([]);
    expect(said('gone-staff@example.com')).toEqual(['Before', 'After']);
  });

  it('leaves a message another node has claimed until that claim runs out', async () => {
    const issue = await openIssue();
    const message = await addMessage(issue.id, { message: 'Claimed elsewhere', to: ['claimed@example.com'] });
    await database
      .db('issue_messages')
      .update({ mail_claimed_until: database.db.raw("now() + interval '1 minute'") })
      .where('id', message.id);
    const { mailer, mail } = mailerOfANode();
    try {
      await mailer.runOnce();
      expect(mailsTo('claimed@example.com')).toEqual([]);
      expect(await IssueMessageModel.query(database.db).findById(message.id)).toMatchObject({ mailState: 'pending', subscribersNotifiedAt: null });

      // The node that claimed it died: its claim runs out, and this node takes the message over.
      await database
        .db('issue_messages')
        .update({ mail_claimed_until: database.db.raw("now() - interval '1 second'") })
        .where('id', message.id);
      await mailer.runOnce();
    } finally {
      mail.close();
    }
    expect(mailsTo('claimed@example.com')).toHaveLength(1);
    expect(await IssueMessageModel.query(database.db).findById(message.id)).toMatchObject({ mailState: 'sent', mailClaimedUntil: null });
  });

  it('tries a message again later when the outgoing server says so (4xx), and gives up after the retry time', async () => {
    const issue = await openIssue({ title: 'Busy' });
    const message = await addMessage(issue.id, { message: 'Later, please', to: ['ops@busy.example'] });
    const { mailer, mail } = mailerOfANode();
    try {
      peer.busy = true;
      await mailer.runOnce();
      const waiting = await IssueMessageModel.query(database.db).findById(message.id);
      expect(waiting).toMatchObject({ mailState: 'pending' });
      expect(await database.db('mails').where('message_id', waiting?.mailMessageId).select('status')).toEqual([{ status: 'failed' }]);
      // Its claim holds it for the retry time: a pass meanwhile leaves it alone.
      await mailer.runOnce();
      expect(await database.db('mails').where('message_id', waiting?.mailMessageId)).toHaveLength(1);

      peer.busy = false;
      await database
        .db('issue_messages')
        .update({ mail_claimed_until: database.db.raw("now() - interval '1 second'") })
        .where('id', message.id);
      await mailer.runOnce();
      expect(await IssueMessageModel.query(database.db).findById(message.id)).toMatchObject({ mailState: 'sent', mailMessageId: waiting?.mailMessageId });
      expect(mailsTo('ops@busy.example').map((received) => received.parsed.messageId)).toEqual([waiting?.mailMessageId]);

      // A message older than the retry time fails for good at its next 4xx.
      peer.busy = true;
      const old = await addMessage(issue.id, { message: 'Too late', to: ['old@busy.example'] });
      await database
        .db('issue_messages')
        .update({ created_at: database.db.raw("now() - interval '2 hours'") })
        .where('id', old.id);
      await mailer.runOnce();
      expect(await IssueMessageModel.query(database.db).findById(old.id)).toMatchObject({ mailState: 'failed' });
    } finally {
      peer.busy = true;
      mail.close();
    }
  });

  it('records a mail the outgoing server refuses as failed, and keeps mail in the database without SMTP_URL', async () => {
    const issue = await openIssue({ title: 'Kept' });
    const refused = await addMessage(issue.id, { message: 'Nobody home', to: ['someone@refused.example'] });
    const node = mailerOfANode();
    try {
      await node.mailer.runOnce();
    } finally {
      node.mail.close();
    }
    expect(await IssueMessageModel.query(database.db).findById(refused.id)).toMatchObject({ mailState: 'failed' });

    const kept = await addMessage(issue.id, { message: 'Into the table', to: ['kept@example.com'], cc: ['kept-cc@example.com'] });
    await mailerOfANode(null).mailer.runOnce();
    const stored = await IssueMessageModel.query(database.db).findById(kept.id);
    expect(stored).toMatchObject({ mailState: 'sent' });
    const row = await database.db('mails').where('message_id', stored?.mailMessageId).first();
    expect(row).toMatchObject({
      status: 'kept',
      to: ['kept@example.com'],
      cc: ['kept-cc@example.com'],
      subject: `Kept [#${hashIds.encode('issue', issue.id)}]`,
      in_reply_to: (await IssueMessageModel.query(database.db).findById(refused.id))?.mailMessageId,
    });
  });
});
