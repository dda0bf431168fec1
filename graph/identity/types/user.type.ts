import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { rights, type Right } from '../../../contracts/rights';
import type { UserView } from '../../../contracts/user';
import { nextPageOffsetDescription, pageOf } from '../../common/graphql-page';
import { Organization } from './organization.type';

@ObjectType('User', { description: 'A person who signs in to the console.' })
@Directive('@key(fields: "hashId")')
export class User implements UserView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  email!: string;

  @Field(() => [String], { description: rights.join(', ') })
  rights!: Right[];

  /** Resolved by UserResolver from the user's organisation hash id. */
  @Field(() => Organization)
  organization!: Organization;
}

export const UserPage = pageOf<UserView>(User, 'UserPage', { nextPageOffset: nextPageOffsetDescription });
