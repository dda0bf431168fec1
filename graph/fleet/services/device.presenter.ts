import type { DeviceBillingUsage } from '../../../contracts/billing';
import type { BillingLedger } from '../../billing/services/billing-ledger';
import type { Knex } from 'knex';
import { identifierPlaceholder, type DevicePartnershipView, type DeviceView } from '../../../contracts/fleet';
import { isStaff, type Actor } from '../../common/context';
import type { HashIds } from '../../common/hash-ids';
import type { IdentityDirectory } from '../../identity/services/directory.service';
import { DeviceComponentModel } from '../models/device-component.model';
import { DeviceScheduleModel } from '../models/device-schedule.model';
import type { DeviceModel } from '../models/device.model';
import { PartnershipModel } from '../models/partnership.model';
import { redactedConfig } from './device-config';
import { isoTime } from '../../common/timestamps';

/** A partnership of a page's owners, with its place among them (the order the views keep). */
interface PagePartnership {
  position: number;
  partnerOrganizationId: number;
  view: DevicePartnershipView;
}

/** The partnerships that take in a page's devices: those of every device of an owner, and those listing a device. */
interface PagePartnerships {
  allDevicesOf: Map<number, PagePartnership[]>;
  listing: Map<number, PagePartnership[]>;
}

/** A device's component rows, by kind, in index order. */
interface OwnComponents {
  assets: DeviceComponentModel[];
  controllers: DeviceComponentModel[];
}

/** Two lists in the order of their `position`, as one. */
function merged(first: readonly PagePartnership[], second: readonly PagePartnership[]): PagePartnership[] {
  if (first.length === 0 || second.length === 0) {
    return first.length === 0 ? [...second] : [...first];
  }
  const all: PagePartnership[] = [];
  let [i, j] = [0, 0];
  while (i < first.length || j < second.length) {
    const [a, b] = [first[i], second[j]];
    if (a && (!b || a.position < b.position)) {
      all.push(a);
      i += 1;
    } else if (b) {
      all.push(b);
      j += 1;
    }
  }
  return all;
}

/** Appends `value` to the list of `key`, starting the list at its first value. */
function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) {
    list.push(value);
  } else {
    map.set(key, [value]);
  }
}

/**
 * Devices as their views (DeviceView): the rows a page of devices needs are read in a fixed
 * number of queries however many devices there are, grouped by device (partnerships for every device
 * by owner) once, so a page costs time in proportion to its rows; a customer never sees a config's VPN credentials nor a
 * partnership of other organisations.
 */
export class DevicePresenter {
  constructor(
    private readonly hashIds: HashIds,
    private readonly directory: IdentityDirectory,
    /** The billing usage column of staff's device views; without it the column is null. */
    private readonly ledger?: BillingLedger,
  ) {}

  async present(actor: Actor, devices: readonly DeviceModel[], db: Knex): Promise<DeviceView[]> {
    if (devices.length === 0) {
      return [];
    }
    const ids = devices.map((device) => device.id);
    const organizationIds = [...new Set(devices.flatMap((device) => (device.organizationId === null ? [] : [device.organizationId])))];
    const userIds = [...new Set(devices.flatMap((device) => device.outageUserIds))];
    const staff = isStaff(actor);
    const legalEntityIds = staff ? [...new Set(devices.flatMap((device) => (device.billingLegalEntityId === null ? [] : [device.billingLegalEntityId])))] : [];
    const [organizationName, components, schedules, partnerships, userById, legalEntityName] = await Promise.all([
      this.directory.organizationNames(db, organizationIds),
      DeviceComponentModel.query(db).whereIn('device_id', ids).orderBy(['device_id', 'kind', 'index']),
      DeviceScheduleModel.query(db).whereIn('device_id', ids),
      this.partnershipsOf(organizationIds, devices, db),
      this.directory.users(db, userIds),
      this.legalEntityNames(legalEntityIds, db),
    ]);
    const usage = staff && this.ledger ? await this.ledger.usageOf(db, devices) : new Map<number, DeviceBillingUsage>();
    const componentsByDevice = new Map<number, OwnComponents>();
    for (const component of components) {
      let own = componentsByDevice.get(component.deviceId);
      if (!own) {
        own = { assets: [], controllers: [] };
        componentsByDevice.set(component.deviceId, own);
      }
      (component.kind === 'asset' ? own.assets : own.controllers).push(component);
    }
    const scheduleByKey = new Map(schedules.map((row) => [`${row.deviceId}/${row.kind}/${row.identifier}`, row.items]));
    return devices.map((device) => {
      const scheduleOf = (kind: 'asset' | 'controller', identifier: string | null) =>
        (identifier === null ? undefined : scheduleByKey.get(`${device.id}/${kind}/${identifier}`)) ?? [];
      const own = componentsByDevice.get(device.id);
      const takenIn =
        device.organizationId === null ? [] : merged(partnerships.allDevicesOf.get(device.organizationId) ?? [], partnerships.listing.get(device.id) ?? []);
      return {
        hashId: this.hashIds.encode('device', device.id),
        deviceGroupHashId: device.deviceGroupId === null ? null : this.hashIds.encode('deviceGroup', device.deviceGroupId),
        organizationHashId: device.organizationId === null ? null : this.hashIds.encode('organization', device.organizationId),
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
        subscriptionChargedUntil: device.subscriptionChargedUntil ? isoTime(new Date(device.subscriptionChargedUntil)) : null,
        invoiceCustomerReference: device.invoiceCustomerReference,
        billingLegalEntity:
          staff && device.billingLegalEntityId !== null
            ? { hashId: this.hashIds.encode('billingLegalEntity', device.billingLegalEntityId), name: legalEntityName.get(device.billingLegalEntityId) ?? '' }
            : null,
        billingUsage: usage.get(device.id) ?? null,
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
        assets: (own?.assets ?? []).map(({ index, category, type, identifier, nominalActivePower }) => ({
          index,
          category,
          type,
          identifier,
          nominalActivePower,
          schedule: scheduleOf('asset', identifier),
        })),
        controllers: (own?.controllers ?? []).map(({ index, type, identifier }) => ({
          index,
          type,
          identifier,
          schedule: scheduleOf('controller', identifier),
        })),
        partnerships: takenIn
          .filter((partnership) => staff || device.organizationId === actor.organizationId || partnership.partnerOrganizationId === actor.organizationId)
          .map((partnership) => partnership.view),
      };
    });
  }

  /** The partnerships of `owners` that take in some of `devices`: for every device of its owner, or by list. */
  /** The company names of these legal entities. */
  private async legalEntityNames(ids: readonly number[], db: Knex): Promise<Map<number, string>> {
    if (ids.length === 0) {
      return new Map();
    }
    const rows = (await db('billing_legal_entities').whereIn('id', ids).select('id', 'company_name')) as { id: string | number; company_name: string }[];
    return new Map(rows.map((row) => [Number(row.id), row.company_name]));
  }

  private async partnershipsOf(owners: readonly number[], devices: readonly DeviceModel[], db: Knex): Promise<PagePartnerships> {
    const found: PagePartnerships = { allDevicesOf: new Map(), listing: new Map() };
    if (owners.length === 0) {
      return found;
    }
    const rows = await PartnershipModel.query(db).whereIn('owner_organization_id', owners).withGraphFetched('[owner, partner]');
    const links =
      rows.length === 0
        ? []
        : ((await db('partnership_devices')
            .whereIn(
              'partnership_id',
              rows.map((row) => row.id),
            )
            .whereIn(
              'device_id',
              devices.map((device) => device.id),
            )) as { partnership_id: string | number; device_id: string | number }[]);
    const ownerOf = new Map(devices.map((device) => [device.id, device.organizationId]));
    const byId = new Map<number, { ownerOrganizationId: number; partnership: PagePartnership }>();
    rows.forEach((row, position) => {
      const partnership: PagePartnership = {
        position,
        partnerOrganizationId: row.partnerOrganizationId,
        view: {
          hashId: this.hashIds.encode('partnership', row.id),
          role: row.role,
          description: row.description,
          allDevices: row.allDevices,
          owner: { hashId: this.hashIds.encode('organization', row.ownerOrganizationId), name: row.owner?.name ?? '' },
          partner: { hashId: this.hashIds.encode('organization', row.partnerOrganizationId), name: row.partner?.name ?? '' },
        },
      };
      if (row.allDevices) {
        push(found.allDevicesOf, row.ownerOrganizationId, partnership);
      } else {
        byId.set(row.id, { ownerOrganizationId: row.ownerOrganizationId, partnership });
      }
    });
    for (const link of links) {
      const deviceId = Number(link.device_id);
      const listing = byId.get(Number(link.partnership_id));
      // A listed device is taken in only while it belongs to the partnership's owner.
      if (listing && ownerOf.get(deviceId) === listing.ownerOrganizationId) {
        push(found.listing, deviceId, listing.partnership);
      }
    }
    for (const list of found.listing.values()) {
      list.sort((a, b) => a.position - b.position);
    }
    return found;
  }
}
