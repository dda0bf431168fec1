import type { BillingLedger } from '../../billing/services/billing-ledger';
import type { Knex } from 'knex';
import type { DeviceGroupApiKey, DeviceGroupCreate, DeviceGroupListQuery, DeviceGroupUpdate, DeviceGroupView } from '../../../contracts/device-group';
import { GridportError } from '../../../contracts/errors';
import type { Page } from '../../../contracts/pagination';
import { isStaffRight } from '../../../contracts/rights';
import { authorize, type Actor } from '../../common/context';
import { findByHashId } from '../../common/find-by-hash-id';
import { pageRowsById } from '../../common/cursor';
import { diffObjects, type FieldTypes } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { containsPattern } from '../../common/like';
import { listOrganizationScope } from '../../common/tenancy';
import { write, type Write } from '../../common/write';
import type { DirectoryUser, IdentityDirectory } from '../../identity/services/directory.service';
import { DeviceGroupModel } from '../models/device-group.model';

const auditedFields: FieldTypes<DeviceGroupModel> = {
  name: 'string',
  organizationId: 'number',
  deviceOutageEmails: 'json',
  deviceOutageUserIds: 'json',
};

/** Distinct values, first occurrence first. */
function distinct<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** Distinct emails regardless of case, as first given. */
function distinctEmails(emails: readonly string[]): string[] {
  const seen = new Set<string>();
  return emails.filter((email) => {
    const key = email.toLowerCase();
    if (seen.has(key)) {
      return false;
    }
    seen.add(key);
    return true;
  });
}

/**
 * Device groups (console.md sections 3 and 7): a named set of one organisation's devices with
 * outage contacts, and the API keys limited to them. An API key linked to at least one group
 * sees only the devices of its groups (graph/fleet/services/device-access.ts).
 */
export class DeviceGroupService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly directory: IdentityDirectory,
    /** Recounts the billable units of the group's devices when its device outage contacts change. */
    private readonly ledger: BillingLedger,
  ) {}

  private notFound(hashId: string): GridportError {
    return new GridportError('not_found', { deviceGroupHashId: hashId });
  }

  /** The group behind a hash id, locked for the transaction's writes if `lock`. */
  private async find(hashId: string, db: Knex, lock = false): Promise<DeviceGroupModel> {
    return findByHashId(DeviceGroupModel, db, this.hashIds, 'deviceGroup', hashId, { lock });
  }

  /** Every field of many groups in a fixed number of queries (four) however many there are. */
  async present(groups: readonly DeviceGroupModel[], db: Knex = this.db): Promise<DeviceGroupView[]> {
    if (groups.length === 0) {
      return [];
    }
    const ids = groups.map((group) => group.id);
    const organizationIds = distinct(groups.map((group) => group.organizationId));
    const userIds = distinct(groups.flatMap((group) => group.deviceOutageUserIds));
    const [organizationName, userById, keys, counts] = await Promise.all([
      this.directory.organizationNames(db, organizationIds),
      this.directory.users(db, userIds),
      db('device_group_api_keys')
        .join('api_keys', 'api_keys.id', 'device_group_api_keys.api_key_id')
        .whereIn('device_group_api_keys.device_group_id', ids)
        .orderBy('api_keys.id')
        .select('device_group_api_keys.device_group_id', 'api_keys.id', 'api_keys.name') as Promise<
        { device_group_id: string | number; id: string | number; name: string }[]
      >,
      db('devices').whereIn('device_group_id', ids).groupBy('device_group_id').select('device_group_id').count({ count: '*' }) as Promise<
        { device_group_id: string | number; count: string | number }[]
      >,
    ]);
    const deviceCount = new Map(counts.map((row) => [Number(row.device_group_id), Number(row.count)]));
    return groups.map((group) => {
      const organizationHashId = this.hashIds.encode('organization', group.organizationId);
      return {
        hashId: this.hashIds.encode('deviceGroup', group.id),
        name: group.name,
        organizationHashId,
        organization: { hashId: organizationHashId, name: organizationName.get(group.organizationId) ?? '' },
        deviceOutageEmails: group.deviceOutageEmails,
        deviceOutageUsers: group.deviceOutageUserIds.flatMap((id) => {
          const user = userById.get(id);
          return user ? [{ hashId: this.hashIds.encode('user', id), name: user.name, email: user.email }] : [];
        }),
        deviceCount: deviceCount.get(group.id) ?? 0,
        apiKeys: keys
          .filter((key) => Number(key.device_group_id) === group.id)
          .map((key) => ({ hashId: this.hashIds.encode('apiKey', Number(key.id)), name: key.name })),
      };
    });
  }

  private async presentOne(group: DeviceGroupModel, db: Knex = this.db): Promise<DeviceGroupView> {
    const [view] = await this.present([group], db);
    if (!view) {
      throw this.notFound(this.hashIds.encode('deviceGroup', group.id));
    }
    return view;
  }

  /**
   * Users by hash id who can all see the group's devices: staff, or users of the group's
   * organisation. Those who cannot are user_has_no_access with their hash ids.
   */
  private async outageUsers(w: Write, organizationId: number, hashIds: readonly string[]): Promise<number[]> {
    const ids = hashIds.map((hashId) => this.hashIds.decode('user', hashId));
    const known = ids.filter((id): id is number => id !== null);
    const users = await this.directory.users(w.trx, known);
    const canSee = (user: DirectoryUser) => user.rights.some(isStaffRight) || user.organizationId === organizationId;
    const refused = hashIds.filter((_hashId, index) => {
      const id = ids[index];
      const user = id === null || id === undefined ? undefined : users.get(id);
      return !user || !canSee(user);
    });
    if (refused.length > 0) {
      throw new GridportError('user_has_no_access', { hashIds: distinct(refused) });
    }
    return distinct(known);
  }

  async create(actor: Actor, input: DeviceGroupCreate): Promise<DeviceGroupView> {
    authorize(actor, 'deviceGroup.create');
    const organizationId = this.hashIds.decode('organization', input.organizationHashId);
    if (organizationId === null) {
      throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
    }
    const group = await write(this.db, actor, async (w) => {
      if (!(await this.directory.organizationExists(w.trx, organizationId))) {
        throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
      }
      const deviceOutageUserIds = await this.outageUsers(w, organizationId, input.deviceOutageUsersHashIds);
      const created = await DeviceGroupModel.query(w.trx).insertAndFetch({
        organizationId,
        name: input.name,
        deviceOutageEmails: distinctEmails(input.deviceOutageEmails),
        deviceOutageUserIds,
      });
      await w.audit({
        objectType: 'device_groups',
        objectId: created.id,
        organizationId,
        changeType: 'controllerCreate',
        diff: diffObjects(auditedFields, null, created),
      });
      return created;
    });
    return this.presentOne(group);
  }

  async get(actor: Actor, hashId: string): Promise<DeviceGroupView> {
    authorize(actor, 'deviceGroup.read');
    return this.presentOne(await this.find(hashId, this.db));
  }

  /** Many groups by numeric id at once (staff); those that do not exist are missing. */
  async byIds(actor: Actor, ids: readonly number[]): Promise<Map<number, DeviceGroupView>> {
    authorize(actor, 'deviceGroup.read');
    const rows = ids.length === 0 ? [] : await DeviceGroupModel.query(this.db).whereIn('id', [...new Set(ids)]);
    const views = await this.present(rows);
    return new Map(rows.map((row, index) => [row.id, views[index] as DeviceGroupView]));
  }

  /** Groups newest first, by name (contains, any case) and organisation; a page costs a fixed number of queries. */
  async list(actor: Actor, query: DeviceGroupListQuery): Promise<Page<DeviceGroupView>> {
    authorize(actor, 'deviceGroup.list');
    // Column names in where clauses are the table's own (snakeCaseMappers only map rows).
    const builder = DeviceGroupModel.query(this.db);
    const organizationId = listOrganizationScope(actor, this.hashIds, query.organizationHashId);
    if (organizationId !== null) {
      void builder.where('organization_id', organizationId);
    }
    if (query.filter) {
      void builder.whereILike('name', containsPattern(query.filter));
    }
    const page = await pageRowsById(builder, query);
    return { rows: await this.present(page.rows), nextPageOffset: page.nextPageOffset };
  }

  async update(actor: Actor, hashId: string, patch: DeviceGroupUpdate): Promise<DeviceGroupView> {
    authorize(actor, 'deviceGroup.update');
    const group = await write(this.db, actor, async (w) => {
      const before = await this.find(hashId, w.trx, true);
      const changes: Partial<DeviceGroupModel> = {};
      if (patch.name !== undefined) {
        changes.name = patch.name;
      }
      if (patch.deviceOutageEmails !== undefined) {
        changes.deviceOutageEmails = distinctEmails(patch.deviceOutageEmails);
      }
      if (patch.deviceOutageUsersHashIds !== undefined) {
        changes.deviceOutageUserIds = await this.outageUsers(w, before.organizationId, patch.deviceOutageUsersHashIds);
      }
      const diff = diffObjects(auditedFields, before, { ...before, ...changes });
      if (diff.length === 0) {
        return before;
      }
      const after = await DeviceGroupModel.query(w.trx).patchAndFetchById(before.id, { ...changes, updatedAt: new Date() });
      await w.audit({ objectType: 'device_groups', objectId: before.id, organizationId: before.organizationId, changeType: 'controllerUpdate', diff });
      if (changes.deviceOutageEmails !== undefined || changes.deviceOutageUserIds !== undefined) {
        await this.ledger.groupChanged(w, before.id, 'deviceGroupUpdate');
      }
      return after;
    });
    return this.presentOne(group);
  }

  /**
   * Removes an empty group. A group with devices is not_empty; a group that API keys are linked
   * to is has_access (with their hash ids): dropping the link would widen each key to every
   * device of the organisation, so the keys are unlinked first, on purpose.
   */
  async delete(actor: Actor, hashId: string): Promise<void> {
    authorize(actor, 'deviceGroup.delete');
    await write(this.db, actor, async (w) => {
      // The lock holds off devices joining the group (their foreign key waits on it) until the count is settled.
      const before = await this.find(hashId, w.trx, true);
      const row = (await w.trx('devices').where('device_group_id', before.id).count({ count: '*' }).first()) as { count: string | number } | undefined;
      const deviceCount = Number(row?.count ?? 0);
      if (deviceCount > 0) {
        throw new GridportError('not_empty', { deviceCount });
      }
      const linked = (await w.trx('device_group_api_keys').where('device_group_id', before.id).select('api_key_id')) as { api_key_id: string | number }[];
      if (linked.length > 0) {
        throw new GridportError('has_access', { apiKeyHashIds: linked.map((row) => this.hashIds.encode('apiKey', Number(row.api_key_id))) });
      }
      await DeviceGroupModel.query(w.trx).deleteById(before.id);
      await w.audit({
        objectType: 'device_groups',
        objectId: before.id,
        organizationId: before.organizationId,
        changeType: 'controllerDelete',
        diff: diffObjects(auditedFields, before, null),
      });
    });
  }

  /** The key behind a hash id; one of another organisation than the group's is forbidden_organization. */
  private async keyOf(w: Write, group: DeviceGroupModel, apiKeyHashId: string): Promise<{ id: number }> {
    const id = this.hashIds.decode('apiKey', apiKeyHashId);
    const organizationId = id === null ? null : await this.directory.apiKeyOrganization(w.trx, id);
    if (id === null || organizationId === null) {
      throw new GridportError('not_found', { apiKeyHashId });
    }
    if (organizationId !== group.organizationId) {
      throw new GridportError('forbidden_organization', { apiKeyHashId, deviceGroupHashId: this.hashIds.encode('deviceGroup', group.id) });
    }
    return { id };
  }

  /** Links an API key of the group's organisation to the group; from then on the key sees only its groups' devices. */
  async linkApiKey(actor: Actor, input: DeviceGroupApiKey): Promise<void> {
    authorize(actor, 'deviceGroup.linkApiKey');
    await write(this.db, actor, async (w) => {
      const group = await this.find(input.deviceGroupHashId, w.trx, true);
      const key = await this.keyOf(w, group, input.apiKeyHashId);
      const inserted = (await w
        .trx('device_group_api_keys')
        .insert({ device_group_id: group.id, api_key_id: key.id })
        .onConflict(['device_group_id', 'api_key_id'])
        .ignore()
        .returning('api_key_id')) as unknown[];
      if (inserted.length === 0) {
        throw new GridportError('already_configured', { deviceGroupHashId: input.deviceGroupHashId, apiKeyHashId: input.apiKeyHashId });
      }
      await w.audit({
        objectType: 'device_groups',
        objectId: group.id,
        organizationId: group.organizationId,
        changeType: 'controllerUpdate',
        diff: [{ type: 'link-many', name: 'apiKeys', objectType: 'api_keys', addedHashIds: [input.apiKeyHashId], removedHashIds: [] }],
      });
    });
  }

  /** Unlinks an API key from the group; a key that is not linked is not_found. */
  async unlinkApiKey(actor: Actor, input: DeviceGroupApiKey): Promise<void> {
    authorize(actor, 'deviceGroup.unlinkApiKey');
    await write(this.db, actor, async (w) => {
      const group = await this.find(input.deviceGroupHashId, w.trx, true);
      const apiKeyId = this.hashIds.decode('apiKey', input.apiKeyHashId);
      const removed =
        apiKeyId === null
          ? []
          : ((await w.trx('device_group_api_keys').where({ device_group_id: group.id, api_key_id: apiKeyId }).delete().returning('api_key_id')) as unknown[]);
      if (removed.length === 0) {
        throw new GridportError('not_found', { deviceGroupHashId: input.deviceGroupHashId, apiKeyHashId: input.apiKeyHashId });
      }
      await w.audit({
        objectType: 'device_groups',
        objectId: group.id,
        organizationId: group.organizationId,
        changeType: 'controllerUpdate',
        diff: [{ type: 'link-many', name: 'apiKeys', objectType: 'api_keys', addedHashIds: [], removedHashIds: [input.apiKeyHashId] }],
      });
    });
  }
}
