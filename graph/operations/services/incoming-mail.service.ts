import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { fileLimits } from '../../../contracts/file';
import {
  issueMailLimits,
  issueSubjectTagPattern,
  type IncomingAttachment,
  type IncomingMail,
  type IncomingMailReceipt,
  type MailAddress,
} from '../../../contracts/issue-mail';
import { systemActor } from '../../common/context';
import type { HashIds } from '../../common/hash-ids';
import { write, type Write } from '../../common/write';
import type { DirectoryUser, IdentityDirectory } from '../../identity/services/directory.service';
import { FileModel } from '../models/file.model';
import { IssueModel, type NonUserParticipant } from '../models/issue.model';
import { IssueMessageModel, type EmailHeaders } from '../models/issue-message.model';
import type { IssueJournal } from './issue-journal';
import type { FileService } from './file.service';
import type { IssueService } from './issue.service';

const actor = systemActor('incoming mail');

/** Every `<id>` in a header's text (In-Reply-To may name more than one). */
function messageIdsIn(text: string | null): string[] {
  return text === null ? [] : (text.match(/<[^<>\s]+>/g) ?? []);
}

function formatAddress(person: MailAddress): string {
  return person.name ? `${person.name} <${person.address}>` : person.address;
}

/** A mail's subject as an issue's title: trimmed, one line, at most 256 characters, never empty. */
function titleOf(mail: IncomingMail): string {
  const subject = mail.subject.replace(/\s+/g, ' ').trim();
  const title = subject === '' ? `Mail from ${mail.from.address}` : subject;
  return title.length > issueMailLimits.titleLength ? `${title.slice(0, issueMailLimits.titleLength - 1)}…` : title;
}

interface AttachmentPlan {
  kept: IncomingAttachment[];
  /** What the message says about each file left out. */
  skipped: string[];
}

/**
 * Which files of a mail are kept: those an upload would take (the allowed types, checked by their
 * bytes), at most 10; the rest are named in the message with the reason.
 */
function planAttachments(attachments: readonly IncomingAttachment[], files: FileService): AttachmentPlan {
  const kept: IncomingAttachment[] = [];
  const skipped: string[] = [];
  attachments.forEach((attachment, index) => {
    const name = attachment.filename ?? `attachment ${index + 1}`;
    const contentType = attachment.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    const refusal = files.refusal(contentType, Buffer.from(attachment.content));
    if (refusal !== null) {
      skipped.push(`${name} (${refusal})`);
    } else if (kept.length >= fileLimits.filesPerMessage) {
      skipped.push(`${name} (a message keeps at most ${fileLimits.filesPerMessage} files)`);
    } else {
      kept.push({ ...attachment, contentType });
    }
  });
  return { kept, skipped };
}

/** The message a mail becomes: its text (cut at the limit), and a word on the files left out. */
function messageText(mail: IncomingMail, plan: AttachmentPlan): string {
  let text = mail.text.trim();
  if (text.length > issueMailLimits.messageLength) {
    text = `${text.slice(0, issueMailLimits.messageLength)}\n\n(The mail was cut here: it was longer than ${issueMailLimits.messageLength.toLocaleString('en')} characters.)`;
  }
  if (text === '') {
    text = '(The mail had no text.)';
  }
  if (plan.skipped.length > 0) {
    text += `\n\n(Files of the mail not kept: ${plan.skipped.join('; ')}.)`;
  }
  return text;
}

/**
 * Mail that reaches Gridport's SMTP receiver (spec README, "Operations": incoming mail). A mail
 * whose In-Reply-To or References names a message of an issue (or the mail that opened it), or
 * whose subject carries `[#<issue hashId>]`, is added to that issue as an `incoming-email`
 * message; any other mail opens an issue. The same Message-ID delivered twice is taken once. A
 * mail a machine wrote (an out-of-office answer) is kept without telling the subscribers.
 */
export class IncomingMailService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly journal: IssueJournal,
    private readonly directory: IdentityDirectory,
    private readonly files: FileService,
    private readonly issues: Pick<IssueService, 'userMaySee' | 'awaitAnswer'>,
  ) {}

  async receive(mail: IncomingMail): Promise<IncomingMailReceipt> {
    return write(this.db, actor, async (w) => {
      if (mail.messageId !== null) {
        // Two deliveries of one mail at once (on two nodes) wait for each other here; the second then finds the first.
        await w.trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`incoming-mail:${mail.messageId}`]);
        const taken = await IssueMessageModel.query(w.trx).where('mail_message_id', mail.messageId).orderBy('id').first();
        if (taken) {
          return { outcome: 'duplicate', issueHashId: this.hashIds.encode('issue', taken.issueId), attachmentsKept: 0, attachmentsSkipped: 0 };
        }
      }
      const user = await this.directory.userByEmail(w.trx, mail.from.address);
      const plan = planAttachments(mail.attachments, this.files);
      const found = await this.issueAnswered(w.trx, mail);
      // A user writes as themselves only to an issue they may see; to another they are a participant by their address, as anyone.
      const sender = user && found && !(await this.issues.userMaySee(user, found, w.trx)) ? null : user;
      const issue = found ?? (await this.openIssue(w, mail, sender));
      if (found && !sender) {
        await this.addParticipant(w.trx, found, mail.from);
      }
      const message = await this.journal.addMessage(w, issue.id, {
        source: 'incoming-email',
        message: messageText(mail, plan),
        userId: sender?.id ?? null,
        emailHeaders: this.headersOf(mail),
        mailMessageId: mail.messageId,
      });
      if (mail.automatic) {
        await IssueMessageModel.query(w.trx).patch({ subscribersNotifiedAt: new Date() }).where('id', message.id);
      } else if (found) {
        await this.issues.awaitAnswer(w, found, mail.from.name ?? mail.from.address);
      }
      for (const attachment of plan.kept) {
        const name = (attachment.filename ?? 'attachment').slice(0, fileLimits.nameLength);
        await FileModel.query(w.trx).insert({
          identifier: randomUUID(),
          name,
          contentType: attachment.contentType,
          size: attachment.content.byteLength,
          storage: 'database',
          content: Buffer.from(attachment.content),
          storageKey: null,
          uploadedByUserId: sender?.id ?? null,
          organizationId: issue.organizationId,
          issueMessageId: message.id,
        });
      }
      return {
        outcome: found ? 'added' : 'opened',
        issueHashId: this.hashIds.encode('issue', issue.id),
        attachmentsKept: plan.kept.length,
        attachmentsSkipped: plan.skipped.length,
      };
    });
  }

  /** The issue a mail answers: by its reply headers (In-Reply-To first, then References from the latest), else by its subject's tag. */
  private async issueAnswered(trx: Knex.Transaction, mail: IncomingMail): Promise<IssueModel | null> {
    const named = [...messageIdsIn(mail.inReplyTo), ...[...mail.references].reverse()];
    if (named.length > 0) {
      const messages = await IssueMessageModel.query(trx).whereIn('mail_message_id', named).select('issue_id', 'mail_message_id');
      const opened = await IssueModel.query(trx).whereIn(trx.raw("reply_headers->>'messageId'"), named).select('id', 'reply_headers');
      const issueOf = new Map<string, number>();
      for (const row of opened) {
        if (row.replyHeaders.messageId) {
          issueOf.set(row.replyHeaders.messageId, row.id);
        }
      }
      for (const row of messages) {
        if (row.mailMessageId) {
          issueOf.set(row.mailMessageId, row.issueId);
        }
      }
      const issueId = named.map((id) => issueOf.get(id)).find((id) => id !== undefined);
      if (issueId !== undefined) {
        const issue = await IssueModel.query(trx).findById(issueId);
        if (issue) {
          return issue;
        }
      }
    }
    const tag = issueSubjectTagPattern.exec(mail.subject)?.[1];
    const issueId = tag === undefined ? null : this.hashIds.decode('issue', tag);
    return issueId === null ? null : ((await IssueModel.query(trx).findById(issueId)) ?? null);
  }

  /** A new issue from a mail that answers none: the sender's organisation when the sender is a user, else none. */
  private async openIssue(w: Write, mail: IncomingMail, sender: DirectoryUser | null): Promise<IssueModel> {
    return this.journal.open(w, {
      title: titleOf(mail),
      source: 'incoming-email',
      organizationId: sender?.organizationId ?? null,
      // Mail reaches the provider's mailbox, so the provider handles what it opens, and owes an answer now.
      gridportIssueOwner: true,
      nextActivityDueAt: new Date(),
      nonUserParticipants: sender ? [] : [{ email: mail.from.address, name: mail.from.name }],
      replyHeaders: {
        ...(mail.messageId === null ? {} : { messageId: mail.messageId }),
        references: mail.references,
      },
    });
  }

  /** Adds a sender who is no user to the issue's non-user participants, once (emails compared regardless of case). */
  private async addParticipant(trx: Knex.Transaction, issue: IssueModel, from: MailAddress): Promise<void> {
    const known = issue.nonUserParticipants.some((participant) => participant.email.toLowerCase() === from.address.toLowerCase());
    if (known) {
      return;
    }
    const nonUserParticipants: NonUserParticipant[] = [...issue.nonUserParticipants, { email: from.address, name: from.name }];
    await IssueModel.query(trx).patch({ nonUserParticipants }).where('id', issue.id);
  }

  private headersOf(mail: IncomingMail): EmailHeaders {
    return {
      from: formatAddress(mail.from),
      to: mail.to.map(formatAddress),
      cc: mail.cc.map(formatAddress),
      subject: mail.subject,
      messageId: mail.messageId,
      inReplyTo: mail.inReplyTo,
      references: mail.references,
      date: mail.date,
    };
  }
}
