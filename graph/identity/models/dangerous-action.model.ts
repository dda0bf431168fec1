import { BaseModel } from '../../common/base.model';

/** One entry of the dangerous-action ledger: a user spent `watts` of their allowance on `action`. */
export class DangerousActionModel extends BaseModel {
  static override tableName = 'dangerous_actions';

  id!: number;
  userId!: number;
  watts!: number;
  action!: string;
  createdAt!: Date;
}
