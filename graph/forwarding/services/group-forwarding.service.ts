import type { BillingLedger } from '../../billing/services/billing-ledger';
import type { Knex } from 'knex';
import type { DiffEntry } from '../../../contracts/audit-log';
import { GridportError } from '../../../contracts/errors';
import {
  forwardingLimits,
  messageTypes as allMessageTypes,
  type GroupForwardingCreate,
  type GroupForwardingListQuery,
  type GroupForwardingUpdate,
  type GroupForwardingView,
  type MessageType,
} from '../../../contracts/forwarding';
import type { Page } from '../../../contracts/pagination';
import { authorize, type Actor } from '../../common/context';
import { findByHashId } from '../../common/find-by-hash-id';
import { pageRowsById } from '../../common/cursor';
import { sameJson } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { write, type Write } from '../../common/write';
import { GroupForwardingModel } from '../models/group-forwarding.model';
import { MessageDestinationModel } from '../models/message-destination.model';
import { isoTime } from '../../common/timestamps';

/** The fields of a device group forwarding reads (device_groups is the fleet's table; read, never written, here). */
interface GroupRow {
  id: number;
  organizationId: number;
  name: string;
}

/** Message types in their contract order, so a view and an audit entry read alike however they were given. */
function ordered(types: readonly MessageType[]): MessageType[] {
  return allMessageTypes.filter((type) => types.includes(type));
}

/**
 * The forwarding of device groups to message destinations (console.md sections 3 and 5): a
 * group forwards reports of some message types to a destination of its own organisation, each
 * pair once (already_configured), and each message type of a group to at most 3 destinations
 * (max_destinations_reached). Changes are audited on the device group.
 */
export class GroupForwardingService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    /** What a group forwards to names outage contacts that can count continuous support. */
    private readonly ledger: BillingLedger,
  ) {}

  private notFound(hashId: string): GridportError {
    return new GridportError('not_found', { deviceGroupMessageDestinationHashId: hashId });
  }

  private find(hashId: string, db: Knex): Promise<GroupForwardingModel> {
    return findByHashId(GroupForwardingModel, db, this.hashIds, 'deviceGroupMessageDestination', hashId);
  }

  /** The group behind a hash id, its row locked for the transaction: forwarding checks of one group run one at a time. */
  private async lockGroup(w: Write, hashId: string): Promise<GroupRow> {
    const id = this.hashIds.decode('deviceGroup', hashId);
    const row =
      id === null
        ? undefined
        : ((await w.trx('device_groups').where('id', id).forUpdate().first('id', 'organization_id', 'name')) as
            { id: string | number; organization_id: string | number; name: string } | undefined);
    if (!row) {
      throw new GridportError('not_found', { deviceGroupHashId: hashId });
    }
    return { id: Number(row.id), organizationId: Number(row.organization_id), name: row.name };
  }

  /** Every field of many forwardings in a fixed number of queries. */
  async present(forwardings: readonly GroupForwardingModel[], db: Knex = this.db): Promise<GroupForwardingView[]> {
    if (forwardings.length === 0) {
      return [];
    }
    const [groups, destinations] = await Promise.all([
      db('device_groups')
        .whereIn('id', [...new Set(forwardings.map((forwarding) => Number(forwarding.deviceGroupId)))])
        .select('id', 'name') as Promise<{ id: string | number; name: string }[]>,
      MessageDestinationModel.query(db)
        .whereIn('id', [...new Set(forwardings.map((forwarding) => Number(forwarding.messageDestinationId)))])
        .select('id', 'name', 'type'),
    ]);
    const groupName = new Map(groups.map((group) => [Number(group.id), group.name]));
    const destinationOf = new Map(destinations.map((destination) => [Number(destination.id), destination]));
    return forwardings.map((forwarding) => {
      const groupId = Number(forwarding.deviceGroupId);
      const destinationId = Number(forwarding.messageDestinationId);
      const destination = destinationOf.get(destinationId);
      return {
        hashId: this.hashIds.encode('deviceGroupMessageDestination', forwarding.id),
        deviceGroup: { hashId: this.hashIds.encode('deviceGroup', groupId), name: groupName.get(groupId) ?? '' },
        messageDestination: {
          hashId: this.hashIds.encode('messageDestination', destinationId),
          name: destination?.name ?? '',
          type: destination?.type ?? 'http',
        },
        messageTypes: ordered(forwarding.messageTypes),
        settings: forwarding.settings,
        createdAt: isoTime(new Date(forwarding.createdAt)),
      };
    });
  }

  private async presentOne(forwarding: GroupForwardingModel): Promise<GroupForwardingView> {
    const [view] = await this.present([forwarding]);
    if (!view) {
      throw this.notFound(this.hashIds.encode('deviceGroupMessageDestination', forwarding.id));
    }
    return view;
  }

  /**
   * Refuses `types` for the group when one of them would go to more than 3 destinations, counting
   * the group's other forwardings (the caller holds the group's lock).
   */
  private async checkDestinationCount(w: Write, groupId: number, types: readonly MessageType[], exceptId: number | null): Promise<void> {
    const others = await GroupForwardingModel.query(w.trx)
      .where('device_group_id', groupId)
      .modify((builder) => {
        if (exceptId !== null) {
          void builder.whereNot('id', exceptId);
        }
      })
      .select('id', 'message_types');
    const full = types.filter((type) => others.filter((other) => other.messageTypes.includes(type)).length >= forwardingLimits.maxDestinationsPerMessageType);
    if (full.length > 0) {
      throw new GridportError('max_destinations_reached', { messageTypes: ordered(full), max: forwardingLimits.maxDestinationsPerMessageType });
    }
  }

  private audit(w: Write, group: GroupRow, diff: DiffEntry[]): Promise<void> {
    return w.audit({
      objectType: 'device_groups',
      objectId: Number(group.id),
      organizationId: Number(group.organizationId),
      changeType: 'controllerUpdate',
      diff,
    });
  }

  /** Forwards a group's reports of some message types to a destination of the group's organisation. */
  async add(actor: Actor, input: GroupForwardingCreate): Promise<GroupForwardingView> {
    authorize(actor, 'groupForwarding.create');
    const forwarding = await write(this.db, actor, async (w) => {
      const group = await this.lockGroup(w, input.deviceGroupHashId);
      const destinationId = this.hashIds.decode('messageDestination', input.messageDestinationHashId);
      const destination =
        destinationId === null ? undefined : await MessageDestinationModel.query(w.trx).findById(destinationId).select('id', 'organization_id');
      if (!destination) {
        throw new GridportError('not_found', { messageDestinationHashId: input.messageDestinationHashId });
      }
      if (Number(destination.organizationId) !== Number(group.organizationId)) {
        throw new GridportError('payload_invalid', [
          { path: 'messageDestinationHashId', message: 'the message destination belongs to another organisation than the device group' },
        ]);
      }
      const existing = await GroupForwardingModel.query(w.trx).where({ device_group_id: group.id, message_destination_id: destination.id }).first();
      if (existing) {
        throw new GridportError('already_configured', {
          deviceGroupHashId: input.deviceGroupHashId,
          messageDestinationHashId: input.messageDestinationHashId,
          deviceGroupMessageDestinationHashId: this.hashIds.encode('deviceGroupMessageDestination', existing.id),
        });
      }
      const types = ordered(input.messageTypes);
      await this.checkDestinationCount(w, Number(group.id), types, null);
      const created = await GroupForwardingModel.query(w.trx).insertAndFetch({
        deviceGroupId: Number(group.id),
        messageDestinationId: Number(destination.id),
        messageTypes: types,
        settings: input.settings,
      });
      await this.ledger.groupChanged(w, Number(group.id), 'deviceGroupUpdate');
      await this.audit(w, group, [
        {
          type: 'link-many',
          name: 'messageDestinations',
          objectType: 'message_destinations',
          addedHashIds: [input.messageDestinationHashId],
          removedHashIds: [],
        },
        {
          type: 'json',
          name: `messageDestinations.${input.messageDestinationHashId}`,
          oldValue: null,
          newValue: { messageTypes: types, settings: input.settings },
        },
      ]);
      return created;
    });
    return this.presentOne(forwarding);
  }

  async get(actor: Actor, hashId: string): Promise<GroupForwardingView> {
    authorize(actor, 'groupForwarding.read');
    return this.presentOne(await this.find(hashId, this.db));
  }

  /** A group's forwardings, a destination's, or both's, newest first. */
  async list(actor: Actor, query: GroupForwardingListQuery): Promise<Page<GroupForwardingView>> {
    authorize(actor, 'groupForwarding.list');
    const builder = GroupForwardingModel.query(this.db);
    if (query.deviceGroupHashId !== undefined) {
      const id = this.hashIds.decode('deviceGroup', query.deviceGroupHashId);
      if (id === null) {
        throw new GridportError('not_found', { deviceGroupHashId: query.deviceGroupHashId });
      }
      void builder.where('device_group_id', id);
    }
    if (query.messageDestinationHashId !== undefined) {
      const id = this.hashIds.decode('messageDestination', query.messageDestinationHashId);
      if (id === null) {
        throw new GridportError('not_found', { messageDestinationHashId: query.messageDestinationHashId });
      }
      void builder.where('message_destination_id', id);
    }
    const page = await pageRowsById(builder, query);
    return { rows: await this.present(page.rows), nextPageOffset: page.nextPageOffset };
  }

  /**
   * The forwardings of each of several groups, newest first, in a fixed number of queries (the
   * GraphQL field DeviceGroup.messageDestinations). Unpaged: a group has at most 3 destinations
   * per message type. A hash id that names no group answers an empty list.
   */
  async ofGroups(actor: Actor, groupHashIds: readonly string[]): Promise<Map<string, GroupForwardingView[]>> {
    authorize(actor, 'groupForwarding.list');
    const ids = groupHashIds.map((hashId) => this.hashIds.decode('deviceGroup', hashId)).filter((id): id is number => id !== null);
    const forwardings =
      ids.length === 0
        ? []
        : await GroupForwardingModel.query(this.db)
            .whereIn('device_group_id', [...new Set(ids)])
            .orderBy('id', 'desc');
    const byGroup = new Map<string, GroupForwardingView[]>(groupHashIds.map((hashId) => [hashId, []]));
    for (const view of await this.present(forwardings)) {
      byGroup.get(view.deviceGroup.hashId)?.push(view);
    }
    return byGroup;
  }

  /** Changes the message types or the settings of a forwarding, with the same limit per message type. */
  async update(actor: Actor, hashId: string, patch: GroupForwardingUpdate): Promise<GroupForwardingView> {
    authorize(actor, 'groupForwarding.update');
    const forwarding = await write(this.db, actor, async (w) => {
      const found = await this.find(hashId, w.trx);
      const group = await this.lockGroup(w, this.hashIds.encode('deviceGroup', found.deviceGroupId));
      // Read again under the group's lock: a concurrent change of the same forwarding is seen.
      const before = await this.find(hashId, w.trx);
      const changes: Partial<GroupForwardingModel> = {};
      if (patch.messageTypes !== undefined) {
        const types = ordered(patch.messageTypes);
        const added = types.filter((type) => !before.messageTypes.includes(type));
        await this.checkDestinationCount(w, Number(group.id), added, Number(before.id));
        changes.messageTypes = types;
      }
      if (patch.settings !== undefined) {
        changes.settings = patch.settings;
      }
      const oldValue = { messageTypes: ordered(before.messageTypes), settings: before.settings };
      const newValue = { messageTypes: changes.messageTypes ?? oldValue.messageTypes, settings: changes.settings ?? before.settings };
      if (sameJson(oldValue, newValue)) {
        return before;
      }
      const after = await GroupForwardingModel.query(w.trx).patchAndFetchById(before.id, { ...changes, updatedAt: new Date() });
      const destinationHashId = this.hashIds.encode('messageDestination', before.messageDestinationId);
      await this.audit(w, group, [{ type: 'json', name: `messageDestinations.${destinationHashId}`, oldValue, newValue }]);
      return after;
    });
    return this.presentOne(forwarding);
  }

  /** Stops forwarding a group to a destination. */
  async remove(actor: Actor, hashId: string): Promise<void> {
    authorize(actor, 'groupForwarding.delete');
    await write(this.db, actor, async (w) => {
      const found = await this.find(hashId, w.trx);
      const group = await this.lockGroup(w, this.hashIds.encode('deviceGroup', found.deviceGroupId));
      const removed = (await w.trx('device_group_message_destinations').where('id', found.id).delete().returning('id')) as unknown[];
      if (removed.length === 0) {
        throw this.notFound(hashId);
      }
      const destinationHashId = this.hashIds.encode('messageDestination', found.messageDestinationId);
      await this.ledger.groupChanged(w, Number(group.id), 'deviceGroupUpdate');
      await this.audit(w, group, [
        { type: 'link-many', name: 'messageDestinations', objectType: 'message_destinations', addedHashIds: [], removedHashIds: [destinationHashId] },
        {
          type: 'json',
          name: `messageDestinations.${destinationHashId}`,
          oldValue: { messageTypes: ordered(found.messageTypes), settings: found.settings },
          newValue: null,
        },
      ]);
    });
  }
}
