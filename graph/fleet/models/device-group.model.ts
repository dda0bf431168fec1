import { BaseModel } from '../../common/base.model';
import { OrganizationModel } from '../../identity/models/organization.model';

export class DeviceGroupModel extends BaseModel {
  static override tableName = 'device_groups';
  static override jsonAttributes = ['deviceOutageEmails', 'deviceOutageUserIds'];

  id!: number;
  organizationId!: number;
  name!: string;
  deviceOutageEmails!: string[];
  deviceOutageUserIds!: number[];
  createdAt!: Date;
  updatedAt!: Date;
  organization?: OrganizationModel;

  static override get relationMappings() {
    return {
      organization: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: OrganizationModel,
        join: { from: 'device_groups.organization_id', to: 'organizations.id' },
      },
    };
  }
}
