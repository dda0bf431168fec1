import { BaseModel } from '../../common/base.model';
import type { Right } from '../../../contracts/rights';
import type { EncryptedSecret } from '../../common/secret-box';
import { OrganizationModel } from './organization.model';

export class UserModel extends BaseModel {
  static override tableName = 'users';
  static override jsonAttributes = ['rights', 'twoFactorSecret', 'recoveryCodeHashes', 'pendingTwoFactorSecret'];

  id!: number;
  organizationId!: number;
  name!: string;
  email!: string;
  rights!: Right[];
  passwordHash!: string | null;
  twoFactorSecret!: EncryptedSecret | null;
  twoFactorLastStep!: number | null;
  recoveryCodeHashes!: string[];
  pendingTwoFactorSecret!: EncryptedSecret | null;
  pendingTwoFactorExpiresAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
  organization?: OrganizationModel;

  static override modifiers = {
    /** The user with this email, whatever its case (emails are unique regardless of case). */
    withEmail(query: ReturnType<typeof UserModel.query>, email: string) {
      void query.whereRaw('lower(users.email) = lower(?)', [email]);
    },
  };

  static override get relationMappings() {
    return {
      organization: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: OrganizationModel,
        join: { from: 'users.organization_id', to: 'organizations.id' },
      },
    };
  }
}
