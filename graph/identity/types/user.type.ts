import { Directive, Field, ID, ObjectType } from 'type-graphql';
import type { Page } from '../../../contracts/pagination';
import type { Right } from '../../../contracts/rights';
import type { UserView } from '../../../contracts/user';
import { Organization } from './organization.type';

@ObjectType('User', { description: 'A person who signs in to the console.' })
@Directive('@key(fields: "hashId")')
export class User {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  email!: string;

  @Field(() => [String], { description: 'gridport.admin, gridport.ops, gridport.developer, gridport.sales, gridport.employee, customer.read, customer.write' })
  rights!: Right[];

  /** Resolved by UserResolver from the user's organisation hash id. */
  @Field(() => Organization)
  organization!: Organization;
}

/** What the user service answers; the organisation is resolved in full on request. */
export type UserSource = UserView;

@ObjectType('UserPage')
export class UserPage implements Page<UserSource> {
  @Field(() => [User])
  rows!: UserSource[];

  @Field(() => String, { nullable: true, description: 'Pass as offset for the next page; null on the last.' })
  nextPageOffset!: string | null;
}
