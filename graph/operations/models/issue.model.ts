import { BaseModel } from '../../common/base.model';

/** Where an issue began (spec README "Operations"). */
export const issueSources = ['monitoring', 'user', 'incoming-email', 'telephony', 'cloud'] as const;
export type IssueSource = (typeof issueSources)[number];

export interface NonUserParticipant {
  email: string;
  name: string | null;
}

export interface ReplyHeaders {
  messageId?: string;
  references?: string[];
}

export class IssueModel extends BaseModel {
  static override tableName = 'issues';
  static override jsonAttributes = ['nonUserParticipants', 'replyHeaders'];

  id!: number;
  organizationId!: number | null;
  deviceId!: number | null;
  title!: string;
  source!: IssueSource;
  internal!: boolean;
  autoClose!: boolean;
  canReopen!: boolean;
  gridportIssueOwner!: boolean;
  assignedUserId!: number | null;
  assignedEmail!: string | null;
  nonUserParticipants!: NonUserParticipant[];
  replyHeaders!: ReplyHeaders;
  nextActivityDueAt!: Date | null;
  closedAt!: Date | null;
  closedAutomatically!: boolean;
  createdAt!: Date;
  updatedAt!: Date;
}

export class IssueSubscriberModel extends BaseModel {
  static override tableName = 'issue_subscribers';
  static override idColumn = ['issue_id', 'user_id'];

  issueId!: number;
  userId!: number;
  createdAt!: Date;
}
