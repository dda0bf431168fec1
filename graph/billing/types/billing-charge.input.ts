import { GraphQLDateTimeISO } from '../../common/graphql-date-time';
import { Field, ID, InputType, Int } from 'type-graphql';
import type { LedgerAccount } from '../../../contracts/billing';
import { LedgerAccountEnum } from './billing-charge.type';

/* The bodies of the charge mutations; their rules are those of contracts/billing.ts. */

@InputType('BillingChargeCreateInput')
export class BillingChargeCreateInput {
  @Field(() => ID)
  organizationHashId!: string;

  @Field(() => ID, { nullable: true })
  deviceHashId?: string | null;

  @Field(() => String, { nullable: true, description: 'manual (the default) or shipment.' })
  source?: string;

  @Field(() => String)
  description!: string;

  @Field(() => GraphQLDateTimeISO, { nullable: true })
  billableAt?: Date | null;

  @Field(() => Int, { description: 'Euro cents; negative credits.' })
  charge!: number;

  @Field(() => LedgerAccountEnum)
  ledgerAccount!: LedgerAccount;
}

@InputType('BillingChargeRefundInput')
export class BillingChargeRefundInput {
  @Field(() => Int, { nullable: true, description: 'Euro cents to refund; all that is left without it.' })
  charge?: number | null;

  @Field(() => String, { nullable: true })
  description?: string | null;
}
