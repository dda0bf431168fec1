import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Page } from '../../contracts/pagination';
import {
  customerPartnershipListQuerySchema,
  partnershipCreateSchema,
  partnershipListQuerySchema,
  partnershipUpdateSchema,
  type PartnershipView,
} from '../../contracts/partnership';
import { validate } from '../../contracts/validation';
import { isStaff } from '../../graph/common/context';
import { givenArguments } from '../../graph/common/graphql-args';
import { PartnershipListArgs } from '../../graph/fleet/types/partnership.args';
import { PartnershipCreateInput, PartnershipUpdateInput } from '../../graph/fleet/types/partnership.input';
import { Partnership, PartnershipDevice, PartnershipPage } from '../../graph/fleet/types/partnership.type';
import type { GraphqlContext } from '../graphql-context';
import { Allowed } from '../access';

/** Partnerships in GraphQL, as /console-admin/v1/partnership and /console/v1/partnership. */
@Resolver(() => Partnership)
export class PartnershipResolver {
  @Allowed('partnership.list', 'partnership.listOwn')
  @Query(() => PartnershipPage, { description: 'Staff: every partnership, with filters. Customers: their own and accepted ones.' })
  partnerships(@Args(() => PartnershipListArgs) args: PartnershipListArgs, @Ctx() { actor, services }: GraphqlContext): Promise<Page<PartnershipView>> {
    if (isStaff(actor)) {
      return services.partnerships.list(actor, validate(partnershipListQuerySchema, givenArguments(args), 'query_invalid'));
    }
    return services.partnerships.customerList(actor, validate(customerPartnershipListQuerySchema, givenArguments(args), 'query_invalid'));
  }

  @FieldResolver(() => [PartnershipDevice], { description: 'The listed devices with their names; empty when allDevices.' })
  async devices(@Root() partnership: PartnershipView, @Ctx() { loaders }: GraphqlContext): Promise<PartnershipDevice[]> {
    // One query for the devices of every partnership the operation answers.
    const names = await loaders.partnershipDeviceName.loadMany(partnership.deviceHashIds);
    return partnership.deviceHashIds.flatMap((hashId, index) => {
      const name = names[index];
      return typeof name === 'string' ? [{ hashId, name }] : [];
    });
  }

  @Allowed('partnership.create')
  @Mutation(() => Partnership)
  createPartnership(
    @Arg('input', () => PartnershipCreateInput) input: PartnershipCreateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<PartnershipView> {
    return services.partnerships.create(actor, validate(partnershipCreateSchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('partnership.update')
  @Mutation(() => Partnership)
  updatePartnership(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('input', () => PartnershipUpdateInput) input: PartnershipUpdateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<PartnershipView> {
    return services.partnerships.update(actor, hashId, validate(partnershipUpdateSchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('partnership.delete')
  @Mutation(() => Boolean)
  async deletePartnership(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<boolean> {
    await services.partnerships.delete(actor, hashId);
    return true;
  }
}
