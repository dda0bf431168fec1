import type { Knex } from 'knex';
import type { QueryBuilder } from 'objection';
import type { DiffEntry } from '../../../contracts/audit-log';
import { GridportError, type ValidationIssue } from '../../../contracts/errors';
import type { PartnershipRole } from '../../../contracts/fleet';
import type { Page } from '../../../contracts/pagination';
import type {
  CustomerPartnershipListQuery,
  PartnershipCreate,
  PartnershipListQuery,
  PartnershipPageQuery,
  PartnershipUpdate,
  PartnershipView,
} from '../../../contracts/partnership';
import { authorize, isStaff, type Actor } from '../../common/context';
import { pageRowsById } from '../../common/cursor';
import { diffObjects, type FieldTypes } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { containsPattern } from '../../common/like';
import { write, type Write } from '../../common/write';
import type { IdentityDirectory } from '../../identity/services/directory.service';
import { DeviceModel } from '../models/device.model';
import { PartnershipModel } from '../models/partnership.model';

/** A partnership as the audit log shows it: organisations by hash id. */
interface AuditedPartnership {
  ownerOrganizationHashId: string;
  partnerOrganizationHashId: string;
  role: PartnershipRole;
  description: string;
  allDevices: boolean;
}

const auditedFields: FieldTypes<AuditedPartnership> = {
  ownerOrganizationHashId: 'id',
  partnerOrganizationHashId: 'id',
  role: 'string',
  description: 'string',
  allDevices: 'boolean',
};

/** PostgreSQL's unique_violation: two writers raced to create the same owner and partner. */
const uniqueViolation = '23505';

/**
 * Partnerships (console.md sections 3, 6 and 7): an owner organisation shares all its devices,
 * or the listed ones, with a partner organisation, as viewer or operator. What a partner then
 * sees and steers is decided by limitToAccessible (device-access.ts) from these rows.
 */
export class PartnershipService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly directory: IdentityDirectory,
  ) {}

  private decode(hashId: string): number {
    const id = this.hashIds.decode('partnership', hashId);
    if (id === null) {
      throw new GridportError('not_found', { partnershipHashId: hashId });
    }
    return id;
  }

  private audited(row: Pick<PartnershipModel, 'ownerOrganizationId' | 'partnerOrganizationId' | 'role' | 'description' | 'allDevices'>): AuditedPartnership {
    return {
      ownerOrganizationHashId: this.hashIds.encode('organization', row.ownerOrganizationId),
      partnerOrganizationHashId: this.hashIds.encode('organization', row.partnerOrganizationId),
      role: row.role,
      description: row.description,
      allDevices: row.allDevices,
    };
  }

  /** The change of the device list as a link-many entry, or nothing when it did not change. */
  private deviceDiff(before: readonly number[], after: readonly number[]): DiffEntry[] {
    const added = after.filter((id) => !before.includes(id));
    const removed = before.filter((id) => !after.includes(id));
    if (added.length === 0 && removed.length === 0) {
      return [];
    }
    const encode = (ids: number[]) => ids.map((id) => this.hashIds.encode('device', id));
    return [{ type: 'link-many', name: 'devices', objectType: 'devices', addedHashIds: encode(added), removedHashIds: encode(removed) }];
  }

  /** An organisation by hash id; one that does not decode or exist is not_found, named by `field`. */
  private async organization(trx: Knex, field: string, hashId: string): Promise<{ id: number }> {
    const id = this.hashIds.decode('organization', hashId);
    if (id === null || !(await this.directory.organizationExists(trx, id))) {
      throw new GridportError('not_found', { [field]: hashId });
    }
    return { id };
  }

  /**
   * The listed devices by hash id, each once. A hash id that does not decode is not_found; a
   * device that is not the owner's (or does not exist) is payload_invalid at its path.
   */
  private async ownedDevices(trx: Knex, ownerOrganizationId: number, hashIds: readonly string[]): Promise<number[]> {
    const ids = hashIds.map((hashId) => {
      const id = this.hashIds.decode('device', hashId);
      if (id === null) {
        throw new GridportError('not_found', { deviceHashId: hashId });
      }
      return id;
    });
    if (ids.length === 0) {
      return [];
    }
    const owned = new Set(
      (
        await DeviceModel.query(trx)
          .whereIn('id', [...new Set(ids)])
          .where('organization_id', ownerOrganizationId)
          .select('id')
      ).map((device) => Number(device.id)),
    );
    const issues: ValidationIssue[] = hashIds.flatMap((hashId, index) =>
      owned.has(ids[index] ?? -1) ? [] : [{ path: `deviceHashIds[${index}]`, message: `device ${hashId} is not a device of the owner organisation` }],
    );
    if (issues.length > 0) {
      throw new GridportError('payload_invalid', issues);
    }
    return [...new Set(ids)];
  }

  private async listedDeviceIds(trx: Knex, partnershipId: number): Promise<number[]> {
    const rows = (await trx('partnership_devices').where('partnership_id', partnershipId).orderBy('device_id')) as { device_id: string | number }[];
    return rows.map((row) => Number(row.device_id));
  }

  private async replaceDevices(w: Write, partnershipId: number, deviceIds: readonly number[]): Promise<void> {
    await w.trx('partnership_devices').where('partnership_id', partnershipId).delete();
    if (deviceIds.length > 0) {
      await w.trx('partnership_devices').insert(deviceIds.map((deviceId) => ({ partnership_id: partnershipId, device_id: deviceId })));
    }
  }

  /**
   * Every field of many partnerships in a fixed number of queries: the listed devices that still
   * belong to the owner, and how many devices each owner sharing all of them has.
   */
  async present(rows: readonly PartnershipModel[], db: Knex = this.db): Promise<PartnershipView[]> {
    if (rows.length === 0) {
      return [];
    }
    const sharingAll = [...new Set(rows.filter((row) => row.allDevices).map((row) => row.ownerOrganizationId))];
    const listing = rows.filter((row) => !row.allDevices).map((row) => row.id);
    const listedDevices = async () =>
      listing.length === 0
        ? []
        : ((await db('partnership_devices')
            .join('devices', 'devices.id', 'partnership_devices.device_id')
            .join('partnerships', 'partnerships.id', 'partnership_devices.partnership_id')
            .whereIn('partnership_devices.partnership_id', listing)
            .whereRaw('devices.organization_id = partnerships.owner_organization_id')
            .orderBy('partnership_devices.device_id')
            .select('partnership_devices.partnership_id', 'partnership_devices.device_id')) as {
            partnership_id: string | number;
            device_id: string | number;
          }[]);
    const deviceCounts = async () =>
      sharingAll.length === 0
        ? []
        : ((await db('devices').whereIn('organization_id', sharingAll).groupBy('organization_id').select('organization_id', db.raw('count(*) as count'))) as {
            organization_id: string | number;
            count: string | number;
          }[]);
    const [nameOf, listed, counts] = await Promise.all([
      this.directory.organizationNames(
        db,
        rows.flatMap((row) => [row.ownerOrganizationId, row.partnerOrganizationId]),
      ),
      listedDevices(),
      deviceCounts(),
    ]);
    const countOf = new Map(counts.map((row) => [Number(row.organization_id), Number(row.count)]));
    const reference = (id: number) => ({ hashId: this.hashIds.encode('organization', id), name: nameOf.get(id) ?? '' });
    return rows.map((row) => {
      const deviceHashIds = row.allDevices
        ? []
        : listed.filter((link) => Number(link.partnership_id) === row.id).map((link) => this.hashIds.encode('device', Number(link.device_id)));
      return {
        hashId: this.hashIds.encode('partnership', row.id),
        owner: reference(row.ownerOrganizationId),
        partner: reference(row.partnerOrganizationId),
        role: row.role,
        description: row.description,
        allDevices: row.allDevices,
        deviceCount: row.allDevices ? (countOf.get(row.ownerOrganizationId) ?? 0) : deviceHashIds.length,
        deviceHashIds,
      };
    });
  }

  /**
   * The names of devices that partnerships list, by device hash id, in one query: only devices
   * listed by a partnership the actor may see (any for staff, their organisation's own and
   * accepted ones for customers); any other hash id is left out.
   */
  async listedDeviceNames(actor: Actor, deviceHashIds: readonly string[]): Promise<Map<string, string>> {
    authorize(actor, 'partnership.list', 'partnership.listOwn');
    const hashIdOf = new Map<number, string>();
    for (const hashId of deviceHashIds) {
      const id = this.hashIds.decode('device', hashId);
      if (id !== null) {
        hashIdOf.set(id, hashId);
      }
    }
    if (hashIdOf.size === 0) {
      return new Map();
    }
    const query = this.db('devices')
      .join('partnership_devices', 'partnership_devices.device_id', 'devices.id')
      .join('partnerships', 'partnerships.id', 'partnership_devices.partnership_id')
      .whereIn('devices.id', [...hashIdOf.keys()])
      .distinct('devices.id', 'devices.name');
    if (!isStaff(actor)) {
      const organizationId = actor.organizationId ?? -1;
      void query.where(
        (inner) => void inner.where('partnerships.owner_organization_id', organizationId).orWhere('partnerships.partner_organization_id', organizationId),
      );
    }
    const devices = (await query) as { id: string | number; name: string }[];
    return new Map(
      devices.flatMap((device) => {
        const hashId = hashIdOf.get(Number(device.id));
        return hashId === undefined ? [] : [[hashId, device.name] as const];
      }),
    );
  }

  private async page(
    builder: QueryBuilder<PartnershipModel, PartnershipModel[]>,
    query: { offset?: string | undefined; rowsPerPage: number },
  ): Promise<Page<PartnershipView>> {
    const page = await pageRowsById(builder, query, 'partnerships.id');
    return { rows: await this.present(page.rows), nextPageOffset: page.nextPageOffset };
  }

  private async view(id: number): Promise<PartnershipView> {
    const row = await PartnershipModel.query(this.db).findById(id);
    const [view] = row ? await this.present([row]) : [];
    if (!view) {
      throw new GridportError('not_found', { partnershipHashId: this.hashIds.encode('partnership', id) });
    }
    return view;
  }

  /** GET /console-admin/v1/partnership: every partnership, newest first, optionally of one organisation (owner or partner). */
  async list(actor: Actor, query: PartnershipListQuery): Promise<Page<PartnershipView>> {
    authorize(actor, 'partnership.list');
    const builder = PartnershipModel.query(this.db);
    if (query.organizationHashId !== undefined) {
      const organizationId = this.hashIds.decode('organization', query.organizationHashId);
      if (organizationId === null) {
        throw new GridportError('not_found', { organizationHashId: query.organizationHashId });
      }
      void builder.where(
        (inner) => void inner.where('partnerships.owner_organization_id', organizationId).orWhere('partnerships.partner_organization_id', organizationId),
      );
    }
    if (query.filter) {
      const pattern = containsPattern(query.filter);
      void builder.where((inner) => {
        void inner
          .whereILike('partnerships.description', pattern)
          .orWhereIn('partnerships.owner_organization_id', this.directory.organizationsNamedLike(pattern))
          .orWhereIn('partnerships.partner_organization_id', this.directory.organizationsNamedLike(pattern));
      });
    }
    return this.page(builder, query);
  }

  /** GET /console/v1/partnership: the partnerships in which the caller's organisation is the owner (own) or the partner (accepted). */
  async customerList(actor: Actor, query: CustomerPartnershipListQuery): Promise<Page<PartnershipView>> {
    authorize(actor, 'partnership.listOwn');
    const organizationId = actor.organizationId ?? -1;
    const builder = PartnershipModel.query(this.db);
    if (query.kind === 'own') {
      void builder.where('partnerships.owner_organization_id', organizationId);
    } else if (query.kind === 'accepted') {
      void builder.where('partnerships.partner_organization_id', organizationId);
    } else {
      void builder.where(
        (inner) => void inner.where('partnerships.owner_organization_id', organizationId).orWhere('partnerships.partner_organization_id', organizationId),
      );
    }
    return this.page(builder, query);
  }

  /** GET /console-admin/v1/partnership/device/{hashId}: the partnerships that share a device (all its owner's devices, or listing it). */
  async listOfDevice(actor: Actor, deviceHashId: string, query: PartnershipPageQuery): Promise<Page<PartnershipView>> {
    authorize(actor, 'partnership.listOfDevice');
    const deviceId = this.hashIds.decode('device', deviceHashId);
    const device = deviceId === null ? undefined : await DeviceModel.query(this.db).findById(deviceId);
    if (!device) {
      throw new GridportError('not_found', { deviceHashId });
    }
    const builder = PartnershipModel.query(this.db)
      .where('partnerships.owner_organization_id', device.organizationId ?? -1)
      .where((covering) => {
        void covering.where('partnerships.all_devices', true).orWhereExists((listed) => {
          void listed
            .select(this.db.raw('1'))
            .from('partnership_devices')
            .whereColumn('partnership_devices.partnership_id', 'partnerships.id')
            .where('partnership_devices.device_id', device.id);
        });
      });
    return this.page(builder, query);
  }

  /** POST /console-admin/v1/partnership */
  async create(actor: Actor, input: PartnershipCreate): Promise<PartnershipView> {
    authorize(actor, 'partnership.create');
    const id = await write(this.db, actor, async (w) => {
      const owner = await this.organization(w.trx, 'ownerOrganizationHashId', input.ownerOrganizationHashId);
      const partner = await this.organization(w.trx, 'partnerOrganizationHashId', input.partnerOrganizationHashId);
      if (owner.id === partner.id) {
        throw new GridportError('payload_invalid', [
          { path: 'partnerOrganizationHashId', message: 'partnerOrganizationHashId must be another organisation than the owner' },
        ]);
      }
      const existing = await PartnershipModel.query(w.trx).where('owner_organization_id', owner.id).where('partner_organization_id', partner.id).first();
      if (existing) {
        throw new GridportError('already_configured', { partnershipHashId: this.hashIds.encode('partnership', existing.id) });
      }
      const deviceIds = input.allDevices ? [] : await this.ownedDevices(w.trx, owner.id, input.deviceHashIds);
      let row: PartnershipModel;
      try {
        row = await PartnershipModel.query(w.trx).insertAndFetch({
          ownerOrganizationId: owner.id,
          partnerOrganizationId: partner.id,
          role: input.role,
          description: input.description,
          allDevices: input.allDevices,
        });
      } catch (error) {
        if ((error as { code?: unknown }).code === uniqueViolation) {
          throw new GridportError('already_configured', {
            ownerOrganizationHashId: input.ownerOrganizationHashId,
            partnerOrganizationHashId: input.partnerOrganizationHashId,
          });
        }
        throw error;
      }
      await this.replaceDevices(w, row.id, deviceIds);
      await w.audit({
        objectType: 'partnerships',
        objectId: row.id,
        organizationId: row.ownerOrganizationId,
        changeType: 'controllerCreate',
        diff: [...diffObjects(auditedFields, null, this.audited(row)), ...this.deviceDiff([], deviceIds)],
      });
      return row.id;
    });
    return this.view(id);
  }

  /** PUT /console-admin/v1/partnership/{hashId}: role, description, allDevices, and the device list (replaced when given). */
  async update(actor: Actor, hashId: string, patch: PartnershipUpdate): Promise<PartnershipView> {
    authorize(actor, 'partnership.update');
    const id = this.decode(hashId);
    await write(this.db, actor, async (w) => {
      const before = await PartnershipModel.query(w.trx).findById(id).forUpdate();
      if (!before) {
        throw new GridportError('not_found', { partnershipHashId: hashId });
      }
      const listedBefore = await this.listedDeviceIds(w.trx, id);
      const changes: Partial<PartnershipModel> = {};
      if (patch.role !== undefined) {
        changes.role = patch.role;
      }
      if (patch.description !== undefined) {
        changes.description = patch.description;
      }
      if (patch.allDevices !== undefined) {
        changes.allDevices = patch.allDevices;
      }
      const allDevices = changes.allDevices ?? before.allDevices;
      // Sharing all devices needs no list; the list given replaces the stored one; otherwise it stays.
      const listedAfter = allDevices
        ? []
        : patch.deviceHashIds !== undefined
          ? await this.ownedDevices(w.trx, before.ownerOrganizationId, patch.deviceHashIds)
          : listedBefore;
      const after =
        Object.keys(changes).length === 0 ? before : await PartnershipModel.query(w.trx).patchAndFetchById(id, { ...changes, updatedAt: new Date() });
      const devicesDiff = this.deviceDiff(listedBefore, listedAfter);
      if (devicesDiff.length > 0) {
        await this.replaceDevices(w, id, listedAfter);
      }
      const diff = [...diffObjects(auditedFields, this.audited(before), this.audited(after)), ...devicesDiff];
      if (diff.length > 0) {
        await w.audit({ objectType: 'partnerships', objectId: id, organizationId: before.ownerOrganizationId, changeType: 'controllerUpdate', diff });
      }
    });
    return this.view(id);
  }

  /** DELETE /console-admin/v1/partnership/{hashId}: the partnership and its device list; the partner loses access at once. */
  async delete(actor: Actor, hashId: string): Promise<void> {
    authorize(actor, 'partnership.delete');
    const id = this.decode(hashId);
    await write(this.db, actor, async (w) => {
      const before = await PartnershipModel.query(w.trx).findById(id).forUpdate();
      if (!before) {
        throw new GridportError('not_found', { partnershipHashId: hashId });
      }
      const listed = await this.listedDeviceIds(w.trx, id);
      await w.trx('partnership_devices').where('partnership_id', id).delete();
      await PartnershipModel.query(w.trx).deleteById(id);
      await w.audit({
        objectType: 'partnerships',
        objectId: id,
        organizationId: before.ownerOrganizationId,
        changeType: 'controllerDelete',
        diff: [...diffObjects(auditedFields, this.audited(before), null), ...this.deviceDiff(listed, [])],
      });
    });
  }
}
