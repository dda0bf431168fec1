import { BaseModel } from '../../common/base.model';

/** An asset or an active-control loop of a device's config, as a row (rewritten with the config). */
export class DeviceComponentModel extends BaseModel {
  static override tableName = 'device_components';
  static override get idColumn() {
    return ['device_id', 'kind', 'index'];
  }

  deviceId!: number;
  kind!: 'asset' | 'controller';
  index!: number;
  category!: string | null;
  type!: string;
  identifier!: string | null;
  nominalActivePower!: number | null;
}
