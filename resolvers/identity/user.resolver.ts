import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { OrganizationView } from '../../contracts/organization';
import type { Page } from '../../contracts/pagination';
import { GridportError } from '../../contracts/errors';
import { userListQuerySchema, userUpdateSchema, type UserView } from '../../contracts/user';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import type { GraphqlContext } from '../graphql-context';
import { Organization } from '../../graph/identity/types/organization.type';
import { UserListArgs } from '../../graph/identity/types/user.args';
import { UserUpdateInput } from '../../graph/identity/types/user.input';
import { User, UserPage } from '../../graph/identity/types/user.type';
import type { ReferenceResolver } from '../subgraph';
import { Allowed } from '../access';

@Resolver(() => User)
export class UserResolver {
  @Allowed('user.read', 'user.listOwn')
  @Query(() => User, { description: 'One user: staff see any, customers those of their organisation.' })
  user(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<UserView> {
    return services.users.get(actor, hashId);
  }

  @Allowed('user.list', 'user.listOwn')
  @Query(() => UserPage, { description: 'Users, newest first: staff across organisations, customers within their own.' })
  users(@Args(() => UserListArgs) args: UserListArgs, @Ctx() { actor, services }: GraphqlContext): Promise<Page<UserView>> {
    return services.users.list(actor, validate(userListQuerySchema, givenArguments(args), 'query_invalid'));
  }

  @Allowed('user.update')
  @Mutation(() => User, { description: "Changes a user's name, email, rights or organisation; staff rights and staff users need Admin." })
  updateUser(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('input', () => UserUpdateInput) input: UserUpdateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<UserView> {
    return services.users.update(actor, hashId, validate(userUpdateSchema, givenArguments(input), 'payload_invalid'));
  }

  /** The organisations of a page of users load together (one query), not one per user. */
  @FieldResolver(() => Organization)
  organization(@Root() user: UserView, @Ctx() { loaders }: GraphqlContext): Promise<OrganizationView> {
    return loaders.organization.load(user.organization.hashId);
  }
}

export const resolveUserReference: ReferenceResolver = (reference, { actor, services }) => {
  const { hashId } = reference;
  if (typeof hashId !== 'string') {
    throw new GridportError('not_found', { userHashId: null });
  }
  return services.users.get(actor, hashId);
};
