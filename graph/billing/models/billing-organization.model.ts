import type { SubscriptionDefaults } from '../../../contracts/organization';
import type { Pricing } from '../../../contracts/pricing';
import { BaseModel } from '../../common/base.model';

/** The organizations table as billing reads it: the name, the pricing and the subscription defaults. */
export class BillingOrganizationModel extends BaseModel {
  static override tableName = 'organizations';
  static override jsonAttributes = ['pricing', 'subscriptionDefaults'];

  id!: number;
  name!: string;
  pricing!: Pricing | null;
  subscriptionDefaults!: SubscriptionDefaults | null;
}
