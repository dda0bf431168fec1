import { randomBytes } from 'node:crypto';
import { secretHash } from '../../common/secret-hash';
import type { Knex } from 'knex';
import { categoryOfType, configIssues, parseDeviceConfig, type DeviceConfig } from '../../../contracts/device';
import { GridportError } from '../../../contracts/errors';
import {
  identifierPlaceholder,
  productionLockedFields,
  type AdminDeviceListQuery,
  type CustomerDeviceListQuery,
  type CustomerDeviceUpdate,
  type DeviceInvoiceDetails,
  type DevicePartnershipView,
  type DeviceShip,
  type DeviceUpdate,
  type DeviceView,
  type Subscription,
} from '../../../contracts/fleet';
import type { Page } from '../../../contracts/pagination';
import { anyUserRights, type Right } from '../../../contracts/rights';
import { isStaff, requireRights, type Actor } from '../../common/context';
import { pageRowsById } from '../../common/cursor';
import { diffObjects, sameJson, type FieldTypes } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { containsPattern } from '../../common/like';
import { listOrganizationScope } from '../../common/tenancy';
import { write, type Write } from '../../common/write';
import { OrganizationModel } from '../../identity/models/organization.model';
import { UserModel } from '../../identity/models/user.model';
import { DeviceComponentModel } from '../models/device-component.model';
import { DeviceGroupModel } from '../models/device-group.model';
import { DeviceModel } from '../models/device.model';
import { DeviceScheduleModel } from '../models/device-schedule.model';
import { PartnershipModel } from '../models/partnership.model';
import { limitToAccessible, type DeviceAccess } from './device-access';
import type { DeviceOutboxService } from './device-outbox.service';

/** Who may change devices (console.md section 6): Ops and Developer; invoice details: Ops and Sales. */
const deviceWriters: Right[] = ['gridport.ops', 'gridport.developer'];
const invoiceWriters: Right[] = ['gridport.ops', 'gridport.sales'];

const auditedFields: FieldTypes<DeviceModel> = {
  name: 'string',
  organizationId: 'number',
  deviceGroupId: 'number',
  identifier: 'string',
  balenaUuid: 'string',
  iccid: 'string',
  imsi: 'string',
  config: 'json',
  monitorSettings: 'json',
  subscription: 'json',
  subscriptionChargedUntil: 'date',
  invoiceCustomerReference: 'string',
  monitorConnectivity: 'boolean',
  exportMessages: 'boolean',
  cloudApi: 'string',
  openForProvisioning: 'boolean',
  provisioningTokenHash: 'hidden',
  outageEmails: 'json',
  outageUserIds: 'json',
  isExposedToCustomer: 'boolean',
  inProduction: 'boolean',
};


/** Fields of a device update stored as they are given. */
const copiedFields = ['name', 'balenaUuid', 'iccid', 'imsi', 'monitorSettings', 'monitorConnectivity', 'exportMessages', 'cloudApi', 'openForProvisioning', 'outageEmails', 'isExposedToCustomer', 'inProduction'] as const satisfies readonly (keyof DeviceUpdate & keyof DeviceModel)[];

/** A subscription as the devices table keeps it (JSON: the start as ISO 8601). */
function storedSubscription(subscription: Subscription | null): Record<string, unknown> | null {
  return subscription === null ? null : { ...subscription, startAt: subscription.startAt.toISOString() };
}

/** A row of device_components. */
export type ComponentRow = Pick<DeviceComponentModel, 'deviceId' | 'kind' | 'index' | 'category' | 'type' | 'identifier' | 'nominalActivePower'>;

/** The rows of device_components a config gives: its assets and its active-control loops, by index. */
export function componentsOf(deviceId: number, config: DeviceConfig | null): ComponentRow[] {
  if (!config) {
    return [];
  }
  const assets = (config.assets as { type: string; identifier?: string | null; nominalActivePower?: number | null }[]).map((asset, index) => ({
    deviceId,
    kind: 'asset' as const,
    index,
    category: categoryOfType(asset.type) ?? null,
    type: asset.type,
    identifier: asset.identifier ?? null,
    nominalActivePower: asset.nominalActivePower ?? null,
  }));
  const controllers = ((config.activeControl ?? []) as { type: string; identifier?: string | null }[]).map((loop, index) => ({
    deviceId,
    kind: 'controller' as const,
    index,
    category: null,
    type: loop.type,
    identifier: loop.identifier ?? null,
    nominalActivePower: null,
  }));
  return [...assets, ...controllers];
}

/** The nominal active power of a device, in W: the sum over its assets. */
export function nominalActivePowerOf(components: readonly ComponentRow[]): number {
  return components.reduce((sum, component) => sum + (component.kind === 'asset' ? (component.nominalActivePower ?? 0) : 0), 0);
}

/** Component rows as device_components columns, for bulk inserts. */
export function componentColumns(components: readonly ComponentRow[]): Record<string, unknown>[] {
  return components.map((component) => ({
    device_id: component.deviceId,
    kind: component.kind,
    index: component.index,
    category: component.category,
    type: component.type,
    identifier: component.identifier,
    nominal_active_power: component.nominalActivePower,
  }));
}

/** The identifier rule of exposure: every asset has an identifier, each used once (console.md section 5). */
function identifierProblem(config: Record<string, unknown>): GridportError | null {
  const assets: unknown[] = Array.isArray(config.assets) ? config.assets : [];
  const identifiers = assets.map((asset) => {
    const identifier = (asset as { identifier?: unknown } | null)?.identifier;
    return typeof identifier === 'string' ? identifier.trim() : '';
  });
  const missing = identifiers.flatMap((identifier, index) => (identifier === '' ? [index] : []));
  if (missing.length > 0) {
    return new GridportError('not_all_assets_have_identifier', { assetIndices: missing });
  }
  const offendingIdentifier = identifiers.find((identifier, index) => identifiers.indexOf(identifier) !== index);
  return offendingIdentifier === undefined ? null : new GridportError('asset_identifiers_are_not_unique', { offendingIdentifier });
}

/**
 * A device may be shown to customers only with a valid config whose assets all carry an
 * identifier, each once (console.md section 4). The identifier rule is told first, by its own
 * key, even where the config schema would also refuse the duplicate.
 */
function exposureProblem(config: Record<string, unknown> | null): GridportError | null {
  if (!config) {
    return new GridportError('no_valid_config');
  }
  return identifierProblem(config) ?? (configIssues(config).length > 0 ? new GridportError('no_valid_config') : null);
}

/** Secrets a customer never sees in a config: the VPN credentials. */
function redactedConfig(config: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!config || typeof config.vpn !== 'object' || config.vpn === null) {
    return config;
  }
  return { ...config, vpn: { ...(config.vpn as Record<string, unknown>), credentials: null } };
}

export interface DeviceShipped {
  hashId: string;
  /** Shown once: the device presents it when it asks for its certificate. */
  provisioningToken: string;
}

export interface DeviceCounts {
  totalCount: number;
  operationalCount: number;
  inactiveCount: number;
}

/**
 * Devices (console.md sections 3, 4 and 7): shipping, the admin and customer reads, updates
 * with their rules (config validity, production lock, exposure), and the outbox entries that
 * carry a change to the device.
 */
export class DeviceService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly outbox: DeviceOutboxService,
  ) {}

  private decode(hashId: string): number {
    const id = this.hashIds.decode('device', hashId);
    if (id === null) {
      throw new GridportError('not_found', { deviceHashId: hashId });
    }
    return id;
  }

  /** The devices the actor may see (or steer), as a query to refine. */
  accessible(actor: Actor, access: DeviceAccess = 'read', db: Knex = this.db) {
    const builder = DeviceModel.query(db);
    limitToAccessible(builder, actor, access);
    return builder;
  }

  /** One device the actor may see (or steer); another's, or one that does not exist, is not_found. */
  async find(actor: Actor, hashId: string, access: DeviceAccess = 'read', db: Knex = this.db): Promise<DeviceModel> {
    const device = await this.accessible(actor, access, db).findById(this.decode(hashId));
    if (!device) {
      throw new GridportError('not_found', { deviceHashId: hashId });
    }
    return device;
  }

  /** Every field of many devices, in a fixed number of queries however many there are. */
  async present(actor: Actor, devices: readonly DeviceModel[], db: Knex = this.db): Promise<DeviceView[]> {
    if (devices.length === 0) {
      return [];
    }
    const ids = devices.map((device) => device.id);
    const organizationIds = [...new Set(devices.flatMap((device) => (device.organizationId === null ? [] : [device.organizationId])))];
    const userIds = [...new Set(devices.flatMap((device) => device.outageUserIds))];
    const [organizations, components, schedules, partnerships, users] = await Promise.all([
      organizationIds.length === 0 ? [] : OrganizationModel.query(db).whereIn('id', organizationIds).select('id', 'name'),
      DeviceComponentModel.query(db).whereIn('device_id', ids).orderBy(['device_id', 'kind', 'index']),
      DeviceScheduleModel.query(db).whereIn('device_id', ids),
      this.partnershipsOf(devices, db),
      userIds.length === 0 ? [] : UserModel.query(db).whereIn('id', userIds).select('id', 'name', 'email'),
    ]);
    const organizationName = new Map(organizations.map((organization) => [organization.id, organization.name]));
    const userById = new Map(users.map((user) => [user.id, user]));
    const staff = isStaff(actor);
    // Grouped once, so that a page costs time in proportion to its rows.
    const componentsByDevice = new Map<number, DeviceComponentModel[]>();
    for (const component of components) {
      const list = componentsByDevice.get(component.deviceId);
      if (list) {
        list.push(component);
      } else {
        componentsByDevice.set(component.deviceId, [component]);
      }
    }
    const scheduleByKey = new Map(schedules.map((row) => [`${row.deviceId}/${row.kind}/${row.identifier}`, row.items]));
    return devices.map((device) => {
      const scheduleOf = (kind: 'asset' | 'controller', identifier: string | null) => (identifier === null ? undefined : scheduleByKey.get(`${device.id}/${kind}/${identifier}`)) ?? [];
      const own = componentsByDevice.get(device.id) ?? [];
      const organizationHashId = device.organizationId === null ? null : this.hashIds.encode('organization', device.organizationId);
      return {
        hashId: this.hashIds.encode('device', device.id),
        deviceGroupHashId: device.deviceGroupId === null ? null : this.hashIds.encode('deviceGroup', device.deviceGroupId),
        organizationHashId,
        organizationName: device.organizationId === null ? null : (organizationName.get(device.organizationId) ?? null),
        identifier: device.identifier ?? identifierPlaceholder,
        balenaUuid: device.balenaUuid,
        balenaOsVersion: device.balenaOsVersion,
        version: device.version,
        iccid: device.iccid,
        imsi: device.imsi,
        name: device.name,
        config: staff ? device.config : redactedConfig(device.config),
        nominalActivePowerSum: device.nominalActivePowerSum,
        monitorSettings: device.monitorSettings,
        subscription: device.subscription,
        subscriptionChargedUntil: device.subscriptionChargedUntil ? new Date(device.subscriptionChargedUntil).toISOString() : null,
        invoiceCustomerReference: device.invoiceCustomerReference,
        monitorConnectivity: device.monitorConnectivity,
        exportMessages: device.exportMessages,
        cloudApi: device.cloudApi,
        openForProvisioning: device.openForProvisioning,
        outageEmails: device.outageEmails,
        outageUsers: device.outageUserIds.flatMap((id) => {
          const user = userById.get(id);
          return user ? [{ hashId: this.hashIds.encode('user', id), name: user.name, email: user.email }] : [];
        }),
        reportingInterval: device.reportingInterval,
        activeSession: device.online ? { networkInterface: device.networkInterface } : null,
        isOnline: device.online,
        isExposedToCustomer: device.isExposedToCustomer,
        inProduction: device.inProduction,
        assets: own
          .filter((component) => component.kind === 'asset')
          .map(({ index, category, type, identifier, nominalActivePower }) => ({ index, category, type, identifier, nominalActivePower, schedule: scheduleOf('asset', identifier) })),
        controllers: own
          .filter((component) => component.kind === 'controller')
          .map(({ index, type, identifier }) => ({ index, type, identifier, schedule: scheduleOf('controller', identifier) })),
        partnerships: partnerships
          .filter((partnership) => partnership.ownerOrganizationId === device.organizationId && (partnership.allDevices || partnership.deviceIds.has(device.id)))
          .filter((partnership) => staff || partnership.ownerOrganizationId === actor.organizationId || partnership.partnerOrganizationId === actor.organizationId)
          .map((partnership) => partnership.view),
      };
    });
  }

  private async partnershipsOf(devices: readonly DeviceModel[], db: Knex): Promise<{ ownerOrganizationId: number; partnerOrganizationId: number; allDevices: boolean; deviceIds: Set<number>; view: DevicePartnershipView }[]> {
    const owners = [...new Set(devices.flatMap((device) => (device.organizationId === null ? [] : [device.organizationId])))];
    if (owners.length === 0) {
      return [];
    }
    const rows = await PartnershipModel.query(db).whereIn('owner_organization_id', owners).withGraphFetched('[owner, partner]');
    const listed = rows.length === 0 ? [] : ((await db('partnership_devices').whereIn('partnership_id', rows.map((row) => row.id)).whereIn('device_id', devices.map((device) => device.id))) as { partnership_id: string | number; device_id: string | number }[]);
    return rows.map((row) => ({
      ownerOrganizationId: row.ownerOrganizationId,
      partnerOrganizationId: row.partnerOrganizationId,
      allDevices: row.allDevices,
      deviceIds: new Set(listed.filter((link) => Number(link.partnership_id) === row.id).map((link) => Number(link.device_id))),
      view: {
        hashId: this.hashIds.encode('partnership', row.id),
        role: row.role,
        description: row.description,
        allDevices: row.allDevices,
        owner: { hashId: this.hashIds.encode('organization', row.ownerOrganizationId), name: row.owner?.name ?? '' },
        partner: { hashId: this.hashIds.encode('organization', row.partnerOrganizationId), name: row.partner?.name ?? '' },
      },
    }));
  }

  async get(actor: Actor, hashId: string): Promise<DeviceView> {
    requireRights(actor, anyUserRights);
    return this.presentOne(actor, await this.find(actor, hashId));
  }

  /** The admin device list with every filter of console.md section 7, newest first. */
  async list(actor: Actor, query: AdminDeviceListQuery): Promise<Page<DeviceView>> {
    requireRights(actor, ['gridport.employee']);
    const builder = this.accessible(actor);
    const organizationId = listOrganizationScope(actor, this.hashIds, query.organizationHashId);
    if (organizationId !== null) {
      void builder.where('devices.organization_id', organizationId);
    }
    if (query.filter) {
      const pattern = containsPattern(query.filter);
      void builder.where((inner) => void inner.whereILike('devices.name', pattern).orWhereILike('devices.identifier', pattern));
    }
    if (query.hashId) {
      void builder.where('devices.id', this.hashIds.decode('device', query.hashId) ?? -1);
    }
    if (query.deviceGroupHashId === 'any') {
      void builder.whereNotNull('devices.device_group_id');
    } else if (query.deviceGroupHashId === 'none') {
      void builder.whereNull('devices.device_group_id');
    } else if (query.deviceGroupHashId) {
      void builder.where('devices.device_group_id', this.hashIds.decode('deviceGroup', query.deviceGroupHashId) ?? -1);
    }
    for (const [value, column] of [
      [query.iccid, 'devices.iccid'],
      [query.imsi, 'devices.imsi'],
    ] as const) {
      if (value) {
        void builder.where(column, value);
      }
    }
    for (const [kind, column, value] of [
      ['asset', 'type', query.assetType],
      ['asset', 'identifier', query.assetIdentifier],
      ['controller', 'type', query.activeControlType],
      ['controller', 'identifier', query.activeControlIdentifier],
    ] as const) {
      if (value) {
        void builder.whereExists(
          DeviceComponentModel.query().whereColumn('device_components.device_id', 'devices.id').where('device_components.kind', kind).where(`device_components.${column}`, value),
        );
      }
    }
    return this.page(actor, builder, query);
  }

  private async page(actor: Actor, builder: ReturnType<DeviceService['accessible']>, query: { offset?: string; rowsPerPage: number }): Promise<Page<DeviceView>> {
    const page = await pageRowsById(builder, query, 'devices.id');
    return { rows: await this.present(actor, page.rows), nextPageOffset: page.nextPageOffset };
  }

  /** The customer device list: the devices the actor may see, optionally by status, with how many match. */
  async customerList(actor: Actor, query: CustomerDeviceListQuery): Promise<Page<DeviceView> & { count: number }> {
    requireRights(actor, anyUserRights);
    const filtered = () => {
      const builder = this.accessible(actor);
      if (query.filter) {
        const pattern = containsPattern(query.filter);
        void builder.where((inner) => void inner.whereILike('devices.name', pattern).orWhereILike('devices.identifier', pattern));
      }
      // Open issues come with the operations work; until then an online device is operational.
      if (query.status === 'operational') {
        void builder.where('devices.online', true);
      } else if (query.status === 'operational-with-issues') {
        void builder.whereRaw('false');
      } else if (query.status === 'non-operational') {
        void builder.where('devices.online', false);
      }
      return builder;
    };
    const [page, count] = await Promise.all([this.page(actor, filtered(), query), filtered().resultSize()]);
    return { ...page, count };
  }

  /** GET /console/v1/device/count */
  async count(actor: Actor): Promise<DeviceCounts> {
    requireRights(actor, anyUserRights);
    const row = (await this.accessible(actor)
      .select(this.db.raw('count(*) as total'), this.db.raw('count(*) filter (where devices.online) as online'))
      .first()
      .castTo<{ total: string | number; online: string | number }>()) as unknown as { total: string | number; online: string | number };
    const total = Number(row.total);
    const online = Number(row.online);
    return { totalCount: total, operationalCount: online, inactiveCount: total - online };
  }

  /** `gridport device ship`: a device record open for provisioning, with its one-time token. */
  async ship(actor: Actor, input: DeviceShip): Promise<DeviceShipped> {
    requireRights(actor, deviceWriters);
    const organizationId = this.hashIds.decode('organization', input.organizationHashId);
    if (organizationId === null) {
      throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
    }
    const provisioningToken = randomBytes(24).toString('base64url');
    return write(this.db, actor, async (w) => {
      if (!(await OrganizationModel.query(w.trx).findById(organizationId))) {
        throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
      }
      const deviceGroupId = input.deviceGroupHashId === undefined ? null : await this.groupOf(w, input.deviceGroupHashId, organizationId);
      const device = await DeviceModel.query(w.trx).insertAndFetch({
        organizationId,
        deviceGroupId,
        name: input.name,
        openForProvisioning: true,
        provisioningTokenHash: secretHash(provisioningToken),
      });
      await w.audit({ objectType: 'devices', objectId: device.id, organizationId, changeType: 'controllerDeviceShipped', diff: diffObjects(auditedFields, null, device) });
      return { hashId: this.hashIds.encode('device', device.id), provisioningToken };
    });
  }

  /**
   * Opens a device for provisioning again (a replaced gateway, a lost key): a new one-time token,
   * shown once; the device's identifier stays, and its current certificate keeps working until
   * the new one is issued. Not while the device is in production (in_production).
   */
  async reopenProvisioning(actor: Actor, hashId: string): Promise<DeviceShipped> {
    requireRights(actor, deviceWriters);
    const id = this.decode(hashId);
    const provisioningToken = randomBytes(24).toString('base64url');
    await write(this.db, actor, async (w) => {
      const before = await this.locked(w, id, hashId);
      if (before.inProduction) {
        throw new GridportError('in_production', { fields: ['openForProvisioning'] });
      }
      await this.patchAudited(w, before, { openForProvisioning: true, provisioningTokenHash: secretHash(provisioningToken) });
    });
    return { hashId, provisioningToken };
  }

  /** A group of `organizationId` by hash id; a group of another organisation is not_found. */
  private async groupOf(w: Write, hashId: string, organizationId: number | null): Promise<number> {
    const id = this.hashIds.decode('deviceGroup', hashId);
    const group = id === null ? undefined : await DeviceGroupModel.query(w.trx).findById(id);
    if (!group || group.organizationId !== organizationId) {
      throw new GridportError('not_found', { deviceGroupHashId: hashId });
    }
    return group.id;
  }

  /** Users by hash id who can all see the device; those who cannot are user_has_no_access with their hash ids. */
  private async outageUsers(w: Write, device: DeviceModel, hashIds: readonly string[]): Promise<number[]> {
    const ids = hashIds.map((hashId) => this.hashIds.decode('user', hashId));
    const users = await UserModel.query(w.trx).whereIn('id', ids.filter((id): id is number => id !== null));
    const partners = device.organizationId === null ? [] : await PartnershipModel.query(w.trx).where('owner_organization_id', device.organizationId);
    const listed = new Set(
      ((await w.trx('partnership_devices').where('device_id', device.id)) as { partnership_id: string | number }[]).map((row) => Number(row.partnership_id)),
    );
    const canSee = (user: UserModel) =>
      user.rights.some((right) => right.startsWith('gridport.')) ||
      (device.isExposedToCustomer &&
        (user.organizationId === device.organizationId ||
          partners.some((partnership) => partnership.partnerOrganizationId === user.organizationId && (partnership.allDevices || listed.has(partnership.id)))));
    const refused = hashIds.filter((hashId, index) => {
      const user = users.find((candidate) => candidate.id === ids[index]);
      return !user || !canSee(user);
    });
    if (refused.length > 0) {
      throw new GridportError('user_has_no_access', { hashIds: refused });
    }
    return [...new Set(ids.filter((id): id is number => id !== null))];
  }

  /** PUT /console-admin/v1/device/{hashId}: the rules of console.md sections 4 and 8 and the outbox. */
  async update(actor: Actor, hashId: string, patch: DeviceUpdate): Promise<DeviceView> {
    requireRights(actor, deviceWriters);
    const id = this.decode(hashId);
    const device = await write(this.db, actor, async (w) => {
      const before = await this.locked(w, id, hashId);
      const changes: Partial<DeviceModel> = {};
      for (const field of copiedFields) {
        if (patch[field] !== undefined) {
          Object.assign(changes, { [field]: patch[field] });
        }
      }
      if (patch.subscription !== undefined) {
        changes.subscription = storedSubscription(patch.subscription);
      }
      if (patch.organizationHashId !== undefined) {
        const organizationId = patch.organizationHashId === null ? null : this.hashIds.decode('organization', patch.organizationHashId);
        if (patch.organizationHashId !== null && (organizationId === null || !(await OrganizationModel.query(w.trx).findById(organizationId)))) {
          throw new GridportError('not_found', { organizationHashId: patch.organizationHashId });
        }
        changes.organizationId = organizationId;
      }
      const organizationId = changes.organizationId !== undefined ? changes.organizationId : before.organizationId;
      if (patch.deviceGroupHashId !== undefined) {
        changes.deviceGroupId = patch.deviceGroupHashId === null ? null : await this.groupOf(w, patch.deviceGroupHashId, organizationId);
      } else if (changes.organizationId !== undefined && changes.organizationId !== before.organizationId) {
        // A group belongs to one organisation: a device that changes hands leaves its group.
        changes.deviceGroupId = null;
      }
      if (patch.config !== undefined && patch.config !== null && (patch.isExposedToCustomer ?? before.isExposedToCustomer)) {
        const problem = identifierProblem(patch.config);
        if (problem) {
          throw problem;
        }
      }
      if (patch.config !== undefined) {
        changes.config = patch.config === null ? null : this.checkedConfig(patch.config);
      }

      // A device in production keeps these until it is taken out of production (in the same or an earlier call).
      if (before.inProduction && changes.inProduction !== false) {
        const locked = productionLockedFields.filter((field) => {
          const column = field === 'organizationHashId' ? 'organizationId' : field;
          return changes[column] !== undefined && changes[column] !== before[column];
        });
        if (locked.length > 0) {
          throw new GridportError('in_production', { fields: locked });
        }
      }
      const config = changes.config !== undefined ? changes.config : before.config;
      const exposed = changes.isExposedToCustomer ?? before.isExposedToCustomer;
      if (exposed) {
        const problem = exposureProblem(config);
        if (problem) {
          throw problem;
        }
      }
      if (patch.outageUsersHashIds !== undefined) {
        changes.outageUserIds = await this.outageUsers(w, { ...before, ...changes, isExposedToCustomer: exposed } as DeviceModel, patch.outageUsersHashIds);
      }
      const configChanged = changes.config !== undefined && !sameJson(changes.config, before.config);
      if (configChanged) {
        const parsed = changes.config as DeviceConfig | null;
        changes.configRevision = before.configRevision + 1;
        changes.reportingInterval = parsed?.reportingIntervalInSec ?? null;
        const components = componentsOf(before.id, parsed);
        changes.nominalActivePowerSum = nominalActivePowerOf(components);
        await DeviceComponentModel.query(w.trx).delete().where('device_id', before.id);
        if (components.length > 0) {
          await w.trx('device_components').insert(componentColumns(components));
        }
        if (parsed) {
          await this.outbox.enqueue(w, actor, before.id, { type: 'setConfig', config: parsed });
        }
      }
      return this.patchAudited(w, before, changes);
    });
    return this.presentOne(actor, device);
  }

  /** The device row, locked for the rest of the caller's write; not_found when it is gone. */
  private async locked(w: Write, id: number, hashId: string): Promise<DeviceModel> {
    const device = await DeviceModel.query(w.trx).findById(id).forUpdate();
    if (!device) {
      throw new GridportError('not_found', { deviceHashId: hashId });
    }
    return device;
  }

  /** Saves `changes` to the device and audits the fields that changed, in the caller's write. */
  private async patchAudited(w: Write, before: DeviceModel, changes: Partial<DeviceModel>): Promise<DeviceModel> {
    if (Object.keys(changes).length === 0) {
      return before;
    }
    const after = await DeviceModel.query(w.trx).patchAndFetchById(before.id, { ...changes, updatedAt: new Date() });
    const diff = diffObjects(auditedFields, before, after);
    if (diff.length > 0) {
      await w.audit({ objectType: 'devices', objectId: before.id, organizationId: after.organizationId, changeType: 'controllerUpdate', diff });
    }
    return after;
  }

  private async presentOne(actor: Actor, device: DeviceModel): Promise<DeviceView> {
    const [view] = await this.present(actor, [device]);
    if (!view) {
      throw new Error('present() answered no view for a device');
    }
    return view;
  }

  /** A config with its defaults applied, or invalid_config with every issue as { key, details }. */
  private checkedConfig(config: Record<string, unknown>): Record<string, unknown> {
    const issues = configIssues(config);
    if (issues.length > 0) {
      throw new GridportError('invalid_config', { issues: issues.map(({ path, message }) => ({ key: path, details: message })) });
    }
    // As JSON holds it (no undefined members), so that an unchanged config compares equal to the stored one.
    return JSON.parse(JSON.stringify(parseDeviceConfig(config))) as Record<string, unknown>;
  }

  /** PUT /console-admin/v1/device/{hashId}/invoice-details (Ops and Sales). */
  async updateInvoiceDetails(actor: Actor, hashId: string, patch: DeviceInvoiceDetails): Promise<DeviceView> {
    requireRights(actor, invoiceWriters);
    const id = this.decode(hashId);
    const device = await write(this.db, actor, async (w) => {
      const before = await this.locked(w, id, hashId);
      const changes: Partial<DeviceModel> = {};
      if (patch.invoiceCustomerReference !== undefined) {changes.invoiceCustomerReference = patch.invoiceCustomerReference;}
      if (patch.subscription !== undefined) {changes.subscription = storedSubscription(patch.subscription);}
      if (patch.subscriptionChargedUntil !== undefined) {changes.subscriptionChargedUntil = patch.subscriptionChargedUntil;}
      return this.patchAudited(w, before, changes);
    });
    return this.presentOne(actor, device);
  }

  /** PUT /console/v1/device/{hashId}: a customer adds and removes outage emails and users; each user must see the device. */
  async updateOutageContacts(actor: Actor, hashId: string, patch: CustomerDeviceUpdate): Promise<DeviceView> {
    requireRights(actor, anyUserRights);
    const visible = await this.find(actor, hashId);
    const device = await write(this.db, actor, async (w) => {
      const before = await this.locked(w, visible.id, hashId);
      const removedEmails = new Set(patch.removedOutageEmails.map((email) => email.toLowerCase()));
      const outageEmails = [...new Set([...before.outageEmails, ...patch.outageEmails])].filter((email) => !removedEmails.has(email.toLowerCase()));
      const added = await this.outageUsers(w, before, patch.outageUsersHashIds);
      const removed = new Set(patch.removedOutageUsersHashIds.map((userHashId) => this.hashIds.decode('user', userHashId)));
      const outageUserIds = [...new Set([...before.outageUserIds, ...added])].filter((userId) => !removed.has(userId));
      return this.patchAudited(w, before, { outageEmails, outageUserIds });
    });
    return this.presentOne(actor, device);
  }
}
