import { BaseModel } from '../../common/base.model';
import { containsPattern } from '../../common/like';
import type { InvoiceFrequency, OrganizationType, SubscriptionDefaults } from '../../../contracts/organization';
import type { Pricing } from '../../../contracts/pricing';

export class OrganizationModel extends BaseModel {
  static override tableName = 'organizations';
  static override jsonAttributes = ['pricing', 'subscriptionDefaults'];

  id!: number;
  name!: string;
  type!: OrganizationType | null;
  pricing!: Pricing | null;
  invoiceCustomerReference!: string | null;
  invoiceFrequency!: InvoiceFrequency;
  requireLegalEntityPerDevice!: boolean;
  requireCustomerReferencePerDevice!: boolean;
  subscriptionDefaults!: SubscriptionDefaults | null;
  createdAt!: Date;
  updatedAt!: Date;

  static override modifiers = {
    matching(query: ReturnType<typeof OrganizationModel.query>, filter: string) {
      if (filter) {
        void query.whereILike('name', containsPattern(filter));
      }
    },
  };
}
