import type { Knex } from 'knex';
import type { Model } from 'objection';
import { GridportError } from '../../contracts/errors';
import type { EntityType, HashIds } from './hash-ids';

/**
 * The row of `model` behind a hash id of `type`, locked for the transaction's writes if `lock`;
 * a hash id that is not one, or names no row, is `not_found` with `<type>HashId` in its details.
 * For objects everyone who may call sees; services that scope by the actor filter their own query.
 */
export async function findByHashId<C extends typeof Model>(
  model: C,
  db: Knex,
  hashIds: HashIds,
  type: EntityType,
  hashId: string,
  { lock = false }: { lock?: boolean } = {},
): Promise<InstanceType<C>> {
  const id = hashIds.decode(type, hashId);
  const query = id === null ? null : model.query(db).findById(id);
  if (query && lock) {
    void query.forUpdate();
  }
  const row = query ? ((await query) as InstanceType<C> | undefined) : undefined;
  if (!row) {
    throw new GridportError('not_found', { [`${type}HashId`]: hashId });
  }
  return row;
}
