import { BaseModel } from '../../common/base.model';
import type { Right } from '../../../contracts/rights';
import { OrganizationModel } from './organization.model';
import { UserModel } from './user.model';

export class ApiKeyModel extends BaseModel {
  static override tableName = 'api_keys';
  static override jsonAttributes = ['ipRanges', 'rights'];

  id!: number;
  organizationId!: number;
  userId!: number | null;
  name!: string;
  /** SHA-256 of the secret, hex. */
  secretHash!: string;
  ipRanges!: string[];
  rights!: Right[];
  publicKey!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
  organization?: OrganizationModel;
  user?: UserModel | null;

  static override get relationMappings() {
    return {
      organization: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: OrganizationModel,
        join: { from: 'api_keys.organization_id', to: 'organizations.id' },
      },
      user: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: UserModel,
        join: { from: 'api_keys.user_id', to: 'users.id' },
      },
    };
  }
}
