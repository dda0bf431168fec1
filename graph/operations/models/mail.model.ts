import { BaseModel } from '../../common/base.model';

export class MailModel extends BaseModel {
  static override tableName = 'mails';
  static override jsonAttributes = ['to', 'cc', 'references'];

  id!: number;
  to!: string[];
  cc!: string[];
  subject!: string;
  text!: string;
  html!: string | null;
  /** Threading headers (issue mail): this mail's Message-ID, the one it answers, and the thread before it. */
  messageId!: string | null;
  inReplyTo!: string | null;
  references!: string[];
  status!: 'kept' | 'sending' | 'sent' | 'failed';
  error!: string | null;
  createdAt!: Date;
  sentAt!: Date | null;
}
