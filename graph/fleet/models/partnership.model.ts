import type { PartnershipRole } from '../../../contracts/fleet';
import { BaseModel } from '../../common/base.model';
import { OrganizationModel } from '../../identity/models/organization.model';

/** An owner organisation shares all or some of its devices with a partner organisation. */
export class PartnershipModel extends BaseModel {
  static override tableName = 'partnerships';

  id!: number;
  ownerOrganizationId!: number;
  partnerOrganizationId!: number;
  role!: PartnershipRole;
  description!: string;
  allDevices!: boolean;
  createdAt!: Date;
  updatedAt!: Date;
  owner?: OrganizationModel;
  partner?: OrganizationModel;

  static override get relationMappings() {
    return {
      owner: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: OrganizationModel,
        join: { from: 'partnerships.owner_organization_id', to: 'organizations.id' },
      },
      partner: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: OrganizationModel,
        join: { from: 'partnerships.partner_organization_id', to: 'organizations.id' },
      },
    };
  }
}
