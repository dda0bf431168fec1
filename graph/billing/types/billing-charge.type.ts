import { GraphQLJSON } from 'graphql-scalars';
import { GraphQLDateTimeISO } from '../../common/graphql-date-time';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import {
  chargeReasons,
  chargeSources,
  ledgerAccounts,
  type BillingChargeView,
  type BillingForecastView,
  type BillingUnits,
  type ChargeReason,
  type ChargeSource,
  type DeviceBillingUsage as DeviceBillingUsageView,
  type LedgerAccount,
} from '../../../contracts/billing';
import type { NamedReference } from '../../../contracts/references';
import { graphqlEnum } from '../../common/graphql-enum';
import { pageOf } from '../../common/graphql-page';

/* Charges, the device billing usage and the forecast in GraphQL, as contracts/billing.ts views them. */

export const ChargeSourceEnum = graphqlEnum('ChargeSource', chargeSources, 'Where a charge comes from.');
export const ChargeReasonEnum = graphqlEnum('ChargeReason', chargeReasons, 'Why a charge was made (docs/billing.md, "Charges").');
export const LedgerAccountEnum = graphqlEnum('LedgerAccount', ledgerAccounts, 'The ledger account a charge books on; subscription charges book on saas.');

@ObjectType('BillingReference', { description: 'An organisation, device or legal entity as a charge or an invoice names it.' })
export class BillingReference implements NamedReference {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;
}

@ObjectType('BillingCharge', { description: 'A charge in euro cents (docs/billing.md, "Charges").' })
export class BillingCharge implements BillingChargeView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => BillingReference)
  organization!: NamedReference;

  @Field(() => BillingReference, { nullable: true })
  device!: NamedReference | null;

  @Field(() => ChargeSourceEnum)
  source!: ChargeSource;

  @Field(() => ChargeReasonEnum)
  reason!: ChargeReason;

  @Field(() => String)
  description!: string;

  @Field(() => Float, { nullable: true, description: "Subscription charges: the device's monthly price in euro before the tier discount." })
  monthlyPriceBeforeDiscount!: number | null;

  @Field(() => Float, { nullable: true, description: 'The tier discount applied, in percent.' })
  discount!: number | null;

  @Field(() => GraphQLDateTimeISO)
  billableAt!: string;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  from!: string | null;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  to!: string | null;

  @Field(() => Float, { description: 'Euro cents; negative credits.' })
  charge!: number;

  @Field(() => String, { nullable: true })
  customerReference!: string | null;

  @Field(() => LedgerAccountEnum)
  ledgerAccount!: LedgerAccount;

  @Field(() => BillingReference, { nullable: true })
  billingLegalEntity!: NamedReference | null;

  @Field(() => ID, { nullable: true })
  invoiceHashId!: string | null;

  @Field(() => String, { nullable: true })
  invoicePublicId!: string | null;

  @Field(() => Boolean)
  refunded!: boolean;

  @Field(() => ID, { nullable: true, description: 'For a refund: the charge it refunds.' })
  refundOfHashId!: string | null;

  @Field(() => GraphQLDateTimeISO)
  createdAt!: string;
}

export const BillingChargePage = pageOf<BillingChargeView>(BillingCharge, 'BillingChargePage');

@ObjectType('BillingChargeCreated')
export class BillingChargeCreated {
  @Field(() => ID)
  billingChargeHashId!: string;
}

@ObjectType('DeviceBillingUsage', { description: 'The billing usage column of the device lists: units and the monthly price now.' })
export class DeviceBillingUsage implements DeviceBillingUsageView {
  @Field(() => GraphQLJSON, { description: 'Units by rate key; keys without units are absent.' })
  units!: BillingUnits;

  @Field(() => Int)
  unitCount!: number;

  @Field(() => Float, { description: 'Euro a month before the tier discount; 0 under legacy pricing.' })
  monthlyPriceBeforeDiscount!: number;

  @Field(() => Float, { description: 'Euro a month after the tier discount the organisation reaches now.' })
  monthlyPrice!: number;
}

@ObjectType('BillingForecast', { description: "An organisation's monthly forecast: its devices billed by usage at its pricing now." })
export class BillingForecast implements BillingForecastView {
  @Field(() => BillingReference)
  organization!: NamedReference;

  @Field(() => String, { description: 'usage or legacy.' })
  pricingType!: 'usage' | 'legacy';

  @Field(() => Int)
  unitCount!: number;

  @Field(() => Float, { description: 'Percent.' })
  discount!: number;

  @Field(() => Float)
  monthlyPriceBeforeDiscount!: number;

  @Field(() => Float)
  monthlyPrice!: number;

  @Field(() => Int)
  deviceCount!: number;
}
