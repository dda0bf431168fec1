import type { Knex } from 'knex';
import type { AuditLogQuery, AuditLogRowView, AuditObjectType } from '../../../contracts/audit-log';
import { GridportError } from '../../../contracts/errors';
import type { Page } from '../../../contracts/pagination';
import type { Actor } from '../../common/context';
import { authorize } from '../../common/context';
import { pageById } from '../../common/cursor';
import type { EntityType, HashIds } from '../../common/hash-ids';
import { AuditLogEntryModel } from '../../common/audit-log-entry.model';
import { isoTime } from '../../common/timestamps';

/** The hash id type of each kind of audited object. */
const entityOfObjectType: Record<AuditObjectType, EntityType> = {
  devices: 'device',
  message_destinations: 'messageDestination',
  issues: 'issue',
  organizations: 'organization',
  users: 'user',
  api_keys: 'apiKey',
  device_groups: 'deviceGroup',
  partnerships: 'partnership',
  contacts: 'contact',
  billing_legal_entities: 'billingLegalEntity',
  billing_charges: 'billingCharge',
  billing_invoices: 'billingInvoice',
};

export class AuditLogService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
  ) {}

  present(entry: AuditLogEntryModel): AuditLogRowView {
    return {
      hashId: this.hashIds.encode('auditLog', entry.id),
      transactionIdentifier: entry.transactionIdentifier,
      objectHashId: this.hashIds.encode(entityOfObjectType[entry.objectType], entry.objectId),
      objectType: entry.objectType,
      changeType: entry.changeType,
      diff: entry.diff,
      user: entry.userId === null ? null : { hashId: this.hashIds.encode('user', entry.userId), name: entry.actorName },
      actorName: entry.actorName,
      createdAt: isoTime(entry.createdAt),
    };
  }

  /** The audit log, newest first (staff only), filtered by object and transaction. */
  async list(actor: Actor, query: AuditLogQuery): Promise<Page<AuditLogRowView>> {
    authorize(actor, 'auditLog.list');
    // Column names in where clauses are the table's own (snakeCaseMappers only map rows).
    const builder = AuditLogEntryModel.query(this.db);
    if (query.objectType) {
      void builder.where('object_type', query.objectType);
      if (query.objectHashId) {
        const objectId = this.hashIds.decode(entityOfObjectType[query.objectType], query.objectHashId);
        if (objectId === null) {
          throw new GridportError('not_found', { objectHashId: query.objectHashId, objectType: query.objectType });
        }
        void builder.where('object_id', objectId);
      }
    }
    if (query.transactionIdentifier) {
      void builder.where('transaction_identifier', query.transactionIdentifier);
    }
    return pageById(builder, query, (row) => this.present(row));
  }
}
