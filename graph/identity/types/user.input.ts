import { Field, ID, InputType } from 'type-graphql';
import type { Right } from '../../../contracts/rights';
import { RightEnum } from './actor.enum';

/*
 * The body of updateUser. The rules (lengths, the email rule, rights that fit the organisation,
 * who may change what) are those of contracts/user.ts and UserService.update, the same as
 * PUT /console-admin/v1/user/{hashId}.
 */

@InputType('UserUpdateInput', { description: 'Only the fields given change; rights, when given, replace the user’s rights.' })
export class UserUpdateInput {
  @Field(() => String, { nullable: true, description: '1 to 255 characters.' })
  name?: string | null;

  @Field(() => String, { nullable: true })
  email?: string | null;

  @Field(() => [RightEnum], { nullable: true, description: 'Staff rights in the provider organisation, customer rights elsewhere.' })
  rights?: Right[] | null;

  @Field(() => ID, { nullable: true, description: 'Moving a user to another organisation signs them out everywhere.' })
  organizationHashId?: string | null;
}
