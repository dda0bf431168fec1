import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Page } from '../../contracts/pagination';
import { userInviteCreateSchema, userInviteListQuerySchema, type UserInviteView } from '../../contracts/user-invite';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import type { GraphqlContext } from '../graphql-context';
import { UserInviteListArgs } from '../../graph/identity/types/user-invite.args';
import { UserInviteInput } from '../../graph/identity/types/user-invite.input';
import { UserInvite, UserInvitePage } from '../../graph/identity/types/user-invite.type';
import { Allowed } from '../access';

/** User invites in GraphQL, as /console-admin/v1/user-invite and /console/v1/user-invite: Ops invite and revoke, everyone lists their own. */
@Resolver(() => UserInvite)
export class UserInviteResolver {
  @Allowed('userInvite.list', 'userInvite.listOwn')
  @Query(() => UserInvitePage, { description: 'Open invites, newest first: staff see every organisation (or one), customers their own.' })
  userInvites(@Args(() => UserInviteListArgs) args: UserInviteListArgs, @Ctx() { actor, services }: GraphqlContext): Promise<Page<UserInviteView>> {
    return services.userInvites.list(actor, validate(userInviteListQuerySchema, givenArguments(args), 'query_invalid'));
  }

  @Allowed('userInvite.create')
  @Mutation(() => [UserInvite], { description: 'Invites 1 to 20 emails into an organisation and mails each its link (Ops).' })
  inviteUsers(@Arg('input', () => UserInviteInput) input: UserInviteInput, @Ctx() { actor, services }: GraphqlContext): Promise<UserInviteView[]> {
    return services.userInvites.create(actor, validate(userInviteCreateSchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('userInvite.revoke')
  @Mutation(() => Boolean, { description: 'Revokes an open invite; its link stops working (Ops).' })
  async revokeUserInvite(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<boolean> {
    await services.userInvites.revoke(actor, hashId);
    return true;
  }
}
