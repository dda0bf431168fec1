import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { AuditChangeType, AuditObjectType, DiffEntry } from '../../contracts/audit-log';
import type { Actor } from './context';
import { AuditLogEntryModel } from './audit-log-entry.model';

export interface AuditRecord {
  objectType: AuditObjectType;
  objectId: number;
  organizationId: number | null;
  changeType: AuditChangeType;
  diff: DiffEntry[];
}

/** One service write: a database transaction, and the audit log entries it records under one identifier. */
export interface Write {
  trx: Knex.Transaction;
  transactionIdentifier: string;
  audit(record: AuditRecord): Promise<void>;
  /** Runs `effect` once the transaction has committed (never when it rolls back): notifications, wake-ups. */
  afterCommit(effect: () => void): void;
}

/**
 * Runs `work` in a transaction in which every change is audited: the audit rows commit or
 * roll back with the change itself.
 */
export async function write<T>(db: Knex, actor: Actor, work: (w: Write) => Promise<T>): Promise<T> {
  const effects: (() => void)[] = [];
  const result = await db.transaction(async (trx) => {
    const transactionIdentifier = randomUUID();
    const w: Write = {
      trx,
      transactionIdentifier,
      audit: async (record) => {
        await AuditLogEntryModel.query(trx).insert({
          transactionIdentifier,
          objectType: record.objectType,
          objectId: record.objectId,
          organizationId: record.organizationId,
          changeType: record.changeType,
          diff: record.diff,
          userId: actor.userId,
          actorKind: actor.kind,
          actorName: actor.name,
        });
      },
      afterCommit: (effect) => {
        effects.push(effect);
      },
    };
    return work(w);
  });
  for (const effect of effects) {
    effect();
  }
  return result;
}
