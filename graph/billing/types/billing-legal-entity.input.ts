import { Field, ID, InputType } from 'type-graphql';

/*
 * The bodies of the legal entity mutations; their rules (limits, countries, the EU tax rule) are
 * those of contracts/billing.ts and the legal entity service, as over REST.
 */

@InputType('BillingLegalEntityCreateInput', {
  description: "Full details (companyName and country at least), or a Moneybird contact id alone; details given beside a contact id override the contact's.",
})
export class BillingLegalEntityCreateInput {
  @Field(() => ID)
  organizationHashId!: string;

  @Field(() => String, { nullable: true, description: 'A Moneybird contact id (digits).' })
  accountingContactId?: string | null;

  @Field(() => String, { nullable: true })
  companyName?: string | null;

  @Field(() => String, { nullable: true })
  address1?: string | null;

  @Field(() => String, { nullable: true })
  address2?: string | null;

  @Field(() => String, { nullable: true })
  zipcode?: string | null;

  @Field(() => String, { nullable: true })
  city?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2.' })
  country?: string | null;

  @Field(() => [String], { nullable: true })
  emails?: string[] | null;

  @Field(() => String, { nullable: true })
  chamberOfCommerce?: string | null;

  @Field(() => String, { nullable: true })
  taxNumber?: string | null;

  @Field(() => Boolean, { nullable: true })
  isOrganizationDefault?: boolean | null;
}

@InputType('BillingLegalEntityUpdateInput', { description: 'Only the fields given change; null clears a field that may be empty.' })
export class BillingLegalEntityUpdateInput {
  @Field(() => String, { nullable: true, description: 'A Moneybird contact id: its details fill in first; null unlinks the contact.' })
  accountingContactId?: string | null;

  @Field(() => String, { nullable: true })
  companyName?: string | null;

  @Field(() => String, { nullable: true })
  address1?: string | null;

  @Field(() => String, { nullable: true })
  address2?: string | null;

  @Field(() => String, { nullable: true })
  zipcode?: string | null;

  @Field(() => String, { nullable: true })
  city?: string | null;

  @Field(() => String, { nullable: true })
  country?: string | null;

  @Field(() => [String], { nullable: true })
  emails?: string[] | null;

  @Field(() => String, { nullable: true })
  chamberOfCommerce?: string | null;

  @Field(() => String, { nullable: true })
  taxNumber?: string | null;

  @Field(() => Boolean, { nullable: true })
  isOrganizationDefault?: boolean | null;
}
