import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTransport, type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Mail, MailReceipt, OutgoingMail } from '../../../contracts/mail';
import type { Actor } from '../../common/context';
import { authorize } from '../../common/context';
import type { HashIds } from '../../common/hash-ids';
import { MailModel } from '../models/mail.model';

export interface MailSettings {
  /** smtp:// or smtps:// URL of the outgoing server; null keeps mail in the database and the log. */
  smtpUrl: string | null;
  /** The From of every mail. */
  from: string;
  /** Where people reach the console, for links in mail. */
  publicUrl: string;
}

/** What became of one mail: its receipt, the Message-ID it went out with, and why it failed. */
export interface MailDelivery extends MailReceipt {
  messageId: string;
  error: string | null;
  /** A failure that may pass (the server unreachable, or a 4xx answer): trying again later may succeed. */
  temporary: boolean;
}

/** Whether a sending error may pass: a 4xx answer, or no answer at all (the server unreachable, the connection lost). */
function isTemporary(error: unknown): boolean {
  const responseCode = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof responseCode === 'number' ? responseCode >= 400 && responseCode < 500 : true;
}

/** The domain of the From address (`Gridport <no-reply@gridport.example>`), which Message-IDs are made under. */
function fromDomain(from: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from);
  return match?.[1] ?? 'gridport.invalid';
}

/**
 * Outgoing mail (spec README, "Email"). Every mail is first written to the database, then sent
 * over SMTP when a server is configured; without one it stays there ("kept") and is logged, so
 * nothing is lost and tests can read it. A mail the server refuses is kept as "failed" with the
 * reason.
 */
export class MailService {
  private readonly transport: Transporter | null;

  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly settings: MailSettings,
    private readonly log: Logger,
  ) {
    this.transport = settings.smtpUrl ? createTransport(settings.smtpUrl) : null;
  }

  /** An absolute link to a console page, for a mail. */
  link(pathAndQuery: string): string {
    return `${this.settings.publicUrl}${pathAndQuery}`;
  }

  /** A new Message-ID under the From address's domain, angle brackets included. */
  newMessageId(): string {
    return `<${randomUUID()}@${fromDomain(this.settings.from)}>`;
  }

  /** Sends a mail on Gridport's behalf (password resets, invites, alarms). */
  async send(mail: OutgoingMail): Promise<MailReceipt> {
    const { mailHashId, status } = await this.deliver(mail);
    return { mailHashId, status };
  }

  /**
   * Sends a mail and says how it went, with the Message-ID it carries (the one given, or a new
   * one): the mail is written to the mails table first, with its threading headers.
   */
  async deliver(mail: OutgoingMail): Promise<MailDelivery> {
    const messageId = mail.messageId ?? this.newMessageId();
    const cc = mail.cc ?? [];
    const references = mail.references ?? [];
    const row = await MailModel.query(this.db).insertAndFetch({
      to: mail.to,
      cc,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      messageId,
      inReplyTo: mail.inReplyTo ?? null,
      references,
      status: this.transport ? 'sending' : 'kept',
      error: null,
      sentAt: null,
    });
    const mailHashId = this.hashIds.encode('mail', row.id);
    if (!this.transport) {
      this.log.info({ mailHashId, to: mail.to, cc, subject: mail.subject, messageId, text: mail.text }, 'mail kept (no SMTP_URL configured)');
      return { mailHashId, status: 'kept', messageId, error: null, temporary: false };
    }
    try {
      await this.transport.sendMail({
        from: this.settings.from,
        to: mail.to,
        cc,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId,
        ...(mail.inReplyTo === undefined ? {} : { inReplyTo: mail.inReplyTo }),
        ...(references.length === 0 ? {} : { references }),
        ...(mail.automatic ? { headers: { 'Auto-Submitted': 'auto-generated' } } : {}),
      });
      await MailModel.query(this.db).patch({ status: 'sent', sentAt: new Date() }).where('id', row.id);
      return { mailHashId, status: 'sent', messageId, error: null, temporary: false };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await MailModel.query(this.db).patch({ status: 'failed', error: reason }).where('id', row.id);
      this.log.error({ mailHashId, to: mail.to, cc, err: error }, 'mail could not be sent');
      return { mailHashId, status: 'failed', messageId, error: reason, temporary: isTemporary(error) };
    }
  }

  /** POST /console-admin/v1/mail: a test mail from an operator. */
  async sendTest(actor: Actor, mail: Mail): Promise<MailReceipt> {
    authorize(actor, 'mail.sendTest');
    return this.send(mail);
  }

  close(): void {
    this.transport?.close();
  }
}
