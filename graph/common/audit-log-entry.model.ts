import { BaseModel } from './base.model';
import type { AuditChangeType, AuditObjectType, DiffEntry } from '../../contracts/audit-log';
import type { Actor } from './context';

export class AuditLogEntryModel extends BaseModel {
  static override tableName = 'audit_log';
  static override jsonAttributes = ['diff'];

  id!: number;
  transactionIdentifier!: string;
  objectType!: AuditObjectType;
  objectId!: number;
  organizationId!: number | null;
  changeType!: AuditChangeType;
  diff!: DiffEntry[];
  userId!: number | null;
  actorKind!: Actor['kind'];
  actorName!: string;
  createdAt!: Date;
}
