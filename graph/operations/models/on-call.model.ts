import { BaseModel } from '../../common/base.model';

export class OnCallModel extends BaseModel {
  static override tableName = 'on_call';
  static override idColumn = 'rota';

  rota!: string;
  userId!: number | null;
  updatedByUserId!: number | null;
  updatedAt!: Date;
}
