import { BaseModel } from '../../common/base.model';

export class PasswordResetModel extends BaseModel {
  static override tableName = 'password_resets';

  id!: number;
  userId!: number;
  codeHash!: string;
  expiresAt!: Date;
  usedAt!: Date | null;
  createdAt!: Date;
}
