import * as yup from 'yup';
import { emailSchema } from './user';

/** A mail Gridport sends (and POST /console-admin/v1/mail takes, for testing). */
export const mailSchema = yup
  .object({
    to: yup.array(emailSchema.required()).min(1).max(50).required(),
    subject: yup.string().trim().min(1).max(998).required(),
    text: yup.string().max(1_000_000).required(),
    html: yup.string().max(1_000_000).optional(),
  })
  .exact();

export type Mail = yup.InferType<typeof mailSchema>;

/**
 * A mail Gridport sends on its own behalf: a Mail, with copies and the threading headers of
 * issue mail (docs/operations.md, "Mail in and out"). Message-IDs keep their angle brackets.
 */
export interface OutgoingMail extends Mail {
  cc?: string[];
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  /** Written by Gridport on its own (a notification): sent with `Auto-Submitted: auto-generated` (RFC 3834), so autoresponders leave it unanswered. */
  automatic?: boolean;
}

export interface MailReceipt {
  mailHashId: string;
  status: 'kept' | 'sent' | 'failed';
}
