import { GraphQLJSON } from 'graphql-scalars';
import { Field, InputType, Int } from 'type-graphql';
import type { InvoiceFrequency, OrganizationType } from '../../../contracts/organization';
import { InvoiceFrequencyEnum, OrganizationTypeEnum } from './organization.enum';

/*
 * The GraphQL shape of an organisation's body. The rules (lengths, pricing, defaults) are
 * enforced by organizationCreateSchema and organizationUpdateSchema of contracts/organization.ts.
 */

@InputType('SubscriptionDefaultsInput')
export class SubscriptionDefaultsInput {
  @Field(() => Int)
  chargePeriod!: number;

  @Field(() => Int)
  runtime!: number;
}

@InputType('OrganizationCreateInput')
export class OrganizationCreateInput {
  @Field(() => String, { description: '1 to 100 characters.' })
  name!: string;

  @Field(() => OrganizationTypeEnum)
  type!: OrganizationType;

  @Field(() => GraphQLJSON, { nullable: true })
  pricing?: unknown;

  @Field(() => String, { nullable: true })
  invoiceCustomerReference?: string | null;

  @Field(() => InvoiceFrequencyEnum, { nullable: true, description: 'MONTHLY when not given.' })
  invoiceFrequency?: InvoiceFrequency | null;

  @Field(() => Boolean, { nullable: true })
  requireLegalEntityPerDevice?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  requireCustomerReferencePerDevice?: boolean | null;

  @Field(() => SubscriptionDefaultsInput, { nullable: true })
  subscriptionDefaults?: SubscriptionDefaultsInput | null;
}

@InputType('OrganizationUpdateInput', { description: 'Only the fields given change; null clears a nullable field.' })
export class OrganizationUpdateInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => OrganizationTypeEnum, { nullable: true })
  type?: OrganizationType | null;

  @Field(() => GraphQLJSON, { nullable: true })
  pricing?: unknown;

  @Field(() => String, { nullable: true })
  invoiceCustomerReference?: string | null;

  @Field(() => InvoiceFrequencyEnum, { nullable: true })
  invoiceFrequency?: InvoiceFrequency | null;

  @Field(() => Boolean, { nullable: true })
  requireLegalEntityPerDevice?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  requireCustomerReferencePerDevice?: boolean | null;

  @Field(() => SubscriptionDefaultsInput, { nullable: true })
  subscriptionDefaults?: SubscriptionDefaultsInput | null;
}
