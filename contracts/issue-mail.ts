import { limits } from './limits';

/**
 * Mail in and out of issues (spec README, "Operations": incoming mail; docs/operations.md, "Mail in
 * and out"): what the SMTP receiver hands the incoming-mail service, and the limits both sides keep.
 */
export const issueMailLimits = {
  /** The largest mail the SMTP receiver takes, in bytes: the payload limit of every request (25 MB). */
  inboundMailBytes: limits.payloadBytes,
  /** An issue's title, as a mail's subject becomes it. */
  titleLength: 256,
  /** The text kept of one mail; beyond it the message says it was cut. */
  messageLength: 100_000,
  /** Message-IDs named in References of a mail sent: the thread's first and its latest (RFC 5322 3.6.4 lets a long list be cut so). */
  referencesSent: 20,
} as const;

/** `[#<issue hashId>]` in a subject names the issue a mail belongs to; mail Gridport sends carries it. */
export const issueSubjectTagPattern = /\[#([A-Za-z0-9]{1,64})\]/;

/** The subject of every mail about an issue: its title and its tag. */
export function issueMailSubject(title: string, issueHashId: string): string {
  return `${title} [#${issueHashId}]`;
}

/** A person on a mail: the address, and the display name when the mail gives one. */
export interface MailAddress {
  address: string;
  name: string | null;
}

export interface IncomingAttachment {
  /** The file name the mail gives, if any. */
  filename: string | null;
  contentType: string;
  content: Uint8Array;
}

/** A mail as the SMTP receiver read it, for the incoming-mail service. Message-IDs keep their angle brackets. */
export interface IncomingMail {
  from: MailAddress;
  to: MailAddress[];
  cc: MailAddress[];
  subject: string;
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  /** The Date header, ISO 8601, when it was readable. */
  date: string | null;
  /** The plain text of the mail (the HTML part as text when there is no plain part). */
  text: string;
  /**
   * Whether a machine wrote it (Auto-Submitted other than `no`, RFC 3834, or Precedence bulk, junk,
   * list or auto_reply): an out-of-office answer, a bounce. It is kept, but nobody is told of it by
   * mail, so that two autoresponders cannot mail each other through an issue without end.
   */
  automatic: boolean;
  attachments: IncomingAttachment[];
}

/** What became of a mail: added to an issue, opened one, or had already been taken (the same Message-ID). */
export interface IncomingMailReceipt {
  outcome: 'added' | 'opened' | 'duplicate';
  issueHashId: string;
  /** Files kept from the mail. */
  attachmentsKept: number;
  /** Files left out (a type not allowed, or beyond 10). */
  attachmentsSkipped: number;
}
