import { BaseModel } from '../../common/base.model';
import type { Right } from '../../../contracts/rights';
import type { EncryptedSecret } from '../../common/secret-box';
import { OrganizationModel } from './organization.model';

export class UserInviteModel extends BaseModel {
  static override tableName = 'user_invites';
  static override jsonAttributes = ['rights', 'pendingTwoFactorSecret'];

  id!: number;
  organizationId!: number;
  email!: string;
  rights!: Right[];
  invitedByUserId!: number | null;
  codeHash!: string;
  expiresAt!: Date;
  revokedAt!: Date | null;
  convertedAt!: Date | null;
  userId!: number | null;
  pendingTwoFactorSecret!: EncryptedSecret | null;
  pendingTwoFactorExpiresAt!: Date | null;
  createdAt!: Date;
  organization?: OrganizationModel;

  static override modifiers = {
    /** Neither revoked nor converted (it may still have expired). */
    open(query: ReturnType<typeof UserInviteModel.query>) {
      void query.whereNull('user_invites.revoked_at').whereNull('user_invites.converted_at');
    },
  };

  static override get relationMappings() {
    return {
      organization: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: OrganizationModel,
        join: { from: 'user_invites.organization_id', to: 'organizations.id' },
      },
    };
  }
}
