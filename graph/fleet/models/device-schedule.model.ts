import { BaseModel } from '../../common/base.model';

/** The schedule of the assets (or controllers) with one identifier on one device; a schedule call replaces it. */
export class DeviceScheduleModel extends BaseModel {
  static override tableName = 'device_schedules';
  static override jsonAttributes = ['items'];
  static override get idColumn() {
    return ['device_id', 'kind', 'identifier'];
  }

  deviceId!: number;
  kind!: 'asset' | 'controller';
  identifier!: string;
  items!: unknown[];
  updatedByUserId!: number | null;
  updatedAt!: Date;
}
