import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import { issueMailLimits, type IncomingMail, type MailAddress } from '../contracts/issue-mail';
import { emailSchema } from '../contracts/user';
import type { IncomingMailService } from '../graph/operations/services/incoming-mail.service';
import type { Logger } from './logger';

/** SMTP_INBOUND_PORT and SMTP_INBOUND_HOST (docs/operations.md, "Mail in and out"). */
export interface SmtpReceiverSettings {
  port: number;
  host: string;
  /** The server's own certificate (TLS_CERT_FILE, TLS_KEY_FILE): offered with STARTTLS; without it STARTTLS is not offered. */
  tls: { certificatePem: string; privateKeyPem: string } | null;
}

export interface SmtpReceiver {
  /** The port it listens on (the one given, or the one the system chose for 0). */
  port: number;
  /** Stops taking connections and waits for those open (up to 10 s) to end. */
  close(): Promise<void>;
}

/** An SMTP reply with its code. */
class SmtpRefusal extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** The longest Message-ID kept (RFC 5322's line limit; the column's size). */
const messageIdLength = 998;
const closeTimeoutMs = 10_000;
/** Connections at once: each may hold a mail of up to 25 MB in memory; the next is told to come back (421), as SMTP senders do. */
export const smtpReceiverMaxClients = 20;

/** Text as PostgreSQL keeps it: without NUL characters, which neither its text nor its jsonb can hold. */
const storable = (text: string): string => text.replaceAll('\u0000', '');

function addresses(field: AddressObject | AddressObject[] | undefined): MailAddress[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects
    .flatMap((object) => object.value)
    .flatMap((entry) => (entry.group ? entry.group : [entry]))
    .filter((entry) => entry.address !== undefined && entry.address !== '')
    .map((entry) => ({ address: storable(entry.address ?? ''), name: entry.name ? storable(entry.name) : null }));
}

const messageIdOf = (text: string | undefined): string | null => {
  const id = storable(text ?? '').trim();
  return id === '' || id.length > messageIdLength ? null : id;
};

/** A header's text, whether mailparser kept it as text or as a structured value. */
function headerText(parsed: ParsedMail, name: string): string | null {
  const value = parsed.headers.get(name);
  if (typeof value === 'string') {
    return value;
  }
  if (value !== null && typeof value === 'object' && 'value' in value && typeof value.value === 'string') {
    return value.value;
  }
  return null;
}

/** Whether a machine wrote the mail (RFC 3834 Auto-Submitted, or the Precedence that autoresponders and lists use). */
function isAutomatic(parsed: ParsedMail): boolean {
  const autoSubmitted = headerText(parsed, 'auto-submitted')?.trim().toLowerCase();
  const precedence = headerText(parsed, 'precedence')?.trim().toLowerCase();
  return (autoSubmitted !== undefined && autoSubmitted !== 'no') || ['bulk', 'junk', 'list', 'auto_reply'].includes(precedence ?? '');
}

/**
 * A parsed mail as the incoming-mail service takes it; a mail without a sender (no From, or one that
 * is not an address) is refused, as RFC 5322 requires one.
 */
export function incomingMailOf(parsed: ParsedMail): IncomingMail {
  const [from] = addresses(parsed.from);
  if (from === undefined || !emailSchema.isValidSync(from.address)) {
    throw new SmtpRefusal(550, '5.6.0 The mail has no From address Gridport can read');
  }
  const references = (Array.isArray(parsed.references) ? parsed.references : parsed.references === undefined ? [] : parsed.references.split(/\s+/))
    .map((id) => storable(id).trim())
    .filter((id) => id !== '' && id.length <= messageIdLength);
  return {
    from,
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    subject: storable(parsed.subject ?? ''),
    messageId: messageIdOf(parsed.messageId),
    inReplyTo: messageIdOf(parsed.inReplyTo),
    references,
    date: parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.toISOString() : null,
    text: storable(parsed.text ?? ''),
    automatic: isAutomatic(parsed),
    attachments: parsed.attachments.map((attachment) => ({
      filename: attachment.filename ? storable(attachment.filename) : null,
      contentType: attachment.contentType,
      content: attachment.content,
    })),
  };
}

/** Reads the mail of one DATA command, up to the limit (what lies beyond is drained, not kept). */
function readMail(stream: SMTPServerDataStream): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= issueMailLimits.inboundMailBytes) {
        chunks.push(chunk);
      }
    });
    stream.on('error', reject);
    stream.on('end', () => resolve(stream.sizeExceeded || size > issueMailLimits.inboundMailBytes ? null : Buffer.concat(chunks)));
  });
}

/**
 * Gridport's SMTP receiver (spec README, "Operations": incoming mail): it takes mail for any
 * recipient, up to 25 MB and 20 connections at once, without authentication (it delivers nothing onward, so it relays for
 * nobody), reads each mail with mailparser and hands it to the incoming-mail service, which adds
 * it to an issue or opens one. A mail it cannot read is refused with a 5xx reply; a failure of its
 * own (the database away) is a 451, so the sending server tries again later.
 */
export async function startSmtpReceiver(settings: SmtpReceiverSettings, incomingMail: IncomingMailService, log: Logger): Promise<SmtpReceiver> {
  const server = new SMTPServer({
    banner: 'Gridport',
    size: issueMailLimits.inboundMailBytes,
    authOptional: true,
    disabledCommands: settings.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(settings.tls ? { key: settings.tls.privateKeyPem, cert: settings.tls.certificatePem } : {}),
    disableReverseLookup: true,
    logger: false,
    closeTimeout: closeTimeoutMs,
    maxClients: smtpReceiverMaxClients,
    onData(stream, session, callback) {
      readMail(stream)
        .then(async (raw) => {
          if (raw === null) {
            throw new SmtpRefusal(552, `5.3.4 The mail is larger than ${issueMailLimits.inboundMailBytes} bytes`);
          }
          let parsed: ParsedMail;
          try {
            parsed = await simpleParser(raw);
          } catch (error) {
            throw new SmtpRefusal(550, `5.6.0 The mail cannot be read: ${error instanceof Error ? error.message : String(error)}`);
          }
          const mail = incomingMailOf(parsed);
          const receipt = await incomingMail.receive(mail);
          log.info({ ...receipt, messageId: mail.messageId, from: mail.from.address, remoteAddress: session.remoteAddress }, 'mail received');
          return receipt.outcome === 'opened' ? `2.0.0 Opened issue ${receipt.issueHashId}` : `2.0.0 Added to issue ${receipt.issueHashId}`;
        })
        .then(
          (reply) => callback(null, reply),
          (error: unknown) => {
            if (error instanceof SmtpRefusal) {
              log.warn({ responseCode: error.responseCode, reason: error.message, remoteAddress: session.remoteAddress }, 'mail refused');
              callback(error);
              return;
            }
            log.error({ err: error, remoteAddress: session.remoteAddress }, 'mail could not be taken; the sender is asked to try again');
            callback(new SmtpRefusal(451, '4.3.0 Gridport could not take the mail now; try again later'));
          },
        );
    },
  });
  server.on('error', (error) => log.error({ err: error }, 'SMTP receiver: a connection failed'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  log.info({ host: settings.host, port, starttls: settings.tls !== null }, `SMTP receiver listening on ${settings.host}:${port}`);
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
