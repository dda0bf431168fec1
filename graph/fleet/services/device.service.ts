import { randomBytes } from 'node:crypto';
import { secretHash } from '../../common/secret-hash';
import type { Knex } from 'knex';
import type { DeviceConfig } from '../../../contracts/device';
import { GridportError } from '../../../contracts/errors';
import {
  productionLockedFields,
  type AdminDeviceListQuery,
  type CustomerDeviceListQuery,
  type CustomerDeviceUpdate,
  type DeviceCountView,
  type DeviceInvoiceDetails,
  type DeviceShip,
  type DeviceUpdate,
  type DeviceView,
  type Subscription,
} from '../../../contracts/fleet';
import type { Page } from '../../../contracts/pagination';
import { staffWriterRights } from '../../../contracts/rights';
import { authorize, requireRights, type Actor } from '../../common/context';
import { pageRowsById } from '../../common/cursor';
import { diffObjects, sameJson, type FieldTypes } from '../../common/diff';
import type { HashIds } from '../../common/hash-ids';
import { containsPattern } from '../../common/like';
import { listOrganizationScope } from '../../common/tenancy';
import { write, type Write } from '../../common/write';
import { legalEntityOfOrganization } from '../../billing/services/legal-entity.service';
import type { DirectoryUser, IdentityDirectory } from '../../identity/services/directory.service';
import { DeviceComponentModel } from '../models/device-component.model';
import { DeviceGroupModel } from '../models/device-group.model';
import { DeviceModel } from '../models/device.model';
import { PartnershipModel } from '../models/partnership.model';
import type { AlarmService } from '../../operations/services/alarm.service';
import { IssueService } from '../../operations/services/issue.service';
import { limitToAccessible, type DeviceAccess } from './device-access';
import { checkedConfig, componentColumns, componentsOf, exposureProblem, identifierProblem, nominalActivePowerOf } from './device-config';
import { DevicePresenter } from './device.presenter';
import type { BillingLedger, UnitChange } from '../../billing/services/billing-ledger';
import type { DeviceOutboxService } from './device-outbox.service';
import { isoTime } from '../../common/timestamps';

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
  billingLegalEntityId: 'number',
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
const copiedFields = [
  'name',
  'balenaUuid',
  'iccid',
  'imsi',
  'monitorSettings',
  'monitorConnectivity',
  'exportMessages',
  'cloudApi',
  'openForProvisioning',
  'outageEmails',
  'isExposedToCustomer',
  'inProduction',
] as const satisfies readonly (keyof DeviceUpdate & keyof DeviceModel)[];

/** A subscription as the devices table keeps it (JSON: the start as ISO 8601). */
function storedSubscription(subscription: Subscription | null): Record<string, unknown> | null {
  return subscription === null ? null : { ...subscription, startAt: isoTime(subscription.startAt) };
}

export interface DeviceShipped {
  hashId: string;
  /** Shown once: the device presents it when it asks for its certificate. */
  provisioningToken: string;
}

/**
 * Devices (console.md sections 3, 4 and 7): shipping, the admin and customer reads, updates
 * with their rules (config validity, production lock, exposure), and the outbox entries that
 * carry a change to the device.
 */
export class DeviceService {
  private readonly presenter: DevicePresenter;

  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly outbox: DeviceOutboxService,
    private readonly directory: IdentityDirectory,
    private readonly alarms: AlarmService,
    /** Recounts a device's billable units and charges what a change adds (docs/billing.md), in the change's own write. */
    private readonly ledger: BillingLedger,
  ) {
    this.presenter = new DevicePresenter(hashIds, directory, ledger);
  }

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
  present(actor: Actor, devices: readonly DeviceModel[], db: Knex = this.db): Promise<DeviceView[]> {
    return this.presenter.present(actor, devices, db);
  }

  async get(actor: Actor, hashId: string): Promise<DeviceView> {
    authorize(actor, 'device.read', 'device.readVisible');
    return this.presentOne(actor, await this.find(actor, hashId));
  }

  /** The admin device list with every filter of console.md section 7, newest first. */
  async list(actor: Actor, query: AdminDeviceListQuery): Promise<Page<DeviceView>> {
    authorize(actor, 'device.list');
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
          DeviceComponentModel.query()
            .whereColumn('device_components.device_id', 'devices.id')
            .where('device_components.kind', kind)
            .where(`device_components.${column}`, value),
        );
      }
    }
    return this.page(actor, builder, query);
  }

  private async page(
    actor: Actor,
    builder: ReturnType<DeviceService['accessible']>,
    query: { offset?: string; rowsPerPage: number },
  ): Promise<Page<DeviceView>> {
    const page = await pageRowsById(builder, query, 'devices.id');
    return { rows: await this.present(actor, page.rows), nextPageOffset: page.nextPageOffset };
  }

  /** The customer device list: the devices the actor may see, optionally by status, with how many match. */
  async customerList(actor: Actor, query: CustomerDeviceListQuery): Promise<Page<DeviceView> & { count: number }> {
    authorize(actor, 'device.listVisible');
    const filtered = () => {
      const builder = this.accessible(actor);
      if (query.filter) {
        const pattern = containsPattern(query.filter);
        void builder.where((inner) => void inner.whereILike('devices.name', pattern).orWhereILike('devices.identifier', pattern));
      }
      // Online devices are operational, or operational with issues while an open issue that customers see is about them.
      if (query.status === 'operational') {
        void builder.where('devices.online', true).whereNotIn('devices.id', IssueService.openCustomerIssueDeviceIds(this.db));
      } else if (query.status === 'operational-with-issues') {
        void builder.where('devices.online', true).whereIn('devices.id', IssueService.openCustomerIssueDeviceIds(this.db));
      } else if (query.status === 'non-operational') {
        void builder.where('devices.online', false);
      }
      return builder;
    };
    const [page, count] = await Promise.all([this.page(actor, filtered(), query), filtered().resultSize()]);
    return { ...page, count };
  }

  /** GET /console/v1/device/count */
  async count(actor: Actor): Promise<DeviceCountView> {
    authorize(actor, 'device.count');
    const withIssues = IssueService.openCustomerIssueDeviceIds(this.db).toKnexQuery().toSQL();
    const row = await this.accessible(actor)
      .select(
        this.db.raw('count(*) as total'),
        this.db.raw('count(*) filter (where devices.online) as online'),
        this.db.raw(`count(*) filter (where devices.online and devices.id in (${withIssues.sql})) as with_issues`, withIssues.bindings as Knex.RawBinding[]),
      )
      .first()
      // The model's column mappers answer with_issues as withIssues.
      .castTo<{ total: string | number; online: string | number; withIssues: string | number }>();
    const total = Number(row.total);
    const online = Number(row.online);
    const withIssuesCount = Number(row.withIssues);
    return { totalCount: total, operationalCount: online - withIssuesCount, operationalWithIssuesCount: withIssuesCount, inactiveCount: total - online };
  }

  /** `gridport device ship`: a device record open for provisioning, with its one-time token. */
  async ship(actor: Actor, input: DeviceShip): Promise<DeviceShipped> {
    requireRights(actor, staffWriterRights);
    const organizationId = this.hashIds.decode('organization', input.organizationHashId);
    if (organizationId === null) {
      throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
    }
    const provisioningToken = randomBytes(24).toString('base64url');
    return write(this.db, actor, async (w) => {
      if (!(await this.directory.organizationExists(w.trx, organizationId))) {
        throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
      }
      const deviceGroupId = input.deviceGroupHashId === undefined ? null : await this.groupOf(w, input.deviceGroupHashId, organizationId);
      const device = await DeviceModel.query(w.trx).insertAndFetch({
        organizationId,
        deviceGroupId,
        name: input.name,
        openForProvisioning: true,
        provisioningTokenHash: secretHash(provisioningToken),
        subscription: await this.ledger.defaultSubscription(w.trx, organizationId),
      });
      await w.audit({
        objectType: 'devices',
        objectId: device.id,
        organizationId,
        changeType: 'controllerDeviceShipped',
        diff: diffObjects(auditedFields, null, device),
      });
      return { hashId: this.hashIds.encode('device', device.id), provisioningToken };
    });
  }

  /**
   * Opens a device for provisioning again (a replaced gateway, a lost key): a new one-time token,
   * shown once; the device's identifier stays, and its current certificate keeps working until
   * the new one is issued. Not while the device is in production (in_production).
   */
  async reopenProvisioning(actor: Actor, hashId: string): Promise<DeviceShipped> {
    authorize(actor, 'device.reopenProvisioning');
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
    const users = await this.directory.users(
      w.trx,
      ids.filter((id): id is number => id !== null),
    );
    const partners = device.organizationId === null ? [] : await PartnershipModel.query(w.trx).where('owner_organization_id', device.organizationId);
    const listed = new Set(
      ((await w.trx('partnership_devices').where('device_id', device.id)) as { partnership_id: string | number }[]).map((row) => Number(row.partnership_id)),
    );
    const canSee = (user: DirectoryUser) =>
      user.rights.some((right) => right.startsWith('gridport.')) ||
      (device.isExposedToCustomer &&
        (user.organizationId === device.organizationId ||
          partners.some((partnership) => partnership.partnerOrganizationId === user.organizationId && (partnership.allDevices || listed.has(partnership.id)))));
    const refused = hashIds.filter((hashId, index) => {
      const id = ids[index];
      const user = id === null || id === undefined ? undefined : users.get(id);
      return !user || !canSee(user);
    });
    if (refused.length > 0) {
      throw new GridportError('user_has_no_access', { hashIds: refused });
    }
    return [...new Set(ids.filter((id): id is number => id !== null))];
  }

  /** PUT /console-admin/v1/device/{hashId}: the rules of console.md sections 4 and 8 and the outbox. */
  async update(actor: Actor, hashId: string, patch: DeviceUpdate): Promise<DeviceView> {
    authorize(actor, 'device.update');
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
        if (patch.organizationHashId !== null && (organizationId === null || !(await this.directory.organizationExists(w.trx, organizationId)))) {
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
      if (changes.organizationId !== undefined && changes.organizationId !== before.organizationId && before.billingLegalEntityId !== null) {
        // So does its legal entity: the new organisation's default applies (docs/billing.md, "Legal entities").
        changes.billingLegalEntityId = null;
      }
      if (patch.config !== undefined && patch.config !== null && (patch.isExposedToCustomer ?? before.isExposedToCustomer)) {
        const problem = identifierProblem(patch.config);
        if (problem) {
          throw problem;
        }
      }
      if (patch.config !== undefined) {
        changes.config = patch.config === null ? null : checkedConfig(patch.config);
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
      if (
        changes.organizationId !== undefined &&
        changes.organizationId !== before.organizationId &&
        patch.subscription === undefined &&
        before.subscription === null
      ) {
        // A device that gets an organisation with subscription defaults and has no subscription is given one (docs/billing.md).
        changes.subscription = await this.ledger.defaultSubscription(w.trx, changes.organizationId);
      }
      const patched = await this.patchAudited(w, before, changes);
      const groupChanged = changes.deviceGroupId !== undefined && changes.deviceGroupId !== before.deviceGroupId;
      const after =
        patched === before ? before : await this.billed(w, before.id, configChanged ? 'configChange' : groupChanged ? 'deviceGroupUpdate' : 'deviceUpdate');
      if (configChanged) {
        // Alarms of assets and loops the new config dropped close now, in this write (docs/operations.md, "Monitors and alarms").
        await this.alarms.closeWithoutSubject(w, after, after.config);
      }
      return after;
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

  /** Runs the billing ledger on a changed device (docs/billing.md) and answers the device as it now is. */
  private async billed(w: Write, id: number, change: UnitChange): Promise<DeviceModel> {
    await this.ledger.deviceChanged(w, id, change);
    const device = await DeviceModel.query(w.trx).findById(id);
    if (!device) {
      throw new GridportError('not_found', { deviceHashId: this.hashIds.encode('device', id) });
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

  /** PUT /console-admin/v1/device/{hashId}/invoice-details (Ops and Sales). */
  async updateInvoiceDetails(actor: Actor, hashId: string, patch: DeviceInvoiceDetails): Promise<DeviceView> {
    authorize(actor, 'device.updateInvoiceDetails');
    const id = this.decode(hashId);
    const device = await write(this.db, actor, async (w) => {
      const before = await this.locked(w, id, hashId);
      const changes: Partial<DeviceModel> = {};
      if (patch.invoiceCustomerReference !== undefined) {
        changes.invoiceCustomerReference = patch.invoiceCustomerReference;
      }
      if (patch.subscription !== undefined) {
        changes.subscription = storedSubscription(patch.subscription);
      }
      if (patch.subscriptionChargedUntil !== undefined) {
        changes.subscriptionChargedUntil = patch.subscriptionChargedUntil;
      }
      if (patch.billingLegalEntityHashId !== undefined) {
        changes.billingLegalEntityId = await this.legalEntityOf(w, before, patch.billingLegalEntityHashId);
      }
      await this.patchAudited(w, before, changes);
      return this.billed(w, before.id, 'deviceUpdate');
    });
    return this.presentOne(actor, device);
  }

  /**
   * The legal entity a device's invoice details name: one of the device's organisation
   * (not_found otherwise); none at all for a device without an organisation
   * (billing_legal_entity_must_be_null). Null: the organisation's default.
   */
  private async legalEntityOf(w: Write, device: DeviceModel, hashId: string | null): Promise<number | null> {
    if (device.organizationId === null) {
      if (hashId === null) {
        return null;
      }
      throw new GridportError('billing_legal_entity_must_be_null', { billingLegalEntityHashId: hashId });
    }
    return hashId === null ? null : legalEntityOfOrganization(w.trx, this.hashIds, hashId, device.organizationId);
  }

  /** PUT /console/v1/device/{hashId}: a customer adds and removes outage emails and users; each user must see the device. */
  async updateOutageContacts(actor: Actor, hashId: string, patch: CustomerDeviceUpdate): Promise<DeviceView> {
    authorize(actor, 'device.updateOutageContacts');
    const visible = await this.find(actor, hashId);
    const device = await write(this.db, actor, async (w) => {
      const before = await this.locked(w, visible.id, hashId);
      const removedEmails = new Set(patch.removedOutageEmails.map((email) => email.toLowerCase()));
      const outageEmails = [...new Set([...before.outageEmails, ...patch.outageEmails])].filter((email) => !removedEmails.has(email.toLowerCase()));
      const added = await this.outageUsers(w, before, patch.outageUsersHashIds);
      const removed = new Set(patch.removedOutageUsersHashIds.map((userHashId) => this.hashIds.decode('user', userHashId)));
      const outageUserIds = [...new Set([...before.outageUserIds, ...added])].filter((userId) => !removed.has(userId));
      await this.patchAudited(w, before, { outageEmails, outageUserIds });
      return this.billed(w, before.id, 'deviceUpdate');
    });
    return this.presentOne(actor, device);
  }
}
