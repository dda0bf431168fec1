import { BaseModel } from '../../common/base.model';

export class DeviceConnectionEventModel extends BaseModel {
  static override tableName = 'device_connection_events';

  id!: number;
  deviceId!: number;
  kind!: 'connected' | 'disconnected';
  networkInterface!: string | null;
  at!: Date;
}
