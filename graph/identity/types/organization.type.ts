import { GraphQLJSON } from 'graphql-scalars';
import { GraphQLDateTimeISO } from '../../common/graphql-date-time';
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import type { InvoiceFrequency, OrganizationType, OrganizationView, SubscriptionDefaults as SubscriptionDefaultsView } from '../../../contracts/organization';
import type { Pricing } from '../../../contracts/pricing';
import { pageOf } from '../../common/graphql-page';
import { InvoiceFrequencyEnum, OrganizationTypeEnum } from './organization.enum';

@ObjectType('SubscriptionDefaults', { description: 'The subscription terms new devices of an organisation start with.' })
export class SubscriptionDefaults implements SubscriptionDefaultsView {
  @Field(() => Int, { description: 'Months charged per period.' })
  chargePeriod!: number;

  @Field(() => Int, { description: 'Months a subscription runs.' })
  runtime!: number;
}

@ObjectType('Organization', { description: 'A customer organisation, or the provider itself.' })
@Directive('@key(fields: "hashId")')
export class Organization implements OrganizationView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => OrganizationTypeEnum, { nullable: true, description: 'Null only for the provider organisation.' })
  type!: OrganizationType | null;

  @Field(() => Boolean)
  isProvider!: boolean;

  @Field(() => GraphQLJSON, { nullable: true, description: 'Usage pricing ({ type: "usage", tiers, rates, expiresAt }) or { type: "legacy" }.' })
  pricing!: Pricing | null;

  @Field(() => String, { nullable: true })
  invoiceCustomerReference!: string | null;

  @Field(() => InvoiceFrequencyEnum)
  invoiceFrequency!: InvoiceFrequency;

  @Field(() => Boolean)
  requireLegalEntityPerDevice!: boolean;

  @Field(() => Boolean)
  requireCustomerReferencePerDevice!: boolean;

  @Field(() => SubscriptionDefaults, { nullable: true })
  subscriptionDefaults!: SubscriptionDefaultsView | null;

  @Field(() => GraphQLDateTimeISO)
  createdAt!: string;

  @Field(() => GraphQLDateTimeISO)
  updatedAt!: string;
}

export const OrganizationPage = pageOf<OrganizationView>(Organization, 'OrganizationPage', {
  description: 'A page of organisations, newest first.',
  nextPageOffset: 'The offset of the next page; null on the last page.',
});
