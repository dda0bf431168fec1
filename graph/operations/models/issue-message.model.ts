import type { EmailHeadersView, issueMessageSources } from '../../../contracts/issue';
import { BaseModel } from '../../common/base.model';

/** Message sources (console.md section 3). */
export type MessageSource = (typeof issueMessageSources)[number];

/** The headers of a mail that became a message, as the API shows them. */
export type EmailHeaders = EmailHeadersView;

export type MailState = 'none' | 'pending' | 'sent' | 'failed';

export class IssueMessageModel extends BaseModel {
  static override tableName = 'issue_messages';
  static override jsonAttributes = ['to', 'cc', 'emailHeaders'];

  id!: number;
  issueId!: number;
  source!: MessageSource;
  userId!: number | null;
  message!: string;
  isInternal!: boolean;
  to!: string[];
  cc!: string[];
  emailHeaders!: EmailHeaders | null;
  mailMessageId!: string | null;
  mailState!: MailState;
  subscribersNotifiedAt!: Date | null;
  /** Until when a node mails about the message (IssueMailer); null when none does. */
  mailClaimedUntil!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}
