import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { issueMailLimits, issueMailSubject } from '../../../contracts/issue-mail';
import { hasAnyRight, type Right } from '../../../contracts/rights';
import type { HashIds } from '../../common/hash-ids';
import type { DirectoryUser, IdentityDirectory } from '../../identity/services/directory.service';
import { IssueModel, IssueSubscriberModel } from '../models/issue.model';
import { IssueMessageModel } from '../models/issue-message.model';
import type { MailService } from './mail.service';
import type { IssueService } from './issue.service';

export interface IssueMailerSettings {
  /** How long a node may take to mail about the messages it claimed before another may take them over, in seconds. */
  claimSeconds: number;
  /** Messages claimed at a time. */
  batchSize: number;
  /** After a failure that may pass (the SMTP server away, a 4xx), seconds until the message is tried again. */
  retrySeconds: number;
  /** How long after its writing a message is tried again at most, in seconds; then it is failed. */
  retryForSeconds: number;
}

export const defaultIssueMailerSettings: IssueMailerSettings = { claimSeconds: 15 * 60, batchSize: 20, retrySeconds: 5 * 60, retryForSeconds: 24 * 60 * 60 };

/** A mail's threading headers within its issue's thread. */
export interface ThreadHeaders {
  messageId: string;
  inReplyTo: string | undefined;
  references: string[];
}

/** What one pass did: messages mailed to their to and cc, and messages whose subscribers were told. */
export interface IssueMailPass {
  sent: number;
  notified: number;
}

type Job = 'recipients' | 'subscribers';

/**
 * Issue mail out (docs/operations.md, "Mail in and out"): every message written with `to` or `cc`
 * (mail state `pending`) is mailed to them once, and every new message is mailed once to the
 * issue's subscribers who may see it but its author (internal messages to staff only). Each mail threads: the
 * message's Message-ID (kept in `mail_message_id`, so a reply finds the issue), In-Reply-To the
 * message before it, References the thread, and the subject `<title> [#<hashId>]`.
 *
 * Any number of nodes run this at once: a node claims messages for a while (`mail_claimed_until`,
 * taken with FOR UPDATE SKIP LOCKED), mails about them, and records what it did; a node that dies
 * meanwhile leaves its claims to run out, and another node takes them over.
 */
export class IssueMailer {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly mail: MailService,
    private readonly directory: IdentityDirectory,
    private readonly issues: Pick<IssueService, 'userMaySee'>,
    private readonly log: Logger,
    private readonly settings: IssueMailerSettings = defaultIssueMailerSettings,
  ) {}

  /** Mails everything waiting, batch after batch, until nothing unclaimed waits. */
  async runOnce(): Promise<IssueMailPass> {
    const pass: IssueMailPass = { sent: 0, notified: 0 };
    for (;;) {
      const sent = await this.sendPending();
      const notified = await this.notifySubscribers();
      pass.sent += sent;
      pass.notified += notified;
      if (sent < this.settings.batchSize && notified < this.settings.batchSize) {
        return pass;
      }
    }
  }

  /** Mails one batch of pending messages to their to and cc; answers how many it took. */
  async sendPending(): Promise<number> {
    const ids = await this.claim('recipients');
    for (const id of ids) {
      await this.settle(id, () => this.sendToRecipients(id));
    }
    return ids.length;
  }

  /** Tells the subscribers of one batch of new messages; answers how many messages it took. */
  async notifySubscribers(): Promise<number> {
    const ids = await this.claim('subscribers');
    for (const id of ids) {
      await this.settle(id, () => this.notify(id));
    }
    return ids.length;
  }

  /** Claims up to a batch of messages waiting for `job` that no node holds (rows another transaction locks are skipped). */
  private async claim(job: Job): Promise<number[]> {
    return this.db.transaction(async (trx) => {
      const waiting = IssueMessageModel.query(trx)
        .select('id')
        .where((query) => {
          void query.whereNull('mail_claimed_until').orWhere('mail_claimed_until', '<', trx.fn.now());
        })
        .orderBy('id')
        .limit(this.settings.batchSize)
        .forUpdate()
        .skipLocked();
      if (job === 'recipients') {
        void waiting.where('mail_state', 'pending');
      } else {
        void waiting.whereNull('subscribers_notified_at');
      }
      const ids = (await waiting).map((row) => row.id);
      if (ids.length > 0) {
        await trx('issue_messages')
          .update({ mail_claimed_until: trx.raw('now() + make_interval(secs => ?)', [this.settings.claimSeconds]) })
          .whereIn('id', ids);
      }
      return ids;
    });
  }

  /** Runs one message's job; a failure leaves the claim to run out (another pass takes it up then) and is logged. */
  private async settle(id: number, job: () => Promise<void>): Promise<void> {
    try {
      await job();
    } catch (error) {
      this.log.error({ err: error, issueMessageId: id }, 'issue mail: a message could not be mailed; it is tried again when its claim runs out');
    }
  }

  private async sendToRecipients(id: number): Promise<void> {
    const found = await this.messageAndIssue(id);
    if (!found) {
      return;
    }
    const { message, issue } = found;
    const thread = await this.threadHeaders(issue, message);
    const issueHashId = this.hashIds.encode('issue', issue.id);
    const delivery = await this.mail.deliver({
      to: message.to,
      cc: message.cc,
      subject: issueMailSubject(issue.title, issueHashId),
      text: `${message.message}\n\n--\nReply to this mail to answer; your reply is added to the issue [#${issueHashId}].`,
      messageId: thread.messageId,
      ...(thread.inReplyTo === undefined ? {} : { inReplyTo: thread.inReplyTo }),
      references: thread.references,
    });
    const retry = delivery.status === 'failed' && delivery.temporary && Date.now() - message.createdAt.getTime() < this.settings.retryForSeconds * 1000;
    if (retry) {
      // Still pending: the claim, set ahead by the wait, keeps every node off it until then.
      this.log.warn(
        { issueMessageId: id, reason: delivery.error },
        `issue mail: the SMTP server did not take the message; it is tried again in ${this.settings.retrySeconds} s`,
      );
      await this.db('issue_messages')
        .update({ mail_claimed_until: this.db.raw('now() + make_interval(secs => ?)', [this.settings.retrySeconds]) })
        .where('id', id);
      return;
    }
    await IssueMessageModel.query(this.db)
      .patch({ mailState: delivery.status === 'failed' ? 'failed' : 'sent', mailClaimedUntil: null })
      .where('id', id);
  }

  private async notify(id: number): Promise<void> {
    const found = await this.messageAndIssue(id);
    if (!found) {
      return;
    }
    const { message, issue } = found;
    const subscriberIds = (await IssueSubscriberModel.query(this.db).where('issue_id', issue.id).select('user_id')).map((row) => row.userId);
    const people = await this.directory.users(this.db, [...subscriberIds, ...(message.userId === null ? [] : [message.userId])]);
    const addressed = new Set([...message.to, ...message.cc].map((email) => email.toLowerCase()));
    const readers: DirectoryUser[] = [];
    for (const user of subscriberIds.map((userId) => people.get(userId))) {
      // Not the author, nor those the message is addressed to (they have it already); internal messages to staff only.
      if (!user || user.id === message.userId || addressed.has(user.email.toLowerCase())) {
        continue;
      }
      if (message.isInternal && !hasAnyRight(user.rights as Right[], ['gridport.employee'])) {
        continue;
      }
      // A subscriber who may no longer see the issue (it turned internal, its device went elsewhere) is told nothing.
      if (await this.issues.userMaySee(user, issue, this.db)) {
        readers.push(user);
      }
    }
    if (readers.length > 0) {
      const thread = await this.threadHeaders(issue, message);
      const issueHashId = this.hashIds.encode('issue', issue.id);
      const author = message.userId === null ? null : people.get(message.userId);
      const who = author?.name ?? message.emailHeaders?.from ?? (message.source === 'monitoring' ? 'Gridport monitoring' : 'Gridport');
      for (const reader of readers) {
        const staff = hasAnyRight(reader.rights as Right[], ['gridport.employee']);
        const link = this.mail.link(`${staff ? '/admin' : ''}/issues/${issueHashId}`);
        await this.mail.deliver({
          to: [reader.email],
          subject: issueMailSubject(issue.title, issueHashId),
          text:
            `${who} wrote${message.isInternal ? ' (internal)' : ''}:\n\n${message.message}\n\n--\n` +
            `Open the issue: ${link}\nYou get this mail because you follow the issue; reply to it to answer.`,
          automatic: true,
          messageId: thread.messageId,
          ...(thread.inReplyTo === undefined ? {} : { inReplyTo: thread.inReplyTo }),
          references: thread.references,
        });
      }
    }
    await IssueMessageModel.query(this.db).patch({ subscribersNotifiedAt: new Date(), mailClaimedUntil: null }).where('id', id);
  }

  private async messageAndIssue(id: number): Promise<{ message: IssueMessageModel; issue: IssueModel } | null> {
    const message = await IssueMessageModel.query(this.db).findById(id);
    const issue = message ? await IssueModel.query(this.db).findById(message.issueId) : undefined;
    return message && issue ? { message, issue } : null;
  }

  /**
   * The message's place in its issue's mail thread. Its Message-ID is given once and kept (every
   * mail about the message carries the same one, so a reply to any of them finds the issue);
   * In-Reply-To is the latest earlier message that has one, else the mail that opened the issue;
   * References are the mail that opened the issue, its own references, and the earlier messages.
   */
  async threadHeaders(issue: IssueModel, message: IssueMessageModel): Promise<ThreadHeaders> {
    let messageId = message.mailMessageId;
    if (messageId === null) {
      await IssueMessageModel.query(this.db).patch({ mailMessageId: this.mail.newMessageId() }).where('id', message.id).whereNull('mail_message_id');
      const stored = await IssueMessageModel.query(this.db).findById(message.id).select('mail_message_id');
      messageId = stored?.mailMessageId ?? null;
      if (messageId === null) {
        throw new Error(`issue message ${message.id} has no Message-ID after one was given`);
      }
    }
    const earlier = (
      await IssueMessageModel.query(this.db)
        .where('issue_id', issue.id)
        .where('id', '<', message.id)
        .whereNotNull('mail_message_id')
        .orderBy('id')
        .select('mail_message_id')
    ).map((row) => row.mailMessageId as string);
    const opening = issue.replyHeaders.messageId;
    const thread = [...new Set([...(issue.replyHeaders.references ?? []), ...(opening ? [opening] : []), ...earlier])].filter((id) => id !== messageId);
    const references = thread.length > issueMailLimits.referencesSent ? [thread[0] as string, ...thread.slice(-(issueMailLimits.referencesSent - 1))] : thread;
    return { messageId, inReplyTo: thread.at(-1), references };
  }
}
