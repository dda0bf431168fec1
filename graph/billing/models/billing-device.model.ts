import type { BillingUnits } from '../../../contracts/billing';
import { BaseModel } from '../../common/base.model';

/** The devices table as billing reads it: what units are counted from, the subscription and what its period was charged for. */
export class BillingDeviceModel extends BaseModel {
  static override tableName = 'devices';
  static override jsonAttributes = ['config', 'subscription', 'outageEmails', 'outageUserIds', 'billingUnits', 'chargedUnits'];

  id!: number;
  organizationId!: number | null;
  deviceGroupId!: number | null;
  name!: string;
  iccid!: string | null;
  config!: Record<string, unknown> | null;
  subscription!: Record<string, unknown> | null;
  subscriptionChargedUntil!: Date | null;
  invoiceCustomerReference!: string | null;
  billingLegalEntityId!: number | null;
  outageEmails!: string[];
  outageUserIds!: number[];
  billingUnits!: BillingUnits;
  billingUnitCount!: number;
  chargedPeriodFrom!: Date | null;
  chargedUnits!: BillingUnits;
}
