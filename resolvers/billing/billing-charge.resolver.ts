import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { chargeListQuerySchema, chargeRefundSchema, manualChargeCreateSchema, type BillingChargeView, type BillingForecastView } from '../../contracts/billing';
import type { Page } from '../../contracts/pagination';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import { BillingChargeListArgs } from '../../graph/billing/types/billing-charge.args';
import { BillingChargeCreateInput, BillingChargeRefundInput } from '../../graph/billing/types/billing-charge.input';
import { BillingCharge, BillingChargeCreated, BillingChargePage, BillingForecast } from '../../graph/billing/types/billing-charge.type';
import type { GraphqlContext } from '../graphql-context';
import { Allowed } from '../access';

/**
 * Charges in GraphQL, as /console-admin/v1/billing-charge: employees read, Ops and Developer
 * add, remove and refund; and an organisation's monthly forecast (/billing-forecast).
 */
@Resolver(() => BillingCharge)
export class BillingChargeResolver {
  @Allowed('billingCharge.read')
  @Query(() => BillingCharge)
  billingCharge(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<BillingChargeView> {
    return services.billingCharges.get(actor, hashId);
  }

  @Allowed('billingCharge.list')
  @Query(() => BillingChargePage, { description: 'Charges newest first, by organisation, device, invoice, invoiced or not, and text.' })
  billingCharges(@Args(() => BillingChargeListArgs) args: BillingChargeListArgs, @Ctx() { actor, services }: GraphqlContext): Promise<Page<BillingChargeView>> {
    return services.billingCharges.list(actor, validate(chargeListQuerySchema, givenArguments(args), 'query_invalid'));
  }

  @Allowed('billingCharge.create')
  @Mutation(() => BillingChargeCreated, {
    description: 'A manual charge in euro cents (negative credits) of an organisation, of one of its devices when given.',
  })
  addBillingCharge(
    @Arg('input', () => BillingChargeCreateInput) input: BillingChargeCreateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<{ billingChargeHashId: string }> {
    return services.billingCharges.create(actor, validate(manualChargeCreateSchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('billingCharge.delete')
  @Mutation(() => Boolean, { description: 'Removes a manual charge not yet invoiced (not_manual, is_invoiced).' })
  async removeBillingCharge(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<boolean> {
    await services.billingCharges.remove(actor, hashId);
    return true;
  }

  @Allowed('billingCharge.refund')
  @Mutation(() => BillingChargeCreated, { description: 'Refunds all that is left of a charge, or part of it: a charge of the opposite sign naming it.' })
  refundBillingCharge(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('input', () => BillingChargeRefundInput, { nullable: true }) input: BillingChargeRefundInput | null | undefined,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<{ billingChargeHashId: string }> {
    return services.billingCharges.refund(actor, hashId, validate(chargeRefundSchema, givenArguments(input ?? {}), 'payload_invalid'));
  }

  @Allowed('billingForecast.read')
  @Query(() => BillingForecast, { description: "An organisation's monthly forecast: its devices billed by usage at its pricing now." })
  billingForecast(@Arg('organizationHashId', () => ID) organizationHashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<BillingForecastView> {
    return services.billingCharges.forecast(actor, organizationHashId);
  }
}
