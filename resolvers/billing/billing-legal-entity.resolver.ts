import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { legalEntityCreateSchema, legalEntityListQuerySchema, legalEntityUpdateSchema, type BillingLegalEntityView } from '../../contracts/billing';
import { GridportError } from '../../contracts/errors';
import type { Page } from '../../contracts/pagination';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import { BillingLegalEntityListArgs } from '../../graph/billing/types/billing-legal-entity.args';
import { BillingLegalEntityCreateInput, BillingLegalEntityUpdateInput } from '../../graph/billing/types/billing-legal-entity.input';
import { BillingLegalEntity, BillingLegalEntityPage } from '../../graph/billing/types/billing-legal-entity.type';
import type { GraphqlContext } from '../graphql-context';
import type { ReferenceResolver } from '../subgraph';
import { Allowed } from '../access';

/** The members of an update input that were given: left out stays out, null stays null (it clears). */
function given<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * Billing legal entities in GraphQL, as /console-admin/v1/billing-legal-entity: staff read; Ops,
 * Developer and Sales create, update and delete (console.md section 6).
 */
@Resolver(() => BillingLegalEntity)
export class BillingLegalEntityResolver {
  @Allowed('billingLegalEntity.read')
  @Query(() => BillingLegalEntity)
  billingLegalEntity(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<BillingLegalEntityView> {
    return services.billingLegalEntities.get(actor, hashId);
  }

  @Allowed('billingLegalEntity.list')
  @Query(() => BillingLegalEntityPage, { description: 'Legal entities newest first, of one organisation or all, by company name.' })
  billingLegalEntities(
    @Args(() => BillingLegalEntityListArgs) args: BillingLegalEntityListArgs,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<Page<BillingLegalEntityView>> {
    return services.billingLegalEntities.list(actor, validate(legalEntityListQuerySchema, givenArguments(args), 'query_invalid'));
  }

  @Allowed('billingLegalEntity.create')
  @Mutation(() => BillingLegalEntity, { description: 'As POST /console-admin/v1/billing-legal-entity.' })
  createBillingLegalEntity(
    @Arg('input', () => BillingLegalEntityCreateInput) input: BillingLegalEntityCreateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<BillingLegalEntityView> {
    return services.billingLegalEntities.create(actor, validate(legalEntityCreateSchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('billingLegalEntity.update')
  @Mutation(() => BillingLegalEntity, { description: 'As PUT /console-admin/v1/billing-legal-entity/{hashId}.' })
  updateBillingLegalEntity(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('input', () => BillingLegalEntityUpdateInput) input: BillingLegalEntityUpdateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<BillingLegalEntityView> {
    return services.billingLegalEntities.update(actor, hashId, validate(legalEntityUpdateSchema, given(input), 'payload_invalid'));
  }

  @Allowed('billingLegalEntity.delete')
  @Mutation(() => Boolean, { description: "Deletes a legal entity that is neither its organisation's default nor on an invoice (is_in_use)." })
  async deleteBillingLegalEntity(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<boolean> {
    await services.billingLegalEntities.delete(actor, hashId);
    return true;
  }
}

/** A BillingLegalEntity another subgraph refers to by its hash id (a device's invoice details), as the actor may see it. */
export const resolveBillingLegalEntityReference: ReferenceResolver = (reference, { actor, services }) => {
  const { hashId } = reference;
  if (typeof hashId !== 'string') {
    throw new GridportError('not_found', { billingLegalEntityHashId: null });
  }
  return services.billingLegalEntities.get(actor, hashId);
};
