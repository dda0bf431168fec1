import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { PartnershipRole } from '../../../contracts/fleet';
import type { PartnershipView } from '../../../contracts/partnership';
import type { NamedReference } from '../../../contracts/references';
import { pageOf } from '../../common/graphql-page';
import { OrganizationReference } from './organization-reference.type';
import { PartnershipRoleEnum } from './partnership.enum';

/* Partnerships in GraphQL, as contracts/partnership.ts views them. */

@ObjectType('Partnership', { description: 'An owner organisation shares all or some of its devices with a partner.' })
export class Partnership implements PartnershipView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => OrganizationReference)
  owner!: PartnershipView['owner'];

  @Field(() => OrganizationReference)
  partner!: PartnershipView['partner'];

  @Field(() => PartnershipRoleEnum)
  role!: PartnershipRole;

  @Field(() => String)
  description!: string;

  @Field(() => Boolean)
  allDevices!: boolean;

  @Field(() => Int)
  deviceCount!: number;

  @Field(() => [ID])
  deviceHashIds!: string[];
}

/** A device that a partnership lists, by name (the partnership's devices field resolves these). */
@ObjectType('PartnershipDevice', { description: 'A device that a partnership lists: its hash id and name.' })
export class PartnershipDevice implements NamedReference {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;
}

export const PartnershipPage = pageOf<PartnershipView>(Partnership, 'PartnershipPage');
