import { Field, ID, InputType } from 'type-graphql';
import type { Right } from '../../../contracts/rights';
import { RightEnum } from './actor.enum';

/*
 * The body of inviteUsers. The rules (1 to 20 emails, the email rule, rights) are those of
 * contracts/user-invite.ts, the same as POST /console-admin/v1/user-invite.
 */

@InputType('UserInviteInput')
export class UserInviteInput {
  @Field(() => ID)
  organizationHashId!: string;

  @Field(() => [String], { description: '1 to 20 emails.' })
  emails!: string[];

  @Field(() => [RightEnum], { nullable: true, description: 'customer.read for a customer organisation, gridport.employee for Gridport, when not given.' })
  rights?: Right[] | null;
}
