import { BaseModel } from '../../common/base.model';

export interface CustomerMessage {
  to: string[];
  markdown: string;
}

export class AlarmModel extends BaseModel {
  static override tableName = 'alarms';
  static override jsonAttributes = ['customerMessage', 'details'];

  id!: number;
  monitor!: string;
  deviceId!: number | null;
  destinationId!: number | null;
  assetIdentifier!: string | null;
  issueId!: number | null;
  customerMessage!: CustomerMessage | null;
  customerMessageSentAt!: Date | null;
  details!: Record<string, unknown>;
  recoveringSince!: Date | null;
  closedAt!: Date | null;
  createdAt!: Date;
}
