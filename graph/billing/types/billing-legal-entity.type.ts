import { GraphQLDateTimeISO } from '../../common/graphql-date-time';
import { Directive, Field, ID, ObjectType } from 'type-graphql';
import type { BillingLegalEntityView } from '../../../contracts/billing';
import { pageOf } from '../../common/graphql-page';
import { OrganizationReference } from '../../fleet/types/organization-reference.type';

/** A legal entity in GraphQL, as contracts/billing.ts views it. */
@ObjectType('BillingLegalEntity', { description: "A company an organisation's invoices are addressed to (console.md section 3)." })
@Directive('@key(fields: "hashId")')
export class BillingLegalEntity implements BillingLegalEntityView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => OrganizationReference)
  organization!: BillingLegalEntityView['organization'];

  @Field(() => String)
  companyName!: string;

  @Field(() => String, { nullable: true })
  address1!: string | null;

  @Field(() => String, { nullable: true })
  address2!: string | null;

  @Field(() => String, { nullable: true })
  zipcode!: string | null;

  @Field(() => String, { nullable: true })
  city!: string | null;

  @Field(() => String, { description: 'ISO 3166-1 alpha-2, upper case.' })
  country!: string;

  @Field(() => [String], { description: 'Where invoices are sent.' })
  emails!: string[];

  @Field(() => String, { nullable: true })
  chamberOfCommerce!: string | null;

  @Field(() => String, { nullable: true })
  taxNumber!: string | null;

  @Field(() => String, { nullable: true, description: 'The Moneybird contact it was made from or is linked to.' })
  accountingContactId!: string | null;

  @Field(() => Boolean, { description: "Whether it is its organisation's default legal entity (one per organisation)." })
  isOrganizationDefault!: boolean;

  @Field(() => GraphQLDateTimeISO)
  createdAt!: string;

  @Field(() => GraphQLDateTimeISO)
  updatedAt!: string;
}

export const BillingLegalEntityPage = pageOf<BillingLegalEntityView>(BillingLegalEntity, 'BillingLegalEntityPage', {
  description: 'A page of legal entities, newest first.',
  nextPageOffset: 'The offset of the next page; null on the last page.',
});
