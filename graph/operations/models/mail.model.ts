import { BaseModel } from '../../common/base.model';

export class MailModel extends BaseModel {
  static override tableName = 'mails';
  static override jsonAttributes = ['to'];

  id!: number;
  to!: string[];
  subject!: string;
  text!: string;
  html!: string | null;
  status!: 'kept' | 'sending' | 'sent' | 'failed';
  error!: string | null;
  createdAt!: Date;
  sentAt!: Date | null;
}
