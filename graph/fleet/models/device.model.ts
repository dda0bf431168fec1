import type { BillingUnits } from '../../../contracts/billing';
import type { CloudApiLevel } from '../../../contracts/fleet';
import { BaseModel } from '../../common/base.model';
import { OrganizationModel } from '../../identity/models/organization.model';
import { DeviceComponentModel } from './device-component.model';
import { DeviceGroupModel } from './device-group.model';

export class DeviceModel extends BaseModel {
  static override tableName = 'devices';
  static override jsonAttributes = ['config', 'monitorSettings', 'subscription', 'outageEmails', 'outageUserIds', 'billingUnits', 'chargedUnits'];

  id!: number;
  organizationId!: number | null;
  deviceGroupId!: number | null;
  identifier!: string | null;
  name!: string;
  balenaUuid!: string | null;
  balenaOsVersion!: string | null;
  version!: string | null;
  pinnedFirmware!: string | null;
  iccid!: string | null;
  imsi!: string | null;
  /** The configuration (version 2) as last saved; null until one is set. */
  config!: Record<string, unknown> | null;
  configRevision!: number;
  nominalActivePowerSum!: number;
  reportingInterval!: number | null;
  monitorSettings!: Record<string, unknown>;
  subscription!: Record<string, unknown> | null;
  subscriptionChargedUntil!: Date | null;
  invoiceCustomerReference!: string | null;
  /** The legal entity this device's charges are invoiced to; null: its organisation's default. */
  billingLegalEntityId!: number | null;
  /** Billable units by rate key and their sum, kept by the billing ledger (docs/billing.md, "Units"). */
  billingUnits!: BillingUnits;
  billingUnitCount!: number;
  /** The start of the period charged up to subscriptionChargedUntil, and the most units of each key charged for it. */
  chargedPeriodFrom!: Date | null;
  chargedUnits!: BillingUnits;
  monitorConnectivity!: boolean;
  exportMessages!: boolean;
  cloudApi!: CloudApiLevel;
  openForProvisioning!: boolean;
  provisioningTokenHash!: string | null;
  outageEmails!: string[];
  outageUserIds!: number[];
  networkInterface!: string | null;
  isExposedToCustomer!: boolean;
  inProduction!: boolean;
  lastSeenAt!: Date | null;
  online!: boolean;
  createdAt!: Date;
  updatedAt!: Date;
  organization?: OrganizationModel | null;
  deviceGroup?: DeviceGroupModel | null;
  components?: DeviceComponentModel[];

  static override get relationMappings() {
    return {
      organization: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: OrganizationModel,
        join: { from: 'devices.organization_id', to: 'organizations.id' },
      },
      deviceGroup: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: DeviceGroupModel,
        join: { from: 'devices.device_group_id', to: 'device_groups.id' },
      },
      components: {
        relation: BaseModel.HasManyRelation,
        modelClass: DeviceComponentModel,
        join: { from: 'devices.id', to: 'device_components.device_id' },
      },
    };
  }
}
