import type { PubSub } from '../../common/pubsub';
import { channels } from '../../common/pubsub';
import type { Write } from '../../common/write';
import { IssueModel, type IssueSource, type NonUserParticipant, type ReplyHeaders } from '../models/issue.model';
import { IssueMessageModel, type EmailHeaders, type MessageSource } from '../models/issue-message.model';

/** What a new issue is made of; the rest takes the table's defaults. */
export interface NewIssue {
  title: string;
  source: IssueSource;
  organizationId: number | null;
  deviceId?: number | null;
  internal?: boolean;
  autoClose?: boolean;
  canReopen?: boolean;
  gridportIssueOwner?: boolean;
  assignedUserId?: number | null;
  assignedEmail?: string | null;
  nonUserParticipants?: NonUserParticipant[];
  replyHeaders?: ReplyHeaders;
  nextActivityDueAt?: Date | null;
}

/** What a new timeline message is made of. */
export interface NewMessage {
  source: MessageSource;
  message: string;
  userId?: number | null;
  isInternal?: boolean;
  /** Mailed to these (and cc) when given: the message is left `pending` for the issue mailer. */
  to?: string[];
  cc?: string[];
  emailHeaders?: EmailHeaders | null;
  mailMessageId?: string | null;
}

/**
 * The one way anything writes an issue or its timeline (users, monitors, incoming mail, phone
 * calls): inside the caller's audited write, and announced on the issue's timeline channel once
 * that write has committed, so a live timeline never shows what rolled back.
 */
export class IssueJournal {
  constructor(private readonly pubsub: PubSub) {}

  /** Opens an issue and audits its creation. */
  async open(w: Write, issue: NewIssue): Promise<IssueModel> {
    const row = await IssueModel.query(w.trx).insertAndFetch({
      title: issue.title,
      source: issue.source,
      organizationId: issue.organizationId,
      deviceId: issue.deviceId ?? null,
      internal: issue.internal ?? false,
      autoClose: issue.autoClose ?? false,
      canReopen: issue.canReopen ?? false,
      gridportIssueOwner: issue.gridportIssueOwner ?? false,
      assignedUserId: issue.assignedUserId ?? null,
      assignedEmail: issue.assignedEmail ?? null,
      nonUserParticipants: issue.nonUserParticipants ?? [],
      replyHeaders: issue.replyHeaders ?? {},
      nextActivityDueAt: issue.nextActivityDueAt ?? null,
    });
    await w.audit({
      objectType: 'issues',
      objectId: row.id,
      organizationId: row.organizationId,
      changeType: 'controllerCreate',
      diff: [
        { type: 'string', name: 'title', oldValue: null, newValue: row.title },
        { type: 'string', name: 'source', oldValue: null, newValue: row.source },
      ],
    });
    this.announce(w, row.id);
    return row;
  }

  /** Adds a message to an issue's timeline and touches the issue. */
  async addMessage(w: Write, issueId: number, message: NewMessage): Promise<IssueMessageModel> {
    const mailed = (message.to?.length ?? 0) + (message.cc?.length ?? 0) > 0;
    const row = await IssueMessageModel.query(w.trx).insertAndFetch({
      issueId,
      source: message.source,
      userId: message.userId ?? null,
      message: message.message,
      isInternal: message.isInternal ?? false,
      to: message.to ?? [],
      cc: message.cc ?? [],
      emailHeaders: message.emailHeaders ?? null,
      mailMessageId: message.mailMessageId ?? null,
      mailState: mailed ? 'pending' : 'none',
    });
    await IssueModel.query(w.trx).patch({ updatedAt: new Date() }).where('id', issueId);
    this.announce(w, issueId);
    return row;
  }

  /** Tells the issue's live timelines, after the write commits, that something changed. */
  announce(w: Write, issueId: number): void {
    w.afterCommit(() => this.pubsub.publish(channels.issueTimeline(issueId), { issueId }));
  }
}
