import type { Knex } from 'knex';
import type { AuditLogRowView } from '../../../contracts/audit-log';
import type { AlarmView, IssueFileView, IssueMessageView, IssueView } from '../../../contracts/issue';
import type { UserReference } from '../../../contracts/references';
import { isStaff, type Actor } from '../../common/context';
import type { AuditLogEntryModel } from '../../common/audit-log-entry.model';
import type { HashIds } from '../../common/hash-ids';
import type { AuditLogService } from '../../identity/services/audit-log.service';
import type { DirectoryUser, IdentityDirectory } from '../../identity/services/directory.service';
import { AlarmModel } from '../models/alarm.model';
import { FileModel } from '../models/file.model';
import type { IssueModel } from '../models/issue.model';
import type { IssueMessageModel } from '../models/issue-message.model';
import { isoTime } from '../../common/timestamps';

const iso = (value: Date | null): string | null => (value === null ? null : isoTime(value));

function distinct<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** The path that serves an uploaded file (GET /console/v1/file/{fileIdentifier}). */
export function fileUrl(identifier: string): string {
  return `/console/v1/file/${identifier}`;
}

/**
 * Issues, alarms, messages and audit entries as the contracts view them, each list in a fixed
 * number of queries however long it is. A customer sees what a customer may: the subscribers of
 * their own organisation, and a message count without internal messages.
 */
export class IssuePresenter {
  constructor(
    private readonly hashIds: HashIds,
    private readonly directory: IdentityDirectory,
    private readonly auditLog: AuditLogService,
  ) {}

  private userReference(id: number | null, users: Map<number, DirectoryUser>): UserReference | null {
    const user = id === null ? undefined : users.get(id);
    return user ? { hashId: this.hashIds.encode('user', user.id), name: user.name, email: user.email } : null;
  }

  alarm(alarm: AlarmModel): AlarmView {
    return {
      hashId: this.hashIds.encode('alarm', alarm.id),
      monitor: alarm.monitor,
      deviceHashId: alarm.deviceId === null ? null : this.hashIds.encode('device', alarm.deviceId),
      destinationHashId: alarm.destinationId === null ? null : this.hashIds.encode('messageDestination', alarm.destinationId),
      assetIdentifier: alarm.assetIdentifier,
      customerMessage: alarm.customerMessage,
      customerMessageSentAt: iso(alarm.customerMessageSentAt),
      recoveringSince: iso(alarm.recoveringSince),
      closedAt: iso(alarm.closedAt),
      createdAt: isoTime(alarm.createdAt),
    };
  }

  async issues(actor: Actor, issues: readonly IssueModel[], db: Knex): Promise<IssueView[]> {
    if (issues.length === 0) {
      return [];
    }
    const ids = issues.map((issue) => issue.id);
    const staff = isStaff(actor);
    const messageCounts = db('issue_messages').whereIn('issue_id', ids).groupBy('issue_id').select('issue_id').count({ count: '*' });
    if (!staff) {
      void messageCounts.where('is_internal', false);
    }
    const [subscriberRows, alarms, counts, devices, organizationNames] = await Promise.all([
      db('issue_subscribers').whereIn('issue_id', ids).orderBy('created_at').orderBy('user_id').select('issue_id', 'user_id') as Promise<
        { issue_id: string | number; user_id: string | number }[]
      >,
      AlarmModel.query(db).whereIn('issue_id', ids).orderBy('id'),
      messageCounts as unknown as Promise<{ issue_id: string | number; count: string | number }[]>,
      db('devices')
        .whereIn('id', distinct(issues.flatMap((issue) => (issue.deviceId === null ? [] : [issue.deviceId]))))
        .select('id', 'name') as Promise<{ id: string | number; name: string }[]>,
      this.directory.organizationNames(
        db,
        issues.flatMap((issue) => (issue.organizationId === null ? [] : [issue.organizationId])),
      ),
    ]);
    const users = await this.directory.users(db, [
      ...subscriberRows.map((row) => Number(row.user_id)),
      ...issues.flatMap((issue) => (issue.assignedUserId === null ? [] : [issue.assignedUserId])),
    ]);
    const deviceName = new Map(devices.map((row) => [Number(row.id), row.name]));
    const messageCount = new Map(counts.map((row) => [Number(row.issue_id), Number(row.count)]));
    return issues.map((issue) => ({
      hashId: this.hashIds.encode('issue', issue.id),
      title: issue.title,
      status: issue.closedAt === null ? 'open' : 'resolved',
      source: issue.source,
      internal: issue.internal,
      autoClose: issue.autoClose,
      canReopen: issue.canReopen,
      subscribers: subscriberRows
        .filter((row) => Number(row.issue_id) === issue.id)
        .flatMap((row) => {
          const user = users.get(Number(row.user_id));
          if (!user || (!staff && user.organizationId !== actor.organizationId)) {
            return [];
          }
          return [{ hashId: this.hashIds.encode('user', user.id), name: user.name, email: user.email }];
        }),
      assignedUser: this.userReference(issue.assignedUserId, users),
      assignedEmail: issue.assignedEmail,
      nonUserParticipants: issue.nonUserParticipants.map((participant) => ({ email: participant.email, name: participant.name ?? null })),
      gridportIssueOwner: issue.gridportIssueOwner,
      organization:
        issue.organizationId === null
          ? null
          : { hashId: this.hashIds.encode('organization', issue.organizationId), name: organizationNames.get(issue.organizationId) ?? '' },
      device: issue.deviceId === null ? null : { hashId: this.hashIds.encode('device', issue.deviceId), name: deviceName.get(issue.deviceId) ?? '' },
      alarms: alarms.filter((alarm) => alarm.issueId === issue.id).map((alarm) => this.alarm(alarm)),
      replyHeaders: { messageId: issue.replyHeaders.messageId ?? null, references: issue.replyHeaders.references ?? [] },
      nextActivityDueAt: iso(issue.nextActivityDueAt),
      closedAt: iso(issue.closedAt),
      createdAt: isoTime(issue.createdAt),
      updatedAt: isoTime(issue.updatedAt),
      messageCount: messageCount.get(issue.id) ?? 0,
    }));
  }

  async messages(messages: readonly IssueMessageModel[], db: Knex): Promise<IssueMessageView[]> {
    if (messages.length === 0) {
      return [];
    }
    const [users, files] = await Promise.all([
      this.directory.users(
        db,
        messages.flatMap((message) => (message.userId === null ? [] : [message.userId])),
      ),
      FileModel.query(db)
        .whereIn(
          'issue_message_id',
          messages.map((message) => message.id),
        )
        .orderBy('id')
        .select('id', 'identifier', 'name', 'content_type', 'size', 'issue_message_id'),
    ]);
    return messages.map((message) => ({
      hashId: this.hashIds.encode('issueMessage', message.id),
      issueHashId: this.hashIds.encode('issue', message.issueId),
      source: message.source,
      user: this.userReference(message.userId, users),
      message: message.message,
      isInternal: message.isInternal,
      to: message.to,
      cc: message.cc,
      emailHeaders: message.emailHeaders,
      files: files
        .filter((file) => Number(file.issueMessageId) === message.id)
        .map((file): IssueFileView => ({
          identifier: file.identifier,
          name: file.name,
          contentType: file.contentType,
          size: Number(file.size),
          url: fileUrl(file.identifier),
        })),
      createdAt: isoTime(message.createdAt),
      updatedAt: isoTime(message.updatedAt),
    }));
  }

  auditEntry(entry: AuditLogEntryModel): AuditLogRowView {
    return this.auditLog.present(entry);
  }
}
