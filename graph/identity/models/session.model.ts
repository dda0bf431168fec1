import { BaseModel } from '../../common/base.model';
import { UserModel } from './user.model';

export class SessionModel extends BaseModel {
  static override tableName = 'sessions';

  id!: number;
  userId!: number;
  expiresAt!: Date;
  revokedAt!: Date | null;
  createdBy!: string;
  createdAt!: Date;
  user?: UserModel;

  static override get relationMappings() {
    return {
      user: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: UserModel,
        join: { from: 'sessions.user_id', to: 'users.id' },
      },
    };
  }
}
