import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { organizationCreateSchema, organizationListQuerySchema, organizationUpdateSchema, type OrganizationView } from '../../contracts/organization';
import type { Page } from '../../contracts/pagination';
import { GridportError } from '../../contracts/errors';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import type { GraphqlContext } from '../graphql-context';
import { OrganizationListArgs } from '../../graph/identity/types/organization.args';
import { OrganizationCreateInput, OrganizationUpdateInput } from '../../graph/identity/types/organization.input';
import { Organization, OrganizationPage } from '../../graph/identity/types/organization.type';
import type { ReferenceResolver } from '../subgraph';
import { Allowed } from '../access';

@Resolver(() => Organization)
export class OrganizationResolver {
  @Allowed('organization.read', 'organization.readOwn')
  @Query(() => Organization, { description: 'One organisation: staff see any, customers their own.' })
  organization(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<OrganizationView> {
    return services.organizations.get(actor, hashId);
  }

  @Allowed('organization.list')
  @Query(() => OrganizationPage, { description: 'Organisations, newest first (staff only).' })
  organizations(@Args(() => OrganizationListArgs) args: OrganizationListArgs, @Ctx() { actor, services }: GraphqlContext): Promise<Page<OrganizationView>> {
    const query = validate(organizationListQuerySchema, givenArguments(args), 'query_invalid');
    return services.organizations.list(actor, query);
  }

  @Allowed('organization.create')
  @Mutation(() => Organization)
  createOrganization(
    @Arg('input', () => OrganizationCreateInput) input: OrganizationCreateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<OrganizationView> {
    return services.organizations.create(actor, validate(organizationCreateSchema, { ...input }, 'payload_invalid'));
  }

  @Allowed('organization.update')
  @Mutation(() => Organization)
  updateOrganization(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('input', () => OrganizationUpdateInput) input: OrganizationUpdateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<OrganizationView> {
    return services.organizations.update(actor, hashId, validate(organizationUpdateSchema, { ...input }, 'payload_invalid'));
  }
}

/** An Organization another subgraph refers to by its hash id, seen as the actor may see it; the references of one operation load together. */
export const resolveOrganizationReference: ReferenceResolver = (reference, { loaders }) => {
  const { hashId } = reference;
  if (typeof hashId !== 'string') {
    throw new GridportError('not_found', { organizationHashId: null });
  }
  return loaders.organization.load(hashId);
};
