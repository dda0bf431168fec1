import { BaseModel } from '../../common/base.model';

/** A cloud-to-device message, kept in order until the device acknowledges it. */
export class DeviceOutboxModel extends BaseModel {
  static override tableName = 'device_outbox';
  static override jsonAttributes = ['payload'];

  id!: number;
  deviceId!: number;
  type!: string;
  payload!: Record<string, unknown>;
  createdByUserId!: number | null;
  createdAt!: Date;
  deliveredAt!: Date | null;
  attempts!: number;
  acknowledgedAt!: Date | null;
}
