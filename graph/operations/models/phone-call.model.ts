import { BaseModel } from '../../common/base.model';

export interface Dialed {
  name: string;
  phone: string;
}

export class PhoneCallModel extends BaseModel {
  static override tableName = 'phone_calls';
  static override jsonAttributes = ['dialed'];

  id!: number;
  callSid!: string;
  issueId!: number;
  from!: string | null;
  to!: string | null;
  status!: string;
  dialed!: Dialed[];
  recordingUrl!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
}
