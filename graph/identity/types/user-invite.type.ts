import { Field, ID, ObjectType } from 'type-graphql';
import type { NamedReference } from '../../../contracts/references';
import type { Right } from '../../../contracts/rights';
import type { UserInviteView } from '../../../contracts/user-invite';
import { pageOf, nextPageOffsetDescription } from '../../common/graphql-page';
import { RightEnum } from './actor.enum';

/* User invites in GraphQL, as contracts/user-invite.ts views them. */

@ObjectType('UserInviteOrganization', { description: 'The organisation an invite is into.' })
export class UserInviteOrganization implements NamedReference {
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

export const UserInvitePage = pageOf<UserInviteView>(UserInvite, 'UserInvitePage', { nextPageOffset: nextPageOffsetDescription });
