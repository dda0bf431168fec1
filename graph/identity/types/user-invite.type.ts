import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { Page } from '../../../contracts/pagination';
import type { Right } from '../../../contracts/rights';
import type { UserInviteView } from '../../../contracts/user-invite';
import { RightEnum } from './actor.enum';

/*
 * User invites in GraphQL. The rules (1 to 20 emails, the email rule, rights) are those of
 * contracts/user-invite.ts, the same as POST /console-admin/v1/user-invite.
 */

@ObjectType('UserInviteOrganization', { description: 'The organisation an invite is into.' })
export class UserInviteOrganization {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;
}

@ObjectType('UserInvite', { description: 'An open invite: the invitee becomes a user of the organisation with the given rights.' })
export class UserInvite implements UserInviteView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  email!: string;

  @Field(() => String, { description: 'ISO 8601; an invite lasts 7 days.' })
  expiresAt!: string;

  @Field(() => [RightEnum])
  rights!: Right[];

  @Field(() => UserInviteOrganization)
  organization!: UserInviteOrganization;
}

@ObjectType('UserInvitePage')
export class UserInvitePage implements Page<UserInviteView> {
  @Field(() => [UserInvite])
  rows!: UserInviteView[];

  @Field(() => String, { nullable: true, description: 'Pass as offset for the next page; null on the last.' })
  nextPageOffset!: string | null;
}

/** The arguments of `userInvites`; their rules are userInviteListQuerySchema's. */
@ArgsType()
export class UserInviteListArgs {
  @Field(() => String, { nullable: true, description: 'Part of the email, case-insensitive.' })
  filter?: string | null;

  @Field(() => String, { nullable: true, description: 'Staff only: the invites of one organisation.' })
  organizationHashId?: string | null;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true, description: '1 to 500; 50 when not given.' })
  rowsPerPage?: number | null;
}

@InputType('UserInviteInput')
export class UserInviteInput {
  @Field(() => ID)
  organizationHashId!: string;

  @Field(() => [String], { description: '1 to 20 emails.' })
  emails!: string[];

  @Field(() => [RightEnum], { nullable: true, description: 'customer.read for a customer organisation, gridport.employee for Gridport, when not given.' })
  rights?: Right[] | null;
}
